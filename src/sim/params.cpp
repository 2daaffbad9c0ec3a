#include "sim/params.h"

#include <algorithm>
#include <cmath>

namespace sim {
namespace {

std::string positive(const char* flag, float value) {
    if (!std::isfinite(value) || value <= 0) return std::string(flag) + " must be a positive number";
    return "";
}

} // namespace

std::string validateParams(const Params& p) {
    for (std::string e :
         {positive("--cohesion-radius", p.cohesionRadius),
          positive("--separation-radius", p.separationRadius),
          positive("--alignment-radius", p.alignmentRadius), positive("--max-speed", p.maxSpeed),
          positive("--dt", p.dt), positive("--domain-half", p.domainHalf)})
        if (!e.empty()) return e;
    // Bounds that keep every sum of a step finite in float32 (no overflow to infinity or NaN).
    for (auto [flag, value] :
         {std::pair{"--cohesion-scale", p.cohesionScale}, std::pair{"--separation-scale", p.separationScale},
          std::pair{"--alignment-scale", p.alignmentScale}})
        if (!std::isfinite(value) || std::abs(value) > maxScale)
            return std::string(flag) + " must be a number between -1000 and 1000";
    if (p.domainHalf > maxDomainHalf) return "--domain-half must be at most 1e6";
    if (!std::isfinite(p.predatorRadius) || p.predatorRadius < 0)
        return "--predator-radius must be a number of at least 0";
    if (!std::isfinite(p.predatorScale) || std::abs(p.predatorScale) > maxScale)
        return "--predator-scale must be a number between -1000 and 1000";
    // A predator that is off keeps its last position unchecked: the demo remembers where it was.
    for (float x : p.predatorPos)
        if (p.predator && (!std::isfinite(x) || std::abs(x) > 3 * p.domainHalf))
            return "--predator must be X,Y,Z within three times --domain-half of the centre (it is wrapped "
                   "into the domain)";
    if (double(p.dt) * p.maxSpeed > p.domainHalf)
        return "--dt times --max-speed must be at most --domain-half (no boid crosses half the domain in a "
               "step)";
    return "";
}

float maxRadius(const Params& p) {
    return std::max({p.cohesionRadius, p.separationRadius, p.alignmentRadius});
}

float domainHalfForDensity(uint64_t boids, double density) {
    return float(0.5 * std::cbrt(double(boids) / density));
}

double densityOf(uint64_t boids, float domainHalf) {
    const double side = 2.0 * double(domainHalf);
    return double(boids) / (side * side * side);
}

const char* modeName(Mode mode) {
    switch (mode) {
    case Mode::Naive: return "naive";
    case Mode::Scattered: return "scattered";
    case Mode::Coherent: return "coherent";
    }
    return "?";
}

std::optional<Mode> parseMode(std::string_view name) {
    if (name == "naive") return Mode::Naive;
    if (name == "scattered") return Mode::Scattered;
    if (name == "coherent") return Mode::Coherent;
    return std::nullopt;
}

} // namespace sim
