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
    return a.domainHalf == b.domainHalf && a.invCellWidth == b.invCellWidth && a.gridDim == b.gridDim &&
           a.rowsPerCell == b.rowsPerCell && a.slicesPerCell == b.slicesPerCell &&
           a.boidCount == b.boidCount && a.cellOrder == b.cellOrder;
}

} // namespace

bool usesPackedVelocity(Mode mode, const FlockOptions& options) {
    return mode == Mode::Coherent && options.packedVelocity;
}

uint64_t flockBytes(uint32_t count) {
    const uint64_t n = count;
    const uint64_t state = 2 * (2 * vec4Bytes + 4) * n + vec4Bytes * n; // pos, vel, ids, twice; velSorted
    const uint64_t pairs = 4 * 4 * n;                                   // keys and slots, unsorted and sorted
    const uint64_t sorter = 2 * 4 * n + 8 * n + 8192; // ping-pong pair; status: 4 passes x 1 KB per tile of
                                                      // >= 512 keys (Auto builds no reduce-then-scan)
    // With x windows keys stay within maxGridKeys; whole cells within maxGridCells.
    const uint64_t keys = std::max<uint64_t>(maxGridKeys(count), maxGridCells(count)) + 1;
    const uint64_t starts = 4 * keys;
    // The counting build (the panel switches to it live): every key's count, and the scattered slots.
    const uint64_t counting = 4 * keys + 4 * n;
    const uint64_t counts = 16 * n; // countSearch's per-boid counts
    return state + pairs + sorter + starts + counting + counts;
}

FlockTooLarge::FlockTooLarge(uint32_t count, uint64_t fits, const std::string& why)
    : io::InputError(why), count(count), fits(fits) {}

void checkFlockFits(const gpu::Context& ctx, uint32_t count) {
    if (count == 0) throw io::InputError("a flock needs at least 1 boid");
    const uint64_t range = ctx.properties.limits.maxStorageBufferRange;
    const uint64_t maxByRange = std::min<uint64_t>(range / vec4Bytes, sort::maxSortPairs(ctx));
    // Leave a quarter of the device's memory to the driver, the swapchain and the rest.
    const uint64_t budget = ctx.deviceLocalBytes / 4 * 3;
    if (count > maxByRange || flockBytes(count) > budget) {
        uint64_t fit =
            std::min<uint64_t>(maxByRange, uint64_t(double(budget) / double(flockBytes(count)) * count));
        throw FlockTooLarge(count, fit,
                            "needs " + std::to_string(flockBytes(count) >> 20) + " MiB of GPU memory; " +
                                ctx.properties.deviceName + " can hold about " + std::to_string(fit) +
                                " boids");
    }
}

Flock createFlock(const gpu::Context& ctx, uint32_t count, const FlockOptions& options) {
    checkFlockFits(ctx, count);
    Flock f;
    f.count = count;
    f.options = options;
    f.workgroupSize = chooseWorkgroupSize(ctx);
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
        f.radix = createRadixBuild(ctx, count, f.workgroupSize);
    } catch (const gpu::OutOfMemory& e) {
        destroyFlock(ctx, f);
        throw FlockTooLarge(count, 0, std::string("does not fit in GPU memory (") + e.what() + ")");
    }

    const std::vector<gpu::SpecConstant> wg = {{gpu::localSizeX, f.workgroupSize}};
    const char* naive = ctx.shaderFloat16 && options.float16Filter ? "naive_float16" : "naive";
    f.naive = gpu::createComputeProgram(
        ctx, naive, {{gpu::localSizeX, fitWorkgroupSize(ctx, tuning::naiveWorkgroupSize)}});
    f.search = createSearch(ctx, f.workgroupSize);
    f.gridIndex = gpu::createComputeProgram(ctx, "grid_index", wg);
    f.gridStats = gpu::createComputeProgram(ctx, "grid_stats", wg, gpu::preferredSubgroupSize(ctx));
    return f;
}

std::vector<gpu::Program*> flockPrograms(Flock& f) {
    std::vector<gpu::Program*> programs = {
        &f.naive,         &f.gridIndex,  &f.gridStats, &f.radix.keyStartsOnly, &f.radix.keyStartsReorder,
        &f.counter.count, &f.counter.sum};
    for (gpu::Program* p : searchPrograms(f.search)) programs.push_back(p);
    CountingBuild& c = f.counting;
    for (gpu::Program* p : {&c.histogram, &c.scatter, &c.rank, &c.rankReorder, &c.scanner.program})
        programs.push_back(p);
    return programs;
}

void destroyFlock(const gpu::Context& ctx, Flock& f) {
    destroyRadixBuild(ctx, f.radix);
    destroyCounting(ctx, f.counting);
    destroySearch(ctx, f.search);
    destroySearchCounter(ctx, f.counter);
    gpu::destroyProgram(ctx, f.naive);
    gpu::destroyProgram(ctx, f.gridIndex);
    gpu::destroyProgram(ctx, f.gridStats);
    for (int b = 0; b < 2; ++b) {
        gpu::destroyBuffer(ctx, f.pos[b]);
        gpu::destroyBuffer(ctx, f.vel[b]);
        gpu::destroyBuffer(ctx, f.ids[b]);
    }
    for (gpu::Buffer* b :
         {&f.cellKeys, &f.slotValues, &f.sortedKeys, &f.sortedSlots, &f.keyStarts, &f.velSorted})
        gpu::destroyBuffer(ctx, *b);
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

void growKeyStarts(const gpu::Context& ctx, Flock& f, const Grid& grid) {
    if (keyCount(grid) <= f.keyCapacity) return;
    gpu::growStorage(ctx, f.keyStarts, uint64_t(keyCount(grid)) + 1, gpu::MemoryUse::Device);
    f.keyCapacity = keyCount(grid);
}

void prepareGrid(const gpu::Context& ctx, Flock& f, const Grid& grid, Mode mode, GridBuild build) {
    if (mode == Mode::Naive) return; // no grid
    prepareSearch(ctx, f.search, mode, f.workgroupSize, f.options.packedVelocity, f.options.packedRoom);
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
    c.domainHalf = p.domainHalf;
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
    c.float16FilterThreshold = 1.0f - r / p.domainHalf - 0.003f;
    // Rows thinner than a cell need rows of cells to be runs of keys (sim::CellOrder).
    CHECK(grid.cellOrder == CellOrder::Linear || grid.rowsPerCell == 1);
    c.cellOrder = grid.cellOrder == CellOrder::Morton ? CELL_ORDER_MORTON : CELL_ORDER_LINEAR;
    c.velocityPackScale = velocityPackScale(p.maxSpeed);
    c.velocityPackStep = velocityPackStep(p.maxSpeed);
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
        recordGridSearch(cmd, f, c, searchVariant(mode, params, f.options.packedVelocity), profiler);
    }
    endOfStepBarrier(cmd);
}

} // namespace sim
