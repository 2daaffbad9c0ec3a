#include "sim/params.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sim {
namespace {

bool outOfScale(float value) {
    return !std::isfinite(value) || std::abs(value) > maxScale;
}

} // namespace

std::optional<ParamProblem> validateParams(const Params& p) {
    for (auto [param, value] : {std::pair{Param::CohesionRadius, p.cohesionRadius},
                                std::pair{Param::SeparationRadius, p.separationRadius},
                                std::pair{Param::AlignmentRadius, p.alignmentRadius},
                                std::pair{Param::MaxSpeed, p.maxSpeed}, std::pair{Param::Dt, p.dt}})
        if (!std::isfinite(value) || value <= 0) return ParamProblem{param, Bound::Positive, value};
    // Bounds that keep every sum of a step finite in float32 (no overflow to infinity or NaN).
    for (auto [param, value] : {std::pair{Param::CohesionScale, p.cohesionScale},
                                std::pair{Param::SeparationScale, p.separationScale},
                                std::pair{Param::AlignmentScale, p.alignmentScale}})
        if (outOfScale(value)) return ParamProblem{param, Bound::Between, value, -maxScale, maxScale};
    if (!std::isfinite(p.predatorRadius) || p.predatorRadius < 0)
        return ParamProblem{Param::PredatorRadius, Bound::AtLeast, p.predatorRadius, 0};
    if (outOfScale(p.predatorScale))
        return ParamProblem{Param::PredatorScale, Bound::Between, p.predatorScale, -maxScale, maxScale};
    if (!std::isfinite(p.domainHalf) || p.domainHalf <= 0)
        return ParamProblem{Param::DomainHalf, Bound::Positive, p.domainHalf};
    if (p.domainHalf > maxDomainHalf)
        return ParamProblem{Param::DomainHalf, Bound::AtMost, p.domainHalf, 0, maxDomainHalf};
    // A predator that is off keeps its last position unchecked: the demo remembers where it was.
    const double reach = 3.0 * p.domainHalf;
    for (float x : p.predatorPos)
        if (p.predator && (!std::isfinite(x) || std::abs(x) > reach))
            return ParamProblem{Param::PredatorPos, Bound::NearDomain, x, -reach, reach};
    if (double(p.dt) * p.maxSpeed > p.domainHalf)
        return ParamProblem{Param::Dt, Bound::StepWithinDomain, double(p.dt) * p.maxSpeed, 0, p.domainHalf};
    return std::nullopt;
}

bool dependsOnDomain(const ParamProblem& problem) {
    return problem.param == Param::DomainHalf || problem.bound == Bound::NearDomain ||
           problem.bound == Bound::StepWithinDomain;
}

float maxRadius(const Params& p) {
    return std::max({p.cohesionRadius, p.separationRadius, p.alignmentRadius});
}

double densityOf(uint64_t boids, float domainHalf) {
    const double side = 2.0 * double(domainHalf);
    return double(boids) / (side * side * side);
}

namespace {

// A bound as a reader writes it: 1000, -1000, 1e6.
std::string boundText(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    std::string out = text;
    if (const size_t e = out.find("e+"); e != std::string::npos) {
        const size_t digits = out.find_first_not_of('0', e + 2);
        out = out.substr(0, e + 1) + out.substr(digits);
    }
    return out;
}

} // namespace

std::string describeProblem(const ParamProblem& problem, const ParamNames& names) {
    const std::string name = io::nameIn(names, problem.param);
    switch (problem.bound) {
    case Bound::Positive: return name + " must be a positive number";
    case Bound::Between:
        return name + " must be a number between " + boundText(problem.min) + " and " +
               boundText(problem.max);
    case Bound::AtMost: return name + " must be at most " + boundText(problem.max);
    case Bound::AtLeast: return name + " must be a number of at least " + boundText(problem.min);
    case Bound::NearDomain:
        return name + " must be X,Y,Z within three times " + io::nameIn(names, Param::DomainHalf) +
               " of the centre (it is wrapped into the domain)";
    case Bound::StepWithinDomain:
        return std::string(io::nameIn(names, Param::Dt)) + " times " + io::nameIn(names, Param::MaxSpeed) +
               " must be at most " + io::nameIn(names, Param::DomainHalf) +
               " (no boid crosses half the domain in a step)";
    }
    return name + " is out of bounds";
}

} // namespace sim
