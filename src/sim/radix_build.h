#pragma once
// The radix grid build (sim::GridBuild::Radix): the radix sort of the (key, slot) pairs, then every
// key's start in the sorted keys (key_starts.comp), with the coherent mode's reorder in the same pass.

#include "gpu/commands.h"
#include "gpu/profiler.h"
#include "sim/grid.h"
#include "sim/params.h"
#include "sim/sim_types.h"
#include "sort/radix_sort.h"

namespace sim {

struct Flock;

struct RadixBuild {
    sort::Sorter sorter;
    gpu::Program keyStartsOnly, keyStartsReorder;
};

// Throws gpu::OutOfMemory where the sorter does not fit.
RadixBuild createRadixBuild(const gpu::Context& context, uint32_t count, uint32_t workgroupSize);
void destroyRadixBuild(const gpu::Context& context, RadixBuild& build);

void recordSortPairs(VkCommandBuffer cmd, Flock& flock, const Grid& grid, gpu::Profiler* profiler);
void recordKeyStarts(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c, const Grid& grid,
                     bool reorder, gpu::Profiler* profiler);

} // namespace sim
