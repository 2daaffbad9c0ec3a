#include "sim/flock.h"

#include "sim/counting.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <iterator>

namespace sim {
namespace {

using gpudata::StepConstants;

constexpr VkDeviceSize vec4Bytes = 16;

// The state written by a step is read by the next step, by the draw's vertex shader or by a
// readback copy; later fills and copies may overwrite what the step read.
void endOfStepBarrier(VkCommandBuffer cmd) {
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                           VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                       VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT |
                           VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

// A group of `preferred` invocations, or as many as the device allows.
uint32_t fitWorkgroupSize(const gpu::Context& ctx, uint32_t preferred) {
    return std::min<uint32_t>({preferred, ctx.properties.limits.maxComputeWorkGroupInvocations,
                               ctx.properties.limits.maxComputeWorkGroupSize[0]});
}

// 128 rather than 256: on the H200 the flock pass is 1 to 2% faster at 1M boids and in every
// scattered grid, and about 1% slower in crowded coherent grids.
uint32_t chooseWorkgroupSize(const gpu::Context& ctx) {
    return fitWorkgroupSize(ctx, 128);
}

// The flock pass's groups: 512 for scattered walks of slices or quarter rows, 128 otherwise. On the
// H200 groups of 512 made scattered slices 4.5% faster at 1M and 12% at 10.24M, where a group's
// gathers through the index overlap better; coherent rows, short and contiguous, ran 7 to 8% faster
// in groups of 128.
uint32_t searchWorkgroupSize(const gpu::Context& ctx, const SearchVariant& v) {
    const bool large = v.mode == Mode::Scattered && v.walk != Walk::Cells;
    return fitWorkgroupSize(ctx, large ? 512 : 128);
}

// Whether two steps' constants give every position the same grid key (common.glsl: gridKey).
bool sameGridKeys(const StepConstants& a, const StepConstants& b) {
    return a.halfDomain == b.halfDomain && a.invCellWidth == b.invCellWidth && a.gridDim == b.gridDim &&
           a.subCells == b.subCells && a.slicesPerCell == b.slicesPerCell && a.boidCount == b.boidCount &&
           a.cellOrder == b.cellOrder;
}

} // namespace

uint64_t flockBytes(uint32_t count) {
    const uint64_t n = count;
    const uint64_t state = 2 * (2 * vec4Bytes + 4) * n; // pos, vel, ids, twice
    const uint64_t pairs = 4 * 4 * n;                   // keys and slots, unsorted and sorted
    const uint64_t sorter =
        2 * 4 * n + 8 * n + 4 * n + 8192; // ping-pong pair; status: 4 passes x 1 KB per tile of >= 512
                                          // keys; reduce-then-scan's tile counts, 1 KB per tile
    const uint64_t cells = 8ull * maxGridCells(count);
    const uint64_t subCells = 8ull * (maxSubCells(count) + 1); // each sub-key's [start, end) or start
    // The counting build (the panel switches to it live): counts and starts of every key, and the
    // scattered slots.
    const uint64_t counting =
        8ull * (std::max<uint64_t>(maxGridCells(count), maxSubCells(count)) + 1) + 4 * n;
    return state + pairs + sorter + cells + subCells + counting;
}

void checkFlockFits(const gpu::Context& ctx, uint32_t count) {
    if (count == 0) throw InputError("--boids must be at least 1");
    const uint64_t range = ctx.properties.limits.maxStorageBufferRange;
    const uint64_t maxByRange = std::min<uint64_t>(range / vec4Bytes, sort::maxSortPairs(ctx));
    // Leave a quarter of the device's memory to the driver, the swapchain and the rest.
    const uint64_t budget = ctx.deviceLocalBytes / 4 * 3;
    if (count > maxByRange || flockBytes(count) > budget) {
        uint64_t fit =
            std::min<uint64_t>(maxByRange, uint64_t(double(budget) / double(flockBytes(count)) * count));
        throw InputError("--boids " + std::to_string(count) + " needs " +
                         std::to_string(flockBytes(count) >> 20) + " MiB of GPU memory; " +
                         ctx.properties.deviceName + " can hold about " + std::to_string(fit) + " boids");
    }
}

Flock createFlock(const gpu::Context& ctx, uint32_t count, const FlockOptions& options) {
    checkFlockFits(ctx, count);
    Flock f;
    f.count = count;
    try {
        for (int b = 0; b < 2; ++b) {
            f.pos[b] = gpu::createBuffer(ctx, vec4Bytes * count, gpu::storageUsage, gpu::MemoryUse::Device);
            f.vel[b] = gpu::createBuffer(ctx, vec4Bytes * count, gpu::storageUsage, gpu::MemoryUse::Device);
            f.ids[b] = gpu::createBuffer(ctx, 4ull * count, gpu::storageUsage, gpu::MemoryUse::Device);
        }
        f.cellKeys = gpu::createBuffer(ctx, 4ull * count, gpu::storageUsage, gpu::MemoryUse::Device);
        f.slotValues = gpu::createBuffer(ctx, 4ull * count, gpu::storageUsage, gpu::MemoryUse::Device);
        f.sortedKeys = gpu::createBuffer(ctx, 4ull * count, gpu::storageUsage, gpu::MemoryUse::Device);
        f.sortedSlots = gpu::createBuffer(ctx, 4ull * count, gpu::storageUsage, gpu::MemoryUse::Device);
        f.sorter = sort::createSorter(ctx, count);
    } catch (const gpu::OutOfMemory& e) {
        destroyFlock(ctx, f);
        throw InputError("--boids " + std::to_string(count) + " does not fit in GPU memory (" + e.what() +
                         ")");
    }

    f.workgroupSize = chooseWorkgroupSize(ctx);
    const std::vector<gpu::SpecConstant> wg = {{0, f.workgroupSize}};
    // 128-wide groups keep 100k boids spread over all SMs of a big GPU.
    const char* naive = ctx.shaderFloat16 && options.halfFilter ? "naive_half" : "naive";
    f.naive = gpu::createComputeProgram(ctx, naive, {{0, std::min<uint32_t>(128, f.workgroupSize)}});
    f.search.resize(searchVariants().size());
    f.gridIndex = gpu::createComputeProgram(ctx, "grid_index", wg);
    f.cellRangesOnly = gpu::createComputeProgram(ctx, "cell_ranges", wg);
    f.cellRangesReorder = gpu::createComputeProgram(ctx, "cell_ranges_reorder", wg);
    f.gridStats = gpu::createComputeProgram(ctx, "grid_stats", wg, gpu::preferredSubgroupSize(ctx));
    return f;
}

std::vector<gpu::Program*> flockPrograms(Flock& f) {
    std::vector<gpu::Program*> programs = {&f.naive, &f.gridIndex, &f.cellRangesOnly, &f.cellRangesReorder,
                                           &f.gridStats};
    for (gpu::Program& p : f.search) programs.push_back(&p);
    for (gpu::Program* p :
         {&f.countHistogram, &f.countScatter, &f.countRank, &f.countRankReorder, &f.scanner.program})
        programs.push_back(p);
    return programs;
}

void destroyFlock(const gpu::Context& ctx, Flock& f) {
    destroyCounting(ctx, f);
    for (gpu::Program* p : flockPrograms(f)) gpu::destroyProgram(ctx, *p);
    for (int b = 0; b < 2; ++b) {
        gpu::destroyBuffer(ctx, f.pos[b]);
        gpu::destroyBuffer(ctx, f.vel[b]);
        gpu::destroyBuffer(ctx, f.ids[b]);
    }
    for (gpu::Buffer* b :
         {&f.cellKeys, &f.slotValues, &f.sortedKeys, &f.sortedSlots, &f.cellRanges, &f.subRanges})
        gpu::destroyBuffer(ctx, *b);
    sort::destroySorter(ctx, f.sorter);
    f = Flock{};
}

void uploadState(const gpu::Context& ctx, Flock& f, const State& s) {
    CHECK(s.count() == f.count);
    std::vector<float> pos(size_t(f.count) * 4), vel(size_t(f.count) * 4);
    std::vector<uint32_t> ids(f.count);
    for (uint32_t i = 0; i < f.count; ++i) {
        for (int a = 0; a < 3; ++a) {
            pos[size_t(i) * 4 + a] = s.data[size_t(i) * 6 + a];
            vel[size_t(i) * 4 + a] = s.data[size_t(i) * 6 + 3 + a];
        }
        ids[i] = i;
    }
    f.current = 0;
    f.idsCurrent = 0;
    f.keysCurrent = false;
    gpu::uploadBuffer(ctx, f.pos[0], pos.data(), pos.size() * 4);
    gpu::uploadBuffer(ctx, f.vel[0], vel.data(), vel.size() * 4);
    gpu::uploadBuffer(ctx, f.ids[0], ids.data(), ids.size() * 4);
}

State downloadState(const gpu::Context& ctx, const Flock& f) {
    std::vector<float> pos(size_t(f.count) * 4), vel(size_t(f.count) * 4);
    std::vector<uint32_t> ids(f.count);
    gpu::downloadBuffer(ctx, f.pos[f.current], pos.data(), pos.size() * 4);
    gpu::downloadBuffer(ctx, f.vel[f.current], vel.data(), vel.size() * 4);
    gpu::downloadBuffer(ctx, f.ids[f.idsCurrent], ids.data(), ids.size() * 4);
    State s;
    s.data.resize(size_t(f.count) * 6);
    std::vector<bool> seen(f.count, false);
    for (uint32_t k = 0; k < f.count; ++k) {
        const uint32_t id = ids[k];
        CHECK(id < f.count && !seen[id]); // the ids must stay a permutation
        seen[id] = true;
        for (int a = 0; a < 3; ++a) {
            s.data[size_t(id) * 6 + a] = pos[size_t(k) * 4 + a];
            s.data[size_t(id) * 6 + 3 + a] = vel[size_t(k) * 4 + a];
        }
    }
    return s;
}

SearchVariant searchVariant(const Grid& grid, const Params& params) {
    SearchVariant v;
    v.mode = grid.mode;
    v.walk = grid.walk;
    v.rowsPerCell = grid.walk == Walk::Rows ? (grid.quarters ? 2 : 1) : 0;
    v.slicesPerCell = grid.walk == Walk::Cells ? 0 : grid.slicesPerCell;
    v.sharedRadii = params.cohesionRadius == params.alignmentRadius;
    return v;
}

const std::vector<SearchVariant>& searchVariants() {
    // What makeGrid can choose: whole cells in either mode; scattered slices cell by cell; coherent
    // slices by rows, or cell by cell in Morton order; quarter rows by rows in either mode, in 8, 16 or
    // 32 slices (the finest that fits). Each for both radius cases.
    static const std::vector<SearchVariant> variants = [] {
        std::vector<SearchVariant> out;
        for (bool shared : {false, true})
            for (Mode mode : {Mode::Scattered, Mode::Coherent}) {
                out.push_back({mode, Walk::Cells, 0, 0, shared});
                out.push_back({mode, Walk::Slices, 0, 8, shared});
                if (mode == Mode::Coherent) out.push_back({mode, Walk::Rows, 1, 8, shared});
                for (uint32_t slices : {8u, 16u, 32u}) out.push_back({mode, Walk::Rows, 2, slices, shared});
            }
        return out;
    }();
    return variants;
}

std::string searchVariantName(const SearchVariant& v) {
    std::string name = std::string(modeName(v.mode)) + " " +
                       (v.walk == Walk::Cells    ? "cells"
                        : v.walk == Walk::Slices ? "slices"
                        : v.rowsPerCell == 2     ? "quarter rows"
                                                 : "rows");
    if (v.slicesPerCell) name += " in " + std::to_string(v.slicesPerCell) + " slices";
    return name + (v.sharedRadii ? ", r1 = r3" : "");
}

namespace {

size_t variantIndex(const SearchVariant& v) {
    const std::vector<SearchVariant>& all = searchVariants();
    const auto it = std::find(all.begin(), all.end(), v);
    CHECK(it != all.end()); // makeGrid chose a walk the list lacks
    return size_t(it - all.begin());
}

} // namespace

void prepareGrid(const gpu::Context& ctx, Flock& f, const Grid& grid) {
    // The grid's search pipelines on first use: all of them would take seconds to compile on a CPU
    // driver, and a flock needs a few.
    if (grid.mode != Mode::Naive)
        for (bool shared : {false, true}) {
            SearchVariant v = searchVariant(grid, Params{});
            v.sharedRadii = shared;
            gpu::Program& program = f.search[variantIndex(v)];
            if (program.pipeline) continue;
            program = gpu::createComputeProgram(
                ctx, v.mode == Mode::Coherent ? "grid_search_coherent" : "grid_search_scattered",
                {{0, searchWorkgroupSize(ctx, v)},
                 {1, v.sharedRadii ? 1u : 0u},
                 {2, uint32_t(v.walk)},
                 {3, std::max(v.rowsPerCell, 1u)},
                 {4, std::max(v.slicesPerCell, 8u)}});
        }

    if (grid.build == GridBuild::Counting) prepareCounting(ctx, f, grid);

    // Without sub-keys the passes still bind a (small, unused) sub-range buffer.
    const uint32_t subCells = subRangeCount(grid);
    if (grid.keyCells <= f.cellCapacity && subCells <= f.subCellCapacity) return;
    // The old buffers may still be read by frames in flight.
    VK_CHECK(vkDeviceWaitIdle(ctx.device));
    if (grid.keyCells > f.cellCapacity) {
        gpu::destroyBuffer(ctx, f.cellRanges);
        f.cellRanges =
            gpu::createBuffer(ctx, 8ull * grid.keyCells, gpu::storageUsage, gpu::MemoryUse::Device);
        f.cellCapacity = grid.keyCells;
    }
    if (subCells > f.subCellCapacity) {
        gpu::destroyBuffer(ctx, f.subRanges);
        f.subRanges = gpu::createBuffer(ctx, 8ull * subCells, gpu::storageUsage, gpu::MemoryUse::Device);
        f.subCellCapacity = subCells;
    }
}

StepConstants stepConstants(const Params& p, const Grid& grid, uint32_t count) {
    StepConstants c{};
    c.cohesionRadiusSq = p.cohesionRadius * p.cohesionRadius;
    c.separationRadiusSq = p.separationRadius * p.separationRadius;
    c.alignmentRadiusSq = p.alignmentRadius * p.alignmentRadius;
    // The naive pass's cube test must never reject a pair the exact test accepts: leave a margin of
    // several float roundings of values up to 2L.
    const float r = maxRadius(p);
    c.filterThreshold = p.domainHalf - r - (p.domainHalf + r) * 1e-5f;
    c.cohesionScale = p.cohesionScale;
    c.separationScale = p.separationScale;
    c.alignmentScale = p.alignmentScale;
    c.maxSpeed = p.maxSpeed;
    c.dt = p.dt;
    c.halfDomain = p.domainHalf;
    c.cellWidth = grid.cellWidth;
    c.invCellWidth = float(grid.dim) / (2.0f * p.domainHalf);
    c.boidCount = count;
    c.gridDim = grid.dim;
    c.searchCells = uint32_t(grid.searchCells);
    // Skipping cells beyond max(r) must never skip one holding a neighbour: a margin of several
    // roundings of coordinates up to 2L.
    c.reach = r + (2.0f * p.domainHalf + r) * 4e-6f;
    // The float16 test works on positions / L: rounding the two positions, their difference and
    // |d| - 1 moves its value by at most 0.00122, and rounding the threshold by 0.00024; a margin
    // of 0.003 (twice that) never rejects a neighbour.
    c.halfFilterThreshold = 1.0f - r / p.domainHalf - 0.003f;
    c.subCells = grid.quarters ? SUB_CELLS_QUARTERS : grid.slices ? SUB_CELLS_SLICES : SUB_CELLS_NONE;
    CHECK(grid.slicesPerCell == 8 ||
          (grid.quarters && (grid.slicesPerCell == 16 || grid.slicesPerCell == 32)));
    c.slicesPerCell = grid.slicesPerCell;
    // The rows walk and quarter rows need rows of cells to be runs of keys (sim::CellOrder).
    CHECK(grid.cellOrder == CellOrder::Linear || (grid.walk != Walk::Rows && !grid.quarters));
    c.cellOrder = grid.cellOrder == CellOrder::Morton ? CELL_ORDER_MORTON : CELL_ORDER_LINEAR;
    if (p.predator) {
        c.predatorOn = 1;
        c.predatorX = wrapCoordinate(p.predatorPos[0], p.domainHalf);
        c.predatorY = wrapCoordinate(p.predatorPos[1], p.domainHalf);
        c.predatorZ = wrapCoordinate(p.predatorPos[2], p.domainHalf);
        c.predatorRadiusSq = p.predatorRadius * p.predatorRadius;
        c.predatorInvRadius = 1.0f / p.predatorRadius; // unused at radius 0: no boid is within it
        c.predatorScale = p.predatorScale;
    }
    return c;
}

void recordNaiveStep(VkCommandBuffer cmd, Flock& f, const StepConstants& c, gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, "flock");
    const uint32_t next = 1 - f.current;
    gpu::bindProgram(cmd, f.naive, {f.pos[f.current], f.vel[f.current], f.pos[next], f.vel[next]});
    // Each invocation owns two boids (naive.comp: BOIDS).
    gpu::dispatchGroups(cmd, f.naive, gpu::groupCount(f.count, f.naive.localSizeX * 2), c);
    f.current = next;
    f.keysCurrent = false;
}

void recordGridIndex(VkCommandBuffer cmd, Flock& f, const StepConstants& c, gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, "grid index");
    gpu::bindProgram(cmd, f.gridIndex, {f.pos[f.current], f.cellKeys, f.slotValues});
    gpu::dispatch(cmd, f.gridIndex, f.count, c);
    // The pairs are the sort's input.
    gpu::computeBarrier(cmd);
}

