#include "sim/counting.h"

#include "sim/flock.h"

namespace sim {

void prepareCounting(const gpu::Context& ctx, Flock& f, const Grid& grid) {
    CountingBuild& b = f.counting;
    if (!b.histogram.pipeline) {
        // One atomic a run of equal keys needs whole subgroups, pinned where the device can.
        const std::vector<gpu::SpecConstant> wg = {{gpu::localSizeX, f.workgroupSize}};
        const uint32_t subgroup = gpu::preferredSubgroupSize(ctx);
        b.histogram = gpu::createComputeProgram(ctx, "counting_histogram", wg, subgroup);
        b.scatter = gpu::createComputeProgram(ctx, "counting_scatter", wg, subgroup);
        b.rank = gpu::createComputeProgram(ctx, "counting_rank", wg);
        b.rankReorder = gpu::createComputeProgram(ctx, "counting_rank_reorder", wg);
    }
    // Counts and starts for every key and one past the last (whose count stays zero: its start is n).
    const uint32_t keys = keyCount(grid) + 1;
    if (keys <= b.capacity) return;
    // The old buffers may still be read by frames in flight.
    VK_CHECK(vkDeviceWaitIdle(ctx.device));
    for (gpu::Buffer* buffer : {&b.keyCounts, &b.scatteredSlots}) gpu::destroyBuffer(ctx, *buffer);
    sort::destroyScanner(ctx, b.scanner);
    b.keyCounts = gpu::createBuffer(ctx, 4ull * keys, gpu::storageUsage, gpu::MemoryUse::Device);
    b.scatteredSlots = gpu::createBuffer(ctx, 4ull * f.count, gpu::storageUsage, gpu::MemoryUse::Device);
    b.scanner = sort::createScanner(ctx, keys);
    b.capacity = keys;
}

void destroyCounting(const gpu::Context& ctx, CountingBuild& b) {
    for (gpu::Program* p : {&b.histogram, &b.scatter, &b.rank, &b.rankReorder}) gpu::destroyProgram(ctx, *p);
    for (gpu::Buffer* buffer : {&b.keyCounts, &b.scatteredSlots}) gpu::destroyBuffer(ctx, *buffer);
    sort::destroyScanner(ctx, b.scanner);
    b = CountingBuild{};
}

namespace {

void recordHistogram(VkCommandBuffer cmd, Flock& f, const gpudata::StepConstants& c, const Grid& grid,
                     gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, "grid/histogram");
    const uint32_t keys = keyCount(grid) + 1;
    // The previous step's passes have finished with the counts before the clear.
    gpu::computeToTransferBarrier(cmd);
    vkCmdFillBuffer(cmd, f.counting.keyCounts.buffer, 0, 4ull * keys, 0);
    gpu::fillToComputeBarrier(cmd);
    gpu::bindProgram(cmd, f.counting.histogram, {f.cellKeys, f.counting.keyCounts});
    gpu::dispatch(cmd, f.counting.histogram, f.count, c);
    // The counts are the scan's input (recordExclusiveScan begins with the barrier).
}

void recordScan(VkCommandBuffer cmd, Flock& f, const Grid& grid, gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, "grid/scan");
    // Ends with the barrier that makes the starts visible to the scatter.
    sort::recordExclusiveScan(cmd, f.counting.scanner, f.counting.keyCounts, f.keyStarts, keyCount(grid) + 1);
}

void recordScatter(VkCommandBuffer cmd, Flock& f, const gpudata::StepConstants& c, gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, "grid/scatter");
    gpu::bindProgram(
        cmd, f.counting.scatter,
        {f.cellKeys, f.counting.keyCounts, f.keyStarts, f.counting.scatteredSlots, f.sortedKeys});
    gpu::dispatch(cmd, f.counting.scatter, f.count, c);
    // Every key's range is complete before any boid ranks itself within it.
    gpu::computeBarrier(cmd);
}

void recordRank(VkCommandBuffer cmd, Flock& f, const gpudata::StepConstants& c, bool reorder,
                gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, "grid/rank");
    if (reorder) {
        const uint32_t alt = 1 - f.current, idsAlt = 1 - f.idsCurrent;
        gpu::bindProgram(cmd, f.counting.rankReorder,
                         {f.sortedKeys, f.counting.scatteredSlots, f.keyStarts, f.sortedSlots,
                          f.pos[f.current], f.vel[f.current], f.ids[f.idsCurrent], f.pos[alt], f.vel[alt],
                          f.ids[idsAlt]});
        gpu::dispatch(cmd, f.counting.rankReorder, f.count, c);
        f.current = alt; // the state, now in key order
        f.idsCurrent = idsAlt;
    } else {
        gpu::bindProgram(cmd, f.counting.rank,
                         {f.sortedKeys, f.counting.scatteredSlots, f.keyStarts, f.sortedSlots});
        gpu::dispatch(cmd, f.counting.rank, f.count, c);
    }
    // Starts, sorted slots (and reordered state) are the search's input.
    gpu::computeBarrier(cmd);
}

} // namespace

void recordCountingBuild(VkCommandBuffer cmd, Flock& f, const gpudata::StepConstants& c, const Grid& grid,
                         bool reorder, gpu::Profiler* profiler) {
    CHECK(f.counting.capacity >= keyCount(grid) + 1); // prepareGrid made the buffers
    recordHistogram(cmd, f, c, grid, profiler);
    recordScan(cmd, f, grid, profiler);
    recordScatter(cmd, f, c, profiler);
    recordRank(cmd, f, c, reorder, profiler);
}

} // namespace sim
