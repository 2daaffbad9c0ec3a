#include "sim/config.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace sim {

float domainHalfFor(const Config& config, uint64_t boidCount) {
    if (config.density <= 0) return config.params.domainHalf;
    const float L = float(0.5 * std::cbrt(double(boidCount) / config.density));
    return std::isfinite(L) ? L : std::numeric_limits<float>::max();
}

DensityError::DensityError(double density, uint64_t boidCount, float domainHalf, ParamProblem problem)
    : io::InputError("a density gives an L out of bounds"), density(density), boidCount(boidCount),
      domainHalf(domainHalf), problem(problem) {}

Config configFor(const Config& config, uint64_t boidCount) {
    Config out = config;
    if (config.density <= 0) return out;
    out.params.domainHalf = domainHalfFor(config, boidCount);
    // The checks that depend on L (the others are the given parameters' own).
    const std::optional<ParamProblem> problem = validateParams(out.params);
    if (problem && dependsOnDomain(*problem))
        throw DensityError(config.density, boidCount, out.params.domainHalf, *problem);
    return out;
}

std::string describeDensityError(const DensityError& error, const std::string& densityName,
                                 const ParamNames& names) {
    std::ostringstream text;
    text << densityName << " " << error.density << " with " << error.boidCount
         << (error.boidCount == 1 ? " boid" : " boids") << " gives L = " << error.domainHalf << ", but "
         << describeProblem(error.problem, names);
    return text.str();
}

} // namespace sim
