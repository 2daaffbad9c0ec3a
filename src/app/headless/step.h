#pragma once
// step: K steps headless from a random start or a state file, the final state written.

#include "app/run.h"
#include "sim/config.h"

#include <cstdint>
#include <string>

namespace app {

struct StepOptions {
    uint32_t boids = 0; // 0 means not given
    uint64_t seed = 1;
    std::string loadState, saveState;
    uint64_t steps = 1;
    sim::Config sim;
    bool quiet = false;
};

int runStep(const GlobalOptions& global, const StepOptions& options);

} // namespace app
