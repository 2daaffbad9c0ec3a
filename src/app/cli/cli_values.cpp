#include "app/cli/cli_values.h"

#include "app/cli/cli.h"
#include "gpu/context.h"
#include "io/output.h"
#include "sim/flock.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace app {

using io::InputError;

sim::Mode modeFromText(const std::string& text, const std::string& flag) {
    std::optional<sim::Mode> m = sim::parseMode(text);
    if (!m)
        throw InputError(flag + ": '" + text + "' is not a mode (" + io::choiceList(sim::modeNames, ", ") +
                         ")");
    return *m;
}

// Rows thinner than a cell need each row of cells to be a run of consecutive keys, which Morton order
// does not give (sim::CellOrder).
void refuseMortonThinRows(const std::vector<sim::CellOrder>& orders, sim::Rows rows) {
    if ((rows == sim::Rows::TwoPerCell || rows == sim::Rows::FourPerCell) &&
        std::ranges::find(orders, sim::CellOrder::Morton) != orders.end())
        throw InputError(std::string("--rows ") + sim::rowsName(rows) +
                         " needs --cell-order linear (Morton grids have rows one cell high)");
}

sim::CellWidth cellWidthFromText(const std::string& text) {
    const std::optional<sim::CellWidth> w = sim::parseCellWidth(text);
    if (!w)
        throw InputError("--cell-width: '" + text + "' must be " + io::choiceList(sim::cellWidthNames) +
                         " (or the lab's " + io::choiceList(sim::labCellNames) + " cells)");
    return *w;
}

// Reads --predator X,Y,Z, three finite numbers, and turns the predator on.
void parsePredator(const std::string& text, sim::Params& p) {
    const std::vector<std::string> items = splitList(text);
    const std::string problem = "--predator: '" + text + "' must be X,Y,Z (three numbers, e.g. 10,0,-5)";
    if (items.size() != 3) throw InputError(problem);
    for (int a = 0; a < 3; ++a) {
        const std::string& item = items[size_t(a)];
        char* end = nullptr;
        errno = 0;
        const double v = std::strtod(item.c_str(), &end);
        if (item.empty() || end != item.c_str() + item.size() || errno == ERANGE || !std::isfinite(v))
            throw InputError(problem);
        p.predatorPos[a] = float(v);
    }
    p.predator = true;
}

void checkParams(const sim::Params& p) {
    if (const std::optional<sim::ParamProblem> problem = sim::validateParams(p))
        throw InputError(sim::describeProblem(*problem, paramFlags));
}

sim::Config configForCount(const sim::Config& config, uint64_t boidCount, bool densityGiven) {
    try {
        return sim::configFor(config, boidCount);
    } catch (const sim::DensityError& e) {
        throw InputError(densityGiven ? sim::describeDensityError(e, "--density", paramFlags)
                                      : sim::describeProblem(e.problem, paramFlags));
    }
}

void checkParamsBeforeTheCount(const sim::Config& config) {
    const std::optional<sim::ParamProblem> problem = sim::validateParams(config.params);
    if (problem && !(config.density > 0 && sim::dependsOnDomain(*problem)))
        throw InputError(sim::describeProblem(*problem, paramFlags));
}

std::string errorText(const std::exception& error) {
    if (const auto* e = dynamic_cast<const sim::FlockTooLarge*>(&error))
        return "--boids " + std::to_string(e->count) + " " + e->what();
    if (const auto* e = dynamic_cast<const sim::DensityError*>(&error))
        return sim::describeDensityError(*e, "--density", paramFlags);
    if (const auto* e = dynamic_cast<const gpu::OptionRefused*>(&error)) {
        switch (e->option) {
        case gpu::ContextOption::Validation: return std::string("--validation ") + e->what();
        case gpu::ContextOption::Device: return std::string("--device ") + e->what() + "; see --list-devices";
        case gpu::ContextOption::PipelineStatistics: return std::string("--pipeline-stats: ") + e->what();
        }
    }
    return error.what();
}

namespace {

// Optimal string alignment distance: Levenshtein's edits plus a swap of two neighbouring letters.
size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t replace = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + replace});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

} // namespace

std::string closestName(const std::string& text, const std::vector<std::string>& candidates) {
    auto bare = [](const std::string& s) {
        std::string out = s.substr(std::min(s.find_first_not_of('-'), s.size()));
        std::ranges::transform(out, out.begin(), [](char c) { return char(std::tolower(uint8_t(c))); });
        return out;
    };
    const std::string typed = bare(text);
    const size_t limit =
        typed.empty() ? 0 : std::min(std::clamp<size_t>(typed.size() / 3, 1, 3), typed.size() - 1);
    std::string best;
    size_t bestDistance = limit + 1;
    for (const std::string& c : candidates) {
        const size_t d = editDistance(typed, bare(c));
        if (d < bestDistance) {
            best = c;
            bestDistance = d;
        }
    }
    return best;
}

} // namespace app
