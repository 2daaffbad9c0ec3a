#include "sim/radix_build.h"

#include "sim/flock.h"

namespace sim {

using gpudata::StepConstants;

RadixBuild createRadixBuild(const gpu::Context& ctx, uint32_t count, uint32_t workgroupSize) {
    RadixBuild b;
    b.sorter = sort::createSorter(ctx, count);
    try {
        const std::vector<gpu::SpecConstant> wg = {{gpu::localSizeX, workgroupSize}};
        b.keyStartsOnly = gpu::createComputeProgram(ctx, "key_starts", wg);
        b.keyStartsReorder = gpu::createComputeProgram(ctx, "key_starts_reorder", wg);
    } catch (...) {
        destroyRadixBuild(ctx, b);
        throw;
    }
    return b;
}

void destroyRadixBuild(const gpu::Context& ctx, RadixBuild& b) {
    sort::destroySorter(ctx, b.sorter);
    gpu::destroyProgram(ctx, b.keyStartsOnly);
    gpu::destroyProgram(ctx, b.keyStartsReorder);
    b = RadixBuild{};
}

void recordSortPairs(VkCommandBuffer cmd, Flock& f, const Grid& grid, gpu::Profiler* profiler) {
    // The sort opens its own "sort" scope and ends with a compute barrier.
    sort::recordSort(cmd, f.radix.sorter, f.cellKeys, f.slotValues, f.sortedKeys, f.sortedSlots, f.count,
                     grid.keyBits, profiler);
}

void recordKeyStarts(VkCommandBuffer cmd, Flock& f, const StepConstants& c, const Grid& grid, bool reorder,
                     gpu::Profiler* profiler) {
    gpu::Scope scope(profiler, cmd, reorder ? "key starts + reorder" : "key starts");
    // One invocation for each block of 64 keys (to fill in the starts of empty keys), one for the
    // entry past the last key, and one for each boid.
    const uint64_t invocations = (uint64_t(keyCount(grid)) + 63) / 64 + 1 + f.count;
    if (reorder) {
        const uint32_t alt = 1 - f.current, idsAlt = 1 - f.idsCurrent;
        gpu::bindProgram(cmd, f.radix.keyStartsReorder,
                         {f.sortedKeys, f.keyStarts, f.sortedSlots, f.pos[f.current], f.vel[f.current],
                          f.ids[f.idsCurrent], f.pos[alt], f.vel[alt], f.ids[idsAlt]});
        gpu::dispatch(cmd, f.radix.keyStartsReorder, invocations, c);
        f.current = alt; // the state, now in key order
        f.idsCurrent = idsAlt;
    } else {
        gpu::bindProgram(cmd, f.radix.keyStartsOnly, {f.sortedKeys, f.keyStarts});
        gpu::dispatch(cmd, f.radix.keyStartsOnly, invocations, c);
    }
    // The search reads the key starts, and in coherent mode the reordered state, next.
    gpu::computeBarrier(cmd);
}
} // namespace sim
