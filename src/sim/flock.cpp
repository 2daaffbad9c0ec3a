#include "sim/flock.h"

#include "tuning.h"

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

uint32_t chooseWorkgroupSize(const gpu::Context& ctx) {
    return fitWorkgroupSize(ctx, tuning::flockWorkgroupSize);
}

// Whether two steps' constants give every position the same grid key (common.glsl: gridKey).
bool sameGridKeys(const StepConstants& a, const StepConstants& b) {
    return a.halfDomain == b.halfDomain && a.invCellWidth == b.invCellWidth && a.gridDim == b.gridDim &&
           a.rowsPerCell == b.rowsPerCell && a.slicesPerCell == b.slicesPerCell &&
           a.boidCount == b.boidCount && a.cellOrder == b.cellOrder;
}

} // namespace

uint64_t flockBytes(uint32_t count) {
    const uint64_t n = count;
    const uint64_t state = 2 * (2 * vec4Bytes + 4) * n + vec4Bytes * n; // pos, vel, ids, twice; velSorted
    const uint64_t pairs = 4 * 4 * n;                   // keys and slots, unsorted and sorted
    const uint64_t sorter =
        2 * 4 * n + 8 * n + 4 * n + 8192; // ping-pong pair; status: 4 passes x 1 KB per tile of >= 512
                                          // keys; reduce-then-scan's tile counts, 1 KB per tile
    // With x windows keys stay within maxGridKeys; whole cells within maxGridCells.
    const uint64_t keys = std::max<uint64_t>(maxGridKeys(count), maxGridCells(count)) + 1;
    const uint64_t starts = 4 * keys;
    // The counting build (the panel switches to it live): every key's count, and the scattered slots.
    const uint64_t counting = 4 * keys + 4 * n;
    const uint64_t counts = 16 * n; // countSearch's per-boid counts
    return state + pairs + sorter + starts + counting + counts;
}

