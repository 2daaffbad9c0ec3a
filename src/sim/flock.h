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
#include "sim/state.h"
#include "sort/radix_sort.h"

#include <string>
#include <vector>

namespace sim {

// countSearch's buffers and programs: each boid's candidates, neighbours, and its subgroup's steps and
// rule steps where it kept them (uvec4, by slot; grid_search.comp, COUNT), their totals and the
// subgroup size they were counted at, and the passes that count and sum them.
struct SearchCounter {
    gpu::Buffer perBoid, totals;
    gpu::Program count, sum;
};

struct Flock {
    uint32_t count = 0;
    gpu::Buffer pos[2], vel[2], ids[2];
    uint32_t current = 0;
    uint32_t idsCurrent = 0;

    // Grid modes: (key, slot) pairs, sorted pairs, and every key's start in sorted order
    // (sim_types.h: keyStarts); the scattered mode's copy of the velocities in sorted order.
    gpu::Buffer cellKeys, slotValues, sortedKeys, sortedSlots, keyStarts, velSorted;
    uint32_t keyCapacity = 0; // keys whose starts fit (one more entry is the end)
    // The grid search also writes the next step's (key, slot) pairs. While they hold the current
    // state's pairs for the grid of keysFor (recorded, not yet run, counts), recordStep skips the
    // grid-index pass; a naive step or an upload clears this.
    bool keysCurrent = false;
    gpudata::StepConstants keysFor{};
    sort::Sorter sorter;    // the radix build's sort of the pairs
    CountingBuild counting; // the counting build's own (GridBuild::Counting), made when first used
    SearchCounter counter;  // countSearch's own, made when first asked for
    gpu::Program naive, gridIndex, keyStartsOnly, keyStartsReorder, gatherVelocities, gridStats;
    // The grid search's pipelines, one for each of searchVariants() (same index), compiled by
    // prepareGrid when a step first needs one: until then VK_NULL_HANDLE.
    std::vector<gpu::Program> search;
    uint32_t workgroupSize = 0;
};

// What a grid search pipeline is compiled for: the mode (scattered reads the state through the
// sorted slots, coherent reads it reordered) and whether r1 == r3, so that cohesion and alignment
// share one test and one count (a specialization constant).
struct SearchVariant {
    Mode mode = Mode::Coherent;
    bool sharedRadii = false;
    auto operator<=>(const SearchVariant&) const = default;
};

// The pipeline a grid step of `mode` with these parameters runs.
SearchVariant searchVariant(Mode mode, const Params& params);
// Every search pipeline, in a fixed order (Flock::search).
const std::vector<SearchVariant>& searchVariants();
std::string searchVariantName(const SearchVariant& variant);

struct FlockOptions {
    bool halfFilter = true; // the naive cube test in float16 where the device has it (tests turn it off)
};

// Bytes of device memory a flock of `count` boids needs (all modes, the grid at its largest).
uint64_t flockBytes(uint32_t count);

// Throws io::InputError when the count is zero or more than the device can hold.
void checkFlockFits(const gpu::Context& context, uint32_t count);

Flock createFlock(const gpu::Context& context, uint32_t count, const FlockOptions& options = {});
// Every compute program of the flock's own passes (the sorter's are in flock.sorter).
std::vector<gpu::Program*> flockPrograms(Flock& flock);
void destroyFlock(const gpu::Context& context, Flock& flock);

// Blocking transfers of the whole state, in original boid order.
void uploadState(const gpu::Context& context, Flock& flock, const State& state);
State downloadState(const gpu::Context& context, const Flock& flock);

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
void recordSortPairs(VkCommandBuffer cmd, Flock& flock, const Grid& grid, gpu::Profiler* profiler);
void recordKeyStarts(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c, const Grid& grid,
                     bool reorder, gpu::Profiler* profiler);
// Also writes the new state's (key, slot) pairs for this grid, as recordGridIndex would. The scattered
// search first copies the velocities into sorted order (Flock::velSorted), inside the same scope.
void recordGridSearch(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c,
                      const SearchVariant& variant, gpu::Profiler* profiler);

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

// What a grid's search does, per boid: candidates, the boids whose distance it computes (the boid
// itself among them), and neighbours, the other boids within max(r) (means over the flock). And how
// busy its lanes are: a subgroup's lanes walk their boids' rows together, each row's range as long as
// its longest lane's, one candidate a lane a step. Lane efficiency: candidates / (the steps the
// subgroups ran x subgroup size). Rule lanes: of the lanes in steps where some lane met a boid within
// max(r) (where the rules' work runs, in every lane), the share that did.
struct SearchCounts {
    double candidates = 0;
    double neighbours = 0;
    double laneEfficiency = 0;
    double ruleLanes = 0;
    uint32_t subgroupSize = 0; // that the search was counted at
};

// Counts the current state's candidates and neighbours on `grid` (the same rows and windows in
// either grid mode) and the lanes' work, leaving the state as it is; blocks until done. Each boid's
// counts stay in flock.counter.perBoid.
SearchCounts countSearch(const gpu::Context& context, Flock& flock, const Params& params, const Grid& grid);

} // namespace sim
