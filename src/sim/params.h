#pragma once
// The flocking parameters, the modes, and how they pack into the passes' push constants.

#include "io/names.h"
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

// The parameters a check can find out of bounds, for the caller to name (the command line by its
// flag, the panel by its slider).
enum class Param {
    CohesionRadius,
    SeparationRadius,
    AlignmentRadius,
    CohesionScale,
    SeparationScale,
    AlignmentScale,
    MaxSpeed,
    Dt,
    DomainHalf,
    PredatorRadius,
    PredatorScale,
    PredatorPos,
};
constexpr size_t paramCount = 12;

// The kind of bound a value broke, which says how the caller words it.
enum class Bound {
    Positive,         // above 0
    Between,          // from min to max
    AtMost,           // at most max
    AtLeast,          // at least min
    NearDomain,       // the predator's coordinates from min to max: three times L either side
    StepWithinDomain, // dt times maxSpeed (the value) at most L (max): no boid crosses half the domain
};

// A parameter out of its bounds: which, the value it has, and the bounds it must keep.
struct ParamProblem {
    Param param;
    Bound bound;
    double value;
    double min = 0, max = 0;
};

// Nothing when the parameters are usable, else the first problem. The checks that depend on the
// domain's size L come last, so that a caller who does not know L yet (a density sets it once the
// count is known) can set aside a problem for which dependsOnDomain holds without missing another.
std::optional<ParamProblem> validateParams(const Params& params);
// Whether the problem is L's own or a bound that L sets (the predator's reach, a step's length).
bool dependsOnDomain(const ParamProblem& problem);

// The names a caller gives the parameters (the command line's flags, the panel's sliders).
using ParamNames = io::NameTable<Param, paramCount>;
// A problem in words, each parameter named by the caller's `names`: "--alignment-scale must be a
// number between -1000 and 1000", or "alignment scale must be ...".
std::string describeProblem(const ParamProblem& problem, const ParamNames& names);

float maxRadius(const Params& params);

// The lab's density: 1M boids in its default domain, L = 100, is 0.125 boids per unit^3.
constexpr double labDensity = 0.125;
// The density of `boids` in the domain of L = domainHalf (config.h's domainHalfFor goes back).
double densityOf(uint64_t boids, float domainHalf);

enum class Mode { Naive, Scattered, Coherent };
constexpr io::NameTable<Mode, 3> modeNames{{"naive", "scattered", "coherent"}};
inline const char* modeName(Mode mode) {
    return io::nameIn(modeNames, mode);
}
inline std::optional<Mode> parseMode(std::string_view name) {
    return io::valueIn(modeNames, name);
}

// Positions are kept in [-L, L) with L at most this, so float spacing stays far below any radius.
constexpr float maxDomainHalf = 1.0e6f;
// Rule strengths beyond this could overflow a step's sums in float32.
constexpr float maxScale = 1.0e3f;

} // namespace sim
