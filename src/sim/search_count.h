#pragma once
// The grid search counted instead of stepped (grid_count.comp): each boid's candidates and
// neighbours, and the steps its subgroup ran for them, summed over the flock.

#include "gpu/commands.h"
#include "gpu/profiler.h"
#include "sim/grid.h"
#include "sim/params.h"
#include "sim/sim_types.h"

namespace sim {

struct Flock;

// countSearch's buffers and programs: each boid's candidates, neighbours, and its subgroup's steps and
// rule steps where it kept them (a uvec4 for each slot, written by grid_count.comp), their totals and the
// subgroup size they were counted at, and the passes that count and sum them.
struct SearchCounter {
    gpu::Buffer perBoid, totals;
    gpu::Program count, sum;
};

void destroySearchCounter(const gpu::Context& context, SearchCounter& counter);

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
