#pragma once
// The flock on the GPU: its state buffers, the grid's buffers, and the passes of each mode.
//
// State: pos[current], vel[current] hold the boids; ids[idsCurrent][k] is the original index of
// the boid in slot k. Naive and scattered steps keep slots in place; the coherent step leaves the
// boids in cell order (slot order changes), and ids follow them, so a readback can restore the
// original order and modes can be switched between any two steps.

#include "gpu/commands.h"
#include "gpu/profiler.h"
#include "sim/grid.h"
#include "sim/params.h"
#include "sim/state.h"
#include "sort/radix_sort.h"

#include <vector>

namespace sim {

struct Flock {
    uint32_t count = 0;
    gpu::Buffer pos[2], vel[2], ids[2];
    uint32_t current = 0;
    uint32_t idsCurrent = 0;

    // Grid modes: (cell, slot) pairs, sorted pairs, and each cell's [start, end) in sorted order.
    gpu::Buffer cellKeys, slotValues, sortedKeys, sortedSlots, cellRanges;
    uint32_t cellCapacity = 0;
    gpu::Buffer subRanges; // each sub-key's range (octants) or start (slices), when the grid has them
    uint32_t subCellCapacity = 0;
    // The grid search also writes the next step's (key, slot) pairs. While they hold the current
    // state's pairs for the grid of keysFor (recorded, not yet run, counts), recordStep skips the
    // grid-index pass; a naive step or an upload clears this.
    bool keysCurrent = false;
    gpudata::StepConstants keysFor{};
    sort::Sorter sorter;

    gpu::Program naive, gridIndex, cellRangesOnly, cellRangesReorder, gridStats;
    // [walk][slices][shared]. Walk 0: whole cells; 1: sub-cells, subgroups within a cell together; 2:
    // also straddling subgroups boid by boid (each walk costs registers where unused: BENCHMARKS runs
    // 28 and 29); 3: rows of slices; 4: quarter rows of slices; 5 and 6: as 3 and 4, with coherent
    // ranges four candidates a step (Grid::fourAStep). Slices: 0, 1 or 2 for 8, 16 or 32 slices a cell
    // (Grid::slicesPerCell, a specialization constant; walks 0 to 2 take 0), 3 for any read from the
    // push constant (Grid::slicesFromPushConstant). Shared: r1 == r3, one
    // test and one count for both rules. A walk is compiled by prepareGrid when a grid first needs it:
    // until then its programs stay empty (VK_NULL_HANDLE), and flockPrograms lists them all the same.
    // Their groups are of 128 or 512 invocations, as the walk runs fastest (flock.cpp:
    // searchWorkgroupSize).
    gpu::Program scattered[7][4][2], coherent[7][4][2];
    uint32_t workgroupSize = 0;
    uint32_t naiveBoids = 2; // boids per invocation of the naive pass
};

struct FlockOptions {
    bool halfFilter = true;  // the naive cube test in float16 where the device has it (tests turn it off)
    uint32_t naiveBoids = 2; // boids per invocation in the naive pass: 2 or 4
};

// Bytes of device memory a flock of `count` boids needs (all modes, the grid at its largest).
uint64_t flockBytes(uint32_t count);

// Throws sim::InputError when the count is zero or more than the device can hold.
void checkFlockFits(const gpu::Context& context, uint32_t count);

Flock createFlock(const gpu::Context& context, uint32_t count, const FlockOptions& options = {});
// Every compute program of the flock's own passes (the sorter's are in flock.sorter).
std::vector<gpu::Program*> flockPrograms(Flock& flock);
void destroyFlock(const gpu::Context& context, Flock& flock);

// Blocking transfers of the whole state, in original boid order.
void uploadState(const gpu::Context& context, Flock& flock, const State& state);
State downloadState(const gpu::Context& context, const Flock& flock);

// Which search walk (Flock::scattered's first index) a grid takes, and in which slices (its second).
int gridWalk(const Grid& grid);
int gridWalkSlices(const Grid& grid);

// Makes the grid buffers fit `grid`, and compiles its walk's pipelines if not yet done; waits for
// the device only when buffers must grow.
void prepareGrid(const gpu::Context& context, Flock& flock, const Grid& grid);

// The push constants of every flocking pass.
gpudata::StepConstants stepConstants(const Params& params, const Grid& grid, uint32_t count);

// The passes. Each records its dispatch(es) and ends with the barrier its consumer needs.
void recordNaiveStep(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c,
                     gpu::Profiler* profiler);
void recordGridIndex(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c,
                     gpu::Profiler* profiler);
void recordSortPairs(VkCommandBuffer cmd, Flock& flock, const Grid& grid, gpu::Profiler* profiler);
void recordCellRanges(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c, const Grid& grid,
                      bool reorder, gpu::Profiler* profiler);
// Also writes the new state's (key, slot) pairs for this grid, as recordGridIndex would.
void recordGridSearch(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c, const Grid& grid,
                      bool coherent, gpu::Profiler* profiler);

// Occupied cells and the largest cell of the current ranges into `stats` (a GridStats, host-visible,
// read after the command buffer completes). Call after a grid step.
void recordGridStats(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c,
                     const gpu::Buffer& stats, gpu::Profiler* profiler);

// One step of `mode`: every boid reads the old state and writes the new one. Call prepareGrid()
// first for the grid modes. A grid step records the grid-index pass only when the last step was not
// one on a grid with the same keys (Flock::keysCurrent). Ends with a barrier that makes the new state visible
// to the next step, to vertex shaders and to transfers.
void recordStep(VkCommandBuffer cmd, Flock& flock, const Params& params, Mode mode, const Grid& grid,
                gpu::Profiler* profiler);

} // namespace sim
