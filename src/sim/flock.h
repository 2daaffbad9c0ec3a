#pragma once
// The flock on the GPU: its state buffers, the grid's buffers, and the passes of each mode.
//
// State: pos[current], vel[current] hold the boids; ids[idsCurrent][k] is the original index of
// the boid in slot k. Naive and scattered steps keep slots in place; the coherent step leaves the
// boids in key order (slot order changes), and ids follow them, so a readback can restore the
// original order and modes can be switched between any two steps.

#include "gpu/commands.h"
#include "gpu/profiler.h"
#include "sim/counting.h"
#include "sim/grid.h"
#include "sim/params.h"
#include "sim/radix_build.h"
#include "sim/search.h"
#include "sim/search_count.h"
#include "sim/state.h"

#include <string>
#include <vector>

namespace sim {

struct FlockOptions {
    bool float16Filter = true; // the naive cube test in float16 where the device has it (tests turn it off)
    // The coherent search sums its neighbours' packed velocities (sim_types.h), decoding the sums
    // after at most packedRoom candidates (tests make it small, so that decodes within a scan run).
    bool packedVelocity = packedVelocityByDefault;
    uint32_t packedRoom = PACKED_VELOCITY_ROOM;
};

// Whether steps of `mode` on a flock made with `options` sum packed velocities.
bool usesPackedVelocity(Mode mode, const FlockOptions& options);

struct Flock {
    uint32_t count = 0;
    FlockOptions options;
    gpu::Buffer pos[2], vel[2], ids[2];
    uint32_t current = 0;
    uint32_t idsCurrent = 0;

    // The grid modes' buffers: the (key, slot) pairs, the same pairs sorted, and where each key's
    // boids start in sorted order (keyStarts, laid out in sim_types.h). velSorted is the scattered
    // mode's copy of the velocities in sorted order.
    gpu::Buffer cellKeys, slotValues, sortedKeys, sortedSlots, keyStarts, velSorted;
    uint32_t keyCapacity = 0; // keys whose starts fit (one more entry is the end)
    // The grid search also writes the next step's (key, slot) pairs. While those pairs belong to the
    // current state and to the grid described by keysFor, recordStep skips the grid-index pass. A
    // step that is recorded but not yet run already counts. A naive step or an upload clears this.
    bool keysCurrent = false;
    gpudata::StepConstants keysFor{};
    // Each technique's own resources (in the file of its name).
    RadixBuild radix;       // the radix build: the sort of the pairs and the key starts
    CountingBuild counting; // the counting build (GridBuild::Counting), made when first used
    Search search;          // the grid search's pipelines, compiled when a step first needs them
    SearchCounter counter;  // the buffers and programs of countSearch, made when first asked for
    gpu::Program naive, gridIndex, gridStats;
    uint32_t workgroupSize = 0;
};

// Bytes of device memory a flock of `count` boids needs (all modes, the grid at its largest).
uint64_t flockBytes(uint32_t count);

// A flock larger than the device holds: the count asked for, about the most that fits, and why in
// words that follow the count ("needs 300 MiB of GPU memory; ..."), for the caller to name the count.
struct FlockTooLarge : io::InputError {
    FlockTooLarge(uint32_t count, uint64_t fits, const std::string& why);
    uint32_t count;
    uint64_t fits;
};

// Throws FlockTooLarge when the count is more than the device can hold, io::InputError when it is 0.
void checkFlockFits(const gpu::Context& context, uint32_t count);

Flock createFlock(const gpu::Context& context, uint32_t count, const FlockOptions& options = {});
// Every compute program of the flock's own passes (the sorter's are in flock.radix.sorter).
std::vector<gpu::Program*> flockPrograms(Flock& flock);
void destroyFlock(const gpu::Context& context, Flock& flock);

// Blocking transfers of the whole state, in original boid order.
void uploadState(const gpu::Context& context, Flock& flock, const State& state);
State downloadState(const gpu::Context& context, const Flock& flock);

// Makes flock.keyStarts hold every key of `grid` and one more; waits for the device only to grow it.
void growKeyStarts(const gpu::Context& context, Flock& flock, const Grid& grid);

// Makes the grid buffers fit `grid` (and the counting build's, with `build` Counting), and compiles
// the search pipelines of `mode` (both radius cases) if not yet done; waits for the device only when
// buffers must grow.
void prepareGrid(const gpu::Context& context, Flock& flock, const Grid& grid, Mode mode,
                 GridBuild build = GridBuild::Radix);

// The push constants of every flocking pass.
gpudata::StepConstants stepConstants(const Params& params, const Grid& grid, uint32_t count);

// The passes. Each records its dispatch(es) and ends with the barrier its consumer needs.
void recordNaiveStep(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c,
                     gpu::Profiler* profiler);
void recordGridIndex(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c,
                     gpu::Profiler* profiler);

// Occupied cells and the largest cell of the current key starts into `stats` (a GridStats, host-visible,
// read after the command buffer completes). Call after a grid step.
void recordGridStats(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c,
                     const gpu::Buffer& stats, gpu::Profiler* profiler);

// One step of `mode`: every boid reads the old state and writes the new one. Call prepareGrid()
// first for the grid modes, which order the boids by `grid`'s keys as `build` says. A grid step
// records the grid-index pass only when the last step was not one on a grid with the same keys
// (Flock::keysCurrent). Ends with a barrier that makes the new state visible to the next step, to
// vertex shaders and to transfers.
void recordStep(VkCommandBuffer cmd, Flock& flock, const Params& params, Mode mode, const Grid& grid,
                GridBuild build, gpu::Profiler* profiler);

} // namespace sim
