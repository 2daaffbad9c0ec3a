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
    if (!std::isfinite(p.cohesionScale)) return "--cohesion-scale must be a finite number";
    if (!std::isfinite(p.separationScale)) return "--separation-scale must be a finite number";
    if (!std::isfinite(p.alignmentScale)) return "--alignment-scale must be a finite number";
    if (p.domainHalf > maxDomainHalf) return "--domain-half must be at most 1e6";
    return "";
}

float maxRadius(const Params& p) {
    return std::max({p.cohesionRadius, p.separationRadius, p.alignmentRadius});
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
