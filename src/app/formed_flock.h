#pragma once
// The flock the demo opens on: assets/flock-20000.npy, 20,000 boids formed into flocks by 3,000
// steps with the default rules from the random start of seed 1 (assets/README.md gives the command
// that writes it), embedded in the binary when it is built.

#include "sim/state.h"

#include <cstdint>

namespace app {

constexpr uint32_t formedFlockBoids = 20000;

// The embedded state, decoded. Throws io::InputError where it does not decode.
sim::State formedFlock();

} // namespace app