void recordSortPairs(VkCommandBuffer cmd, Flock& f, const Grid& grid, gpu::Profiler* profiler) {
    // The sort opens its own "sort" scope and ends with a compute barrier.
    sort::recordSort(cmd, f.sorter, f.cellKeys, f.slotValues, f.sortedKeys, f.sortedSlots, f.count,
                     grid.keyBits, profiler);
}

void recordCellRanges(VkCommandBuffer cmd, Flock& f, const StepConstants& c, const Grid& grid, bool reorder,
                      gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, reorder ? "cell ranges + reorder" : "cell ranges");
    // Slices and quarters write no cell ranges, and need no clear of their starts: the pass writes
    // every sub-key's. Either way the previous step's search has finished reading what is rewritten.
    if (grid.slices) {
        gpu::computeBarrier(cmd);
    } else {
        gpu::computeToTransferBarrier(cmd);
        vkCmdFillBuffer(cmd, f.cellRanges.buffer, 0, 8ull * grid.keyCells, CELL_EMPTY);
        gpu::fillToComputeBarrier(cmd);
    }
    // One invocation a boid and, with slices or quarters, one a block of 64 sub-keys (empty blocks'
    // starts) and one for the entry past the last.
    const uint64_t subKeys = subRangeCount(grid) - 1;
    const uint64_t invocations = f.count + (grid.slices ? (subKeys + 63) / 64 + 1 : 0);
    if (reorder) {
        const uint32_t alt = 1 - f.current, idsAlt = 1 - f.idsCurrent;
        gpu::bindProgram(cmd, f.cellRangesReorder,
                         {f.sortedKeys, f.cellRanges, f.sortedSlots, f.pos[f.current], f.vel[f.current],
                          f.ids[f.idsCurrent], f.pos[alt], f.vel[alt], f.ids[idsAlt], f.subRanges});
        gpu::dispatch(cmd, f.cellRangesReorder, invocations, c);
        f.current = alt; // the state, now in cell order
        f.idsCurrent = idsAlt;
    } else {
        gpu::bindProgram(cmd, f.cellRangesOnly, {f.sortedKeys, f.cellRanges, f.subRanges});
        gpu::dispatch(cmd, f.cellRangesOnly, invocations, c);
    }
    // Ranges (and reordered state) are the search's input.
    gpu::computeBarrier(cmd);
}

