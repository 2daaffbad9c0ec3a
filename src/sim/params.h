#pragma once
// The flocking parameters, the modes, and how they pack into the passes' push constants.

#include "io/output.h"
#include "sim/sim_types.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sim {

// Defaults are the CUDA flocking lab's.
struct Params {
    float cohesionRadius = 5.0f;   // r1
    float separationRadius = 3.0f; // r2
    float alignmentRadius = 5.0f;  // r3
    float cohesionScale = 0.01f;   // s1
    float separationScale = 0.1f;  // s2
    float alignmentScale = 0.1f;   // s3
    float maxSpeed = 1.0f;
    float dt = 0.2f;
    float domainHalf = 100.0f; // L: the periodic cube [-L, L)^3
    // Rule 4: boids within predatorRadius of the predator (the minimum image) flee it, with a push
    // of predatorScale (1 - distance / radius) a step. Off by default.
    bool predator = false;
    float predatorPos[3] = {0, 0, 0}; // wrapped into the domain when packed
    float predatorRadius = 20.0f;
    float predatorScale = 0.5f;
};

// Empty when the parameters are usable, else what is wrong, naming the flag.
std::string validateParams(const Params& params);

float maxRadius(const Params& params);

// The lab's density: 1M boids in its default domain, L = 100, is 0.125 boids per unit^3.
constexpr double labDensity = 0.125;
// L for `boids` at `density` boids per unit^3: (2L)^3 = boids / density.
float domainHalfForDensity(uint64_t boids, double density);
// The density of `boids` in the domain of L = domainHalf.
double densityOf(uint64_t boids, float domainHalf);

enum class Mode { Naive, Scattered, Coherent };
const char* modeName(Mode mode);
std::optional<Mode> parseMode(std::string_view name);

// Positions are kept in [-L, L) with L at most this, so float spacing stays far below any radius.
constexpr float maxDomainHalf = 1.0e6f;
// Rule strengths beyond this could overflow a step's sums in float32.
constexpr float maxScale = 1.0e3f;

} // namespace sim
