#pragma once
// The step's contract on the CPU in double precision: what every mode must compute.

#include "sim/params.h"
#include "sim/state.h"

#include <vector>

namespace test {

struct ReferenceStep {
    sim::State state;                      // the new state, in float
    std::vector<double> velocityTolerance; // per boid: a bound on float rounding in the GPU's result
    std::vector<bool> ambiguous;           // a neighbour sits within rounding of a radius or of the wrap
    std::vector<uint32_t> neighbours;      // pairs within max(r), for reporting
};

// With packedVelocity, the alignment rule sums the neighbours' packed velocities (sim_types.h) as the
// coherent search does: each quantized in float as the reorder quantizes it, the steps summed exactly,
// the sum scaled once.
ReferenceStep referenceStep(const sim::State& in, const sim::Params& params, bool packedVelocity = false);

// The packed velocity of v[0..2] (sim_types.h), as the coherent reorder writes it.
uint32_t packVelocity(const float* v, float maxSpeed);

struct Comparison {
    uint32_t compared = 0, ambiguous = 0, mismatches = 0;
    std::string firstMismatch;
};

// Velocities within tolerance; positions within tolerance on the torus (modulo 2L).
Comparison compareStates(const sim::State& gpu, const ReferenceStep& ref, const sim::Params& params);

} // namespace test
