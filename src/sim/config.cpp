#include "sim/config.h"

#include "io/output.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace sim {

Config configFor(const Config& config, uint64_t boidCount) {
    Config out = config;
    if (config.density <= 0) return out;
    out.params.domainHalf = domainHalfForDensity(boidCount, config.density);
    if (!std::isfinite(out.params.domainHalf)) out.params.domainHalf = std::numeric_limits<float>::max();
    // The checks that depend on L (the others are the given parameters' own).
    if (const std::string e = validateParams(out.params); e.find("--domain-half") != std::string::npos) {
        std::ostringstream text;
        text << "--density " << config.density << " with " << boidCount
             << (boidCount == 1 ? " boid" : " boids") << " gives L = " << out.params.domainHalf << ", but "
             << e;
        throw io::InputError(text.str());
    }
    return out;
}

} // namespace sim
