#pragma once
// The GPU tests' one harness for stepping a flock: a fresh flock of a state, its next state's buffers
// poisoned (NaN) first, the grid prepared, steps recorded one submission each, the state read back.

#include "sim/flock.h"

#include <functional>

namespace test {

struct Steps {
    sim::Mode mode = sim::Mode::Coherent;
    sim::GridBuild build = sim::GridBuild::Radix;
    int count = 1;
    sim::FlockOptions flock;
    // > 0: every dispatch split into rows of this many groups (over x and y, with spare groups).
    uint32_t maxGroupsX = 0;
};

// `steps.count` steps of `in` on `grid`, in `ctx`'s command buffers. `inspect`, where given, sees the
// flock after the last step (its raw buffers, and passes it may run on them), before it is destroyed.
sim::State stepFlock(const gpu::Context& ctx, const sim::State& in, const sim::Params& p,
                     const sim::Grid& grid, const Steps& steps,
                     const std::function<void(sim::Flock&)>& inspect = {});

} // namespace test
