#pragma once
// The grid search (grid_search_scattered.comp and grid_search_coherent.comp): each boid scans the
// rows within reach of it and applies the rules. There is one pipeline for each mode and radius case,
// and in the scattered mode a pass before the search gathers the velocities into sorted order.

#include "gpu/commands.h"
#include "gpu/profiler.h"
#include "sim/grid.h"
#include "sim/params.h"
#include "sim/sim_types.h"

#include <string>
#include <vector>

namespace sim {

struct Flock;

// Whether a coherent flock sums its neighbours' packed velocities (sim_types.h) unless told otherwise.
constexpr bool packedVelocityByDefault = true;

// What a grid search pipeline is compiled for: the mode (scattered reads the state through the
// sorted slots, coherent reads it reordered), whether r1 == r3, so that cohesion and alignment
// share one test and one count, and (coherent only) whether the alignment rule sums packed
// velocities (specialization constants).
struct SearchVariant {
    Mode mode = Mode::Coherent;
    bool sharedRadii = false;
    bool packedVelocity = false;
    auto operator<=>(const SearchVariant&) const = default;
};

// The pipeline a grid step of `mode` with these parameters runs; packedVelocity counts only in the
// coherent mode.
SearchVariant searchVariant(Mode mode, const Params& params, bool packedVelocity = packedVelocityByDefault);

// The packed velocity's steps (sim_types.h): PACKED_VELOCITY_LEVELS / maxSpeed (at most FLT_MAX, so
// that a zero velocity packs to zero), and one step as a velocity.
float velocityPackScale(float maxSpeed);
float velocityPackStep(float maxSpeed);
// Every search pipeline, in a fixed order (Search::pipelines).
const std::vector<SearchVariant>& searchVariants();
std::string searchVariantName(const SearchVariant& variant);

struct Search {
    // One for each of searchVariants() (same index), compiled by prepareSearch when a step first
    // needs it: until then VK_NULL_HANDLE.
    std::vector<gpu::Program> pipelines;
    gpu::Program gatherVelocities;
};

Search createSearch(const gpu::Context& context, uint32_t workgroupSize);
// Compiles the pipelines of `mode` (both radius cases; coherent, packing velocities or not as
// packedVelocity says) if not yet done. packedRoom: candidates between decodes of the packed sums
// (sim_types.h: PACKED_VELOCITY_ROOM, or fewer).
void prepareSearch(const gpu::Context& context, Search& search, Mode mode, uint32_t workgroupSize,
                   bool packedVelocity, uint32_t packedRoom);
std::vector<gpu::Program*> searchPrograms(Search& search);
void destroySearch(const gpu::Context& context, Search& search);

// Also writes the new state's (key, slot) pairs for this grid, as recordGridIndex would. The scattered
// search first copies the velocities into sorted order (Flock::velSorted), inside the same scope.
void recordGridSearch(VkCommandBuffer cmd, Flock& flock, const gpudata::StepConstants& c,
                      const SearchVariant& variant, gpu::Profiler* profiler);

} // namespace sim