void recordGridSearch(VkCommandBuffer cmd, Flock& f, const StepConstants& c, const SearchVariant& v,
                      gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, "flock");
    const uint32_t next = 1 - f.current;
    const gpu::Program& program = f.search[variantIndex(v)];
    CHECK(program.pipeline != VK_NULL_HANDLE); // prepareGrid compiles the grid's walk
    CHECK(v.slicesPerCell == 0 ||
          v.slicesPerCell == c.slicesPerCell); // the walk's compiled slices are the keys'
    if (v.mode == Mode::Coherent)
        gpu::bindProgram(cmd, program,
                         {f.pos[f.current], f.vel[f.current], f.cellRanges, f.pos[next], f.vel[next],
                          f.subRanges, f.cellKeys, f.slotValues});
    else
        gpu::bindProgram(cmd, program,
                         {f.pos[f.current], f.vel[f.current], f.sortedSlots, f.cellRanges, f.pos[next],
                          f.vel[next], f.subRanges, f.cellKeys, f.slotValues});
    gpu::dispatch(cmd, program, f.count, c);
    f.current = next;
    f.keysCurrent = true; // the new state's pairs for this grid
    f.keysFor = c;
}

void recordGridStats(VkCommandBuffer cmd, Flock& f, const StepConstants& c, const gpu::Buffer& stats,
                     gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, "grid stats");
    // The previous use of the stats buffer (any stage) is over before the clear.
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                       VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(cmd, stats.buffer, 0, VK_WHOLE_SIZE, 0);
    gpu::fillToComputeBarrier(cmd);
    gpu::bindProgram(cmd, f.gridStats, {f.cellRanges, stats, f.subRanges});
    gpu::dispatch(cmd, f.gridStats, uint64_t(c.gridDim) * c.gridDim * c.gridDim, c);
    // The host reads the counts once the frame's fence has signalled.
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

void recordStep(VkCommandBuffer cmd, Flock& f, const Params& params, Mode mode, const Grid& grid,
                gpu::Profiler* profiler) {
    const StepConstants c = stepConstants(params, grid, f.count);
    if (mode == Mode::Naive) {
        recordNaiveStep(cmd, f, c, profiler);
    } else {
        CHECK(f.cellCapacity >= grid.keyCells && f.subCellCapacity >= subRangeCount(grid));
        CHECK(grid.mode == mode); // the walk was chosen for the grid's mode
        if (!f.keysCurrent || !sameGridKeys(f.keysFor, c)) recordGridIndex(cmd, f, c, profiler);
        if (grid.build == GridBuild::Counting) {
            recordCountingBuild(cmd, f, c, grid, mode == Mode::Coherent, profiler);
        } else {
            recordSortPairs(cmd, f, grid, profiler);
            recordCellRanges(cmd, f, c, grid, mode == Mode::Coherent, profiler);
        }
        recordGridSearch(cmd, f, c, searchVariant(grid, params), profiler);
    }
    endOfStepBarrier(cmd);
}

} // namespace sim
