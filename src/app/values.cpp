#include "app/values.h"

#include "io/output.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace app {

using io::InputError;

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) out.push_back(item);
    if (!text.empty() && text.back() == ',') out.push_back("");
    return out;
}

uint64_t parseCount(const std::string& text, const std::string& flag, uint64_t max) {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v))
        throw InputError(flag + ": '" + text + "' is not a number");
    if (v != std::floor(v)) throw InputError(flag + ": '" + text + "' is not a whole number");
    if (v < 1) throw InputError(flag + ": must be at least 1 (got '" + text + "')");
    if (v > double(max))
        throw InputError(flag + ": '" + text + "' is too large (at most " + std::to_string(max) + ")");
    return uint64_t(v);
}

uint64_t parseCountOrZero(const std::string& text, const std::string& flag, uint64_t max) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (!text.empty() && end == text.c_str() + text.size()) {
        if (v == 0) return 0; // "0", "0.0", "0e0"
        if (v < 0) throw InputError(flag + ": must be 0 or more (got '" + text + "')");
    }
    return parseCount(text, flag, max);
}

std::vector<uint32_t> parseCountList(const std::string& text, const std::string& flag, uint64_t max) {
    const std::vector<std::string> items = splitList(text);
    std::vector<uint32_t> out;
    for (const std::string& item : items) out.push_back(uint32_t(parseCount(item, flag, max)));
    if (out.empty()) throw InputError(flag + ": the list is empty");
    refuseRepeats(out, items, flag);
    return out;
}

void refuseRepeat(const std::string& flag, const std::string& first, const std::string& again) {
    if (first == again) throw InputError(flag + ": '" + first + "' is listed twice");
    throw InputError(flag + ": '" + again + "' is '" + first + "' again");
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

std::string describeProblem(const sim::ParamProblem& problem, const ParamNames& names) {
    const std::string name = io::nameIn(names, problem.param);
    switch (problem.bound) {
    case sim::Bound::Positive: return name + " must be a positive number";
    case sim::Bound::Between:
        return name + " must be a number between " + boundText(problem.min) + " and " +
               boundText(problem.max);
    case sim::Bound::AtMost: return name + " must be at most " + boundText(problem.max);
    case sim::Bound::AtLeast: return name + " must be a number of at least " + boundText(problem.min);
    case sim::Bound::NearDomain:
        return name + " must be X,Y,Z within three times " + io::nameIn(names, sim::Param::DomainHalf) +
               " of the centre (it is wrapped into the domain)";
    case sim::Bound::StepWithinDomain:
        return std::string(io::nameIn(names, sim::Param::Dt)) + " times " +
               io::nameIn(names, sim::Param::MaxSpeed) + " must be at most " +
               io::nameIn(names, sim::Param::DomainHalf) + " (no boid crosses half the domain in a step)";
    }
    return name + " is out of bounds";
}

std::string describeDensityError(const sim::DensityError& error, const std::string& densityName,
                                 const ParamNames& names) {
    std::ostringstream text;
    text << densityName << " " << error.density << " with " << error.boidCount
         << (error.boidCount == 1 ? " boid" : " boids") << " gives L = " << error.domainHalf << ", but "
         << describeProblem(error.problem, names);
    return text.str();
}

} // namespace app