void checkFlockFits(const gpu::Context& ctx, uint32_t count) {
    if (count == 0) throw io::InputError("--boids must be at least 1");
    const uint64_t range = ctx.properties.limits.maxStorageBufferRange;
    const uint64_t maxByRange = std::min<uint64_t>(range / vec4Bytes, sort::maxSortPairs(ctx));
    // Leave a quarter of the device's memory to the driver, the swapchain and the rest.
    const uint64_t budget = ctx.deviceLocalBytes / 4 * 3;
    if (count > maxByRange || flockBytes(count) > budget) {
        uint64_t fit =
            std::min<uint64_t>(maxByRange, uint64_t(double(budget) / double(flockBytes(count)) * count));
        throw io::InputError("--boids " + std::to_string(count) + " needs " +
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
        f.velSorted = gpu::createBuffer(ctx, vec4Bytes * count, gpu::storageUsage, gpu::MemoryUse::Device);
        f.sorter = sort::createSorter(ctx, count);
    } catch (const gpu::OutOfMemory& e) {
        destroyFlock(ctx, f);
        throw io::InputError("--boids " + std::to_string(count) + " does not fit in GPU memory (" + e.what() +
                             ")");
    }

    f.workgroupSize = chooseWorkgroupSize(ctx);
    const std::vector<gpu::SpecConstant> wg = {{gpu::localSizeX, f.workgroupSize}};
    const char* naive = ctx.shaderFloat16 && options.halfFilter ? "naive_half" : "naive";
    f.naive = gpu::createComputeProgram(
        ctx, naive, {{gpu::localSizeX, fitWorkgroupSize(ctx, tuning::naiveWorkgroupSize)}});
    f.search.resize(searchVariants().size());
    f.gridIndex = gpu::createComputeProgram(ctx, "grid_index", wg);
    f.keyStartsOnly = gpu::createComputeProgram(ctx, "key_starts", wg);
    f.keyStartsReorder = gpu::createComputeProgram(ctx, "key_starts_reorder", wg);
    f.gatherVelocities = gpu::createComputeProgram(ctx, "gather_velocities", wg);
    f.gridStats = gpu::createComputeProgram(ctx, "grid_stats", wg, gpu::preferredSubgroupSize(ctx));
    return f;
}

std::vector<gpu::Program*> flockPrograms(Flock& f) {
    std::vector<gpu::Program*> programs = {
        &f.naive,     &f.gridIndex,     &f.keyStartsOnly, &f.keyStartsReorder, &f.gatherVelocities,
        &f.gridStats, &f.counter.count, &f.counter.sum};
    for (gpu::Program& p : f.search) programs.push_back(&p);
    CountingBuild& c = f.counting;
    for (gpu::Program* p : {&c.histogram, &c.scatter, &c.rank, &c.rankReorder, &c.scanner.program})
        programs.push_back(p);
    return programs;
}

void destroyFlock(const gpu::Context& ctx, Flock& f) {
    destroyCounting(ctx, f.counting);
    for (gpu::Program* p : flockPrograms(f)) gpu::destroyProgram(ctx, *p);
    for (int b = 0; b < 2; ++b) {
        gpu::destroyBuffer(ctx, f.pos[b]);
        gpu::destroyBuffer(ctx, f.vel[b]);
        gpu::destroyBuffer(ctx, f.ids[b]);
    }
    for (gpu::Buffer* b : {&f.cellKeys, &f.slotValues, &f.sortedKeys, &f.sortedSlots, &f.keyStarts, &f.velSorted,
                           &f.counter.perBoid, &f.counter.totals})
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

SearchVariant searchVariant(Mode mode, const Params& params) {
    return {mode, params.cohesionRadius == params.alignmentRadius};
}

const std::vector<SearchVariant>& searchVariants() {
    static const std::vector<SearchVariant> variants = {
        {Mode::Scattered, false}, {Mode::Scattered, true}, {Mode::Coherent, false}, {Mode::Coherent, true}};
    return variants;
}

std::string searchVariantName(const SearchVariant& v) {
    return std::string(modeName(v.mode)) + (v.sharedRadii ? ", r1 = r3" : "");
}

namespace {

size_t variantIndex(const SearchVariant& v) {
    const std::vector<SearchVariant>& all = searchVariants();
    const auto it = std::find(all.begin(), all.end(), v);
    CHECK(it != all.end());
    return size_t(it - all.begin());
}

// Makes `buffer` hold at least `needed` 32-bit words; waits for the device first (frames in flight may
// still read the old one).
void growWords(const gpu::Context& ctx, gpu::Buffer& buffer, uint64_t needed, gpu::MemoryUse use) {
    if (buffer.buffer && buffer.size >= 4 * needed) return;
    VK_CHECK(vkDeviceWaitIdle(ctx.device));
    gpu::destroyBuffer(ctx, buffer);
    buffer = gpu::createBuffer(ctx, 4 * needed, gpu::storageUsage, use);
}

// Every key's start and one past the last.
void growKeyStarts(const gpu::Context& ctx, Flock& f, const Grid& grid) {
    if (keyCount(grid) <= f.keyCapacity) return;
    growWords(ctx, f.keyStarts, uint64_t(keyCount(grid)) + 1, gpu::MemoryUse::Device);
    f.keyCapacity = keyCount(grid);
}

} // namespace

void prepareGrid(const gpu::Context& ctx, Flock& f, const Grid& grid, Mode mode, GridBuild build) {
    if (mode == Mode::Naive) return; // no grid
    // The mode's search pipelines on first use: all of them would take seconds to compile on a CPU
    // driver, and a flock needs a few.
    for (bool shared : {false, true}) {
        gpu::Program& program = f.search[variantIndex({mode, shared})];
        if (program.pipeline) continue;
        program = gpu::createComputeProgram(
            ctx, mode == Mode::Coherent ? "grid_search_coherent" : "grid_search_scattered",
            {{gpu::localSizeX, f.workgroupSize}, {"COHESION_IS_ALIGNMENT", shared ? 1u : 0u}});
    }
    if (build == GridBuild::Counting) prepareCounting(ctx, f, grid);
    growKeyStarts(ctx, f, grid);
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
    c.rowsPerCell = grid.rowsPerCell;
    c.slicesPerCell = grid.slicesPerCell;
    // Skipping cells beyond max(r) must never skip one holding a neighbour: a margin of several
    // roundings of coordinates up to 2L.
    c.reach = r + (2.0f * p.domainHalf + r) * 4e-6f;
    // The float16 test works on positions / L: rounding the two positions, their difference and
    // |d| - 1 moves its value by at most 0.00122, and rounding the threshold by 0.00024; a margin
    // of 0.003 (twice that) never rejects a neighbour.
    c.halfFilterThreshold = 1.0f - r / p.domainHalf - 0.003f;
    // Rows thinner than a cell need rows of cells to be runs of keys (sim::CellOrder).
    CHECK(grid.cellOrder == CellOrder::Linear || grid.rowsPerCell == 1);
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

void recordKeyStarts(VkCommandBuffer cmd, Flock& f, const StepConstants& c, const Grid& grid, bool reorder,
                     gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, reorder ? "key starts + reorder" : "key starts");
    // One invocation a block of 64 keys (the empty blocks' starts), one for the entry past the last,
    // and one a boid.
    const uint64_t invocations = (uint64_t(keyCount(grid)) + 63) / 64 + 1 + f.count;
    if (reorder) {
        const uint32_t alt = 1 - f.current, idsAlt = 1 - f.idsCurrent;
        gpu::bindProgram(cmd, f.keyStartsReorder,
                         {f.sortedKeys, f.keyStarts, f.sortedSlots, f.pos[f.current], f.vel[f.current],
                          f.ids[f.idsCurrent], f.pos[alt], f.vel[alt], f.ids[idsAlt]});
        gpu::dispatch(cmd, f.keyStartsReorder, invocations, c);
        f.current = alt; // the state, now in key order
        f.idsCurrent = idsAlt;
    } else {
        gpu::bindProgram(cmd, f.keyStartsOnly, {f.sortedKeys, f.keyStarts});
        gpu::dispatch(cmd, f.keyStartsOnly, invocations, c);
    }
    // Starts (and the reordered state) are the search's input.
    gpu::computeBarrier(cmd);
}

void recordGridSearch(VkCommandBuffer cmd, Flock& f, const StepConstants& c, const SearchVariant& v,
                      gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, "flock");
    const uint32_t next = 1 - f.current;
    const gpu::Program& program = f.search[variantIndex(v)];
    CHECK(program.pipeline != VK_NULL_HANDLE); // prepareGrid compiles the mode's pipelines
    if (v.mode == Mode::Coherent) {
        gpu::bindProgram(cmd, program,
                         {f.pos[f.current], f.vel[f.current], f.keyStarts, f.pos[next], f.vel[next],
                          f.cellKeys, f.slotValues});
    } else {
        // The rules read the velocities in sorted order rather than gather each neighbour's.
        gpu::bindProgram(cmd, f.gatherVelocities, {f.sortedSlots, f.vel[f.current], f.velSorted});
        gpu::dispatch(cmd, f.gatherVelocities, f.count, c);
        gpu::computeBarrier(cmd);
        gpu::bindProgram(cmd, program,
                         {f.pos[f.current], f.velSorted, f.sortedSlots, f.keyStarts, f.pos[next], f.vel[next],
                          f.cellKeys, f.slotValues});
    }
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
    gpu::bindProgram(cmd, f.gridStats, {f.keyStarts, stats});
    gpu::dispatch(cmd, f.gridStats, uint64_t(c.gridDim) * c.gridDim * c.gridDim, c);
    // The host reads the counts once the frame's fence has signalled.
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

void recordStep(VkCommandBuffer cmd, Flock& f, const Params& params, Mode mode, const Grid& grid,
                GridBuild build, gpu::Profiler* profiler) {
    const StepConstants c = stepConstants(params, grid, f.count);
    if (mode == Mode::Naive) {
        recordNaiveStep(cmd, f, c, profiler);
    } else {
        CHECK(f.keyCapacity >= keyCount(grid));
        if (!f.keysCurrent || !sameGridKeys(f.keysFor, c)) recordGridIndex(cmd, f, c, profiler);
        if (build == GridBuild::Counting) {
            recordCountingBuild(cmd, f, c, grid, mode == Mode::Coherent, profiler);
        } else {
            recordSortPairs(cmd, f, grid, profiler);
            recordKeyStarts(cmd, f, c, grid, mode == Mode::Coherent, profiler);
        }
        recordGridSearch(cmd, f, c, searchVariant(mode, params), profiler);
    }
    endOfStepBarrier(cmd);
}

SearchCounts countSearch(const gpu::Context& ctx, Flock& f, const Params& params, const Grid& grid) {
    SearchCounter& counter = f.counter;
    if (!counter.count.pipeline) {
        counter.count = gpu::createComputeProgram(ctx, "grid_count", {{gpu::localSizeX, f.workgroupSize}});
        counter.sum = gpu::createComputeProgram(ctx, "count_sum", {{gpu::localSizeX, f.workgroupSize}});
    }
    growWords(ctx, counter.perBoid, 4ull * f.count, gpu::MemoryUse::Device);
    growWords(ctx, counter.totals, 9, gpu::MemoryUse::Device);
    growKeyStarts(ctx, f, grid);
    const StepConstants c = stepConstants(params, grid, f.count);
    VkCommandBuffer cmd = gpu::beginOneShot(ctx);
    // Work submitted before (a frame's step, its draw) has finished with what this overwrites.
    gpu::memoryBarrier(
        cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
        VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
    // The pairs of the state as it is, sorted, and their starts; the state stays in place.
    recordGridIndex(cmd, f, c, nullptr);
    recordSortPairs(cmd, f, grid, nullptr);
    recordKeyStarts(cmd, f, c, grid, false, nullptr);
    vkCmdFillBuffer(cmd, counter.totals.buffer, 0, VK_WHOLE_SIZE, 0);
    gpu::fillToComputeBarrier(cmd);
    gpu::bindProgram(cmd, counter.count,
                     {f.pos[f.current], f.sortedSlots, f.keyStarts, counter.perBoid, counter.totals});
    gpu::dispatch(cmd, counter.count, f.count, c);
    gpu::computeBarrier(cmd);
    gpu::bindProgram(cmd, counter.sum, {counter.perBoid, counter.totals});
    gpu::dispatch(cmd, counter.sum, f.count, c);
    // The totals are copied out next; the counts stay for whoever reads them.
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    gpu::endOneShot(ctx, cmd);
    f.keysCurrent = false; // the next step makes its own pairs
    uint32_t totals[9];
    gpu::downloadBuffer(ctx, counter.totals, totals, sizeof totals);
    const auto total = [&](int k) { return double(uint64_t(totals[2 * k + 1]) << 32 | totals[2 * k]); };
    const double n = f.count, size = totals[8], laneSteps = total(2) * size, ruleLanes = total(3) * size;
    // The boid itself is within reach in its own walk (unless max(r)^2 rounds to 0), as the rules see it.
    const bool selfReached = std::max({c.cohesionRadiusSq, c.separationRadiusSq, c.alignmentRadiusSq}) > 0;
    const double reached = total(1) + (selfReached ? n : 0);
    return {total(0) / n, total(1) / n, laneSteps > 0 ? total(0) / laneSteps : 0,
            ruleLanes > 0 ? reached / ruleLanes : 0, totals[8]};
}

} // namespace sim
