#pragma once
// The counting grid build (sim::GridBuild::Counting): the passes that order a grid step's boids by
// key and write every key's start, in place of the radix sort and the key-starts pass.

#include "gpu/commands.h"
#include "gpu/profiler.h"
#include "sim/grid.h"
#include "sim/sim_types.h"
#include "sort/scan.h"

namespace sim {

struct Flock;

// What the counting build adds to a flock, made when a grid first uses it: boids a key, the
// scatter's slots in arbitrary order within each key's range, the scan of the counts (into the
// flock's key starts), and the build's programs.
struct CountingBuild {
    gpu::Buffer keyCounts, scatteredSlots;
    uint32_t capacity = 0; // keys
    sort::Scanner scanner;
    gpu::Program histogram, scatter, rank, rankReorder;
};

// Makes the counting build's buffers fit `grid` and compiles its pipelines when first needed
// (prepareGrid calls it for grids that use it); waits for the device only when buffers must grow.
void prepareCounting(const gpu::Context& context, Flock& flock, const Grid& grid);
void destroyCounting(const gpu::Context& context, CountingBuild& build);

// From the flock's (key, slot) pairs (cellKeys for slots 0..n-1): the sorted keys and slots, every
// key's start (keyStarts) and, with `reorder`
// (the coherent mode), the state gathered into sorted order, exactly as the radix build writes
// them. Profiler scopes "grid/histogram", "grid/scan", "grid/scatter", "grid/rank". Ends with a
// barrier that makes all of it visible to the search.
void recordCountingBuild(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c, const Grid& grid,
                         bool reorder, gpu::Profiler* profiler);

} // namespace sim
