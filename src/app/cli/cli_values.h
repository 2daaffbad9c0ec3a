#pragma once
// The command line's texts turned into values; cli_*.cpp declare the options. Each function throws
// io::InputError with a one-line message that names the flag, so the user knows which one to fix.

#include "app/values.h"
#include "io/output.h"
#include "render/renderer.h"
#include "sim/config.h"
#include "sort/radix_sort.h"

#include <string>
#include <vector>

namespace app {

// The value whose name in `table` is `text`. Otherwise it throws io::InputError, whose message lists
// the table's names ("--rows: 'x' must be auto, cells, full, half or quarter"), so that the choices
// the user reads are the ones parsed, and docs/CLI.md's lists are checked against them.
template <typename Enum, size_t N>
Enum valueFromText(const io::NameTable<Enum, N>& table, const std::string& text, const std::string& flag) {
    const std::optional<Enum> value = io::valueIn(table, text);
    if (!value) throw io::InputError(flag + ": '" + text + "' must be " + io::choiceList(table));
    return *value;
}
sim::Mode modeFromText(const std::string& text, const std::string& flag);
sim::CellWidth
cellWidthFromText(const std::string& text); // for --cell-width, which also takes the lab's 27 and 8

void parsePredator(const std::string& text, sim::Params& p);

// The flag of each simulation parameter. Messages name a parameter by it, and the rules' flags are
// declared with it (ruleFlags).
constexpr sim::ParamNames paramFlags{{"--cohesion-radius", "--separation-radius", "--alignment-radius",
                                      "--cohesion-scale", "--separation-scale", "--alignment-scale",
                                      "--max-speed", "--dt", "--domain-half", "--predator-radius",
                                      "--predator-scale", "--predator"}};

// Checks the parameters (sim::validateParams) and throws io::InputError naming the flag of the first
// problem.
void checkParams(const sim::Params& p);
// sim::configFor, with its errors worded for the command line. Where a density gives the count an L
// out of bounds, the message names --density if the user gave it; where the density came from a
// preset, the message names only the check that failed.
sim::Config configForCount(const sim::Config& config, uint64_t boidCount, bool densityGiven);
// Checks the parameters before the flock's count is known. Where a density sets L, L stays unknown
// until a state file's count is read, so the checks that depend on L (sim::dependsOnDomain) wait for
// sim::configFor; every other check is made now.
void checkParamsBeforeTheCount(const sim::Config& config);
void refuseMortonThinRows(const std::vector<sim::CellOrder>& orders, sim::Rows rows);

// The candidate that a mistyped `text` most likely meant, or "" where none is close. The distance is
// the fewest edits (insert, delete, replace, or swap two neighbouring letters), ignoring case and
// leading dashes. A candidate is close when the distance is at most a third of the text's letters
// (from 1 to 3) and less than all of them. Of equally close candidates the first wins.
std::string closestName(const std::string& text, const std::vector<std::string>& candidates);

} // namespace app
