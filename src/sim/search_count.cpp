#include "sim/search_count.h"

#include "sim/flock.h"

#include <algorithm>

namespace sim {

using gpudata::StepConstants;

void destroySearchCounter(const gpu::Context& ctx, SearchCounter& counter) {
    for (gpu::Program* p : {&counter.count, &counter.sum}) gpu::destroyProgram(ctx, *p);
    for (gpu::Buffer* b : {&counter.perBoid, &counter.totals}) gpu::destroyBuffer(ctx, *b);
    counter = SearchCounter{};
}

SearchCounts countSearch(const gpu::Context& ctx, Flock& f, const Params& params, const Grid& grid) {
    SearchCounter& counter = f.counter;
    if (!counter.count.pipeline) {
        // The device's default subgroup size, which the search runs at on NVIDIA and lavapipe.
        counter.count = gpu::createComputeProgram(ctx, "grid_count", {{gpu::localSizeX, f.workgroupSize}},
                                                  gpu::preferredSubgroupSize(ctx));
        counter.sum = gpu::createComputeProgram(ctx, "count_sum", {{gpu::localSizeX, f.workgroupSize}});
    }
    gpu::growStorage(ctx, counter.perBoid, 4ull * f.count, gpu::MemoryUse::Device);
    gpu::growStorage(ctx, counter.totals, 9, gpu::MemoryUse::Device);
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
