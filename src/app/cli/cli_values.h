#pragma once
// The command line's texts turned into values (cli_*.cpp declare the options): each throws
// io::InputError with a one-line message naming the flag.

#include "app/values.h"
#include "io/output.h"
#include "render/renderer.h"
#include "sim/config.h"
#include "sort/radix_sort.h"

#include <string>
#include <vector>

namespace app {

// The value of `table` named `text`, or io::InputError: "--rows: 'x' must be auto, cells, ... or quarter".
template <typename Enum, size_t N>
Enum valueFromText(const io::NameTable<Enum, N>& table, const std::string& text, const std::string& flag) {
    const std::optional<Enum> value = io::valueIn(table, text);
    if (!value) throw io::InputError(flag + ": '" + text + "' must be " + io::choiceList(table));
    return *value;
}
sim::Mode modeFromText(const std::string& text, const std::string& flag);
sim::CellWidth cellWidthFromText(const std::string& text); // --cell-width

void parsePredator(const std::string& text, sim::Params& p);

// Each parameter's flag, for messages.
constexpr ParamNames paramFlags{{"--cohesion-radius", "--separation-radius", "--alignment-radius",
                                 "--cohesion-scale", "--separation-scale", "--alignment-scale", "--max-speed",
                                 "--dt", "--domain-half", "--predator-radius", "--predator-scale",
                                 "--predator"}};

// The parameters checked (sim::validateParams): throws io::InputError with the first problem.
void checkParams(const sim::Params& p);
// sim::configFor, where a density gives the count an L out of bounds an io::InputError naming
// --density where the user gave it, else (a preset's density) only the check that failed.
sim::Config configForCount(const sim::Config& config, uint64_t boidCount, bool densityGiven);
// The same, for a configuration whose L a density sets only once a state file's count is read
// (sim::configFor checks that L): the checks that depend on L wait for it.
void checkParamsBeforeTheCount(const sim::Config& config);
void refuseMortonThinRows(const std::vector<sim::CellOrder>& orders, sim::Rows rows);

// The candidate a mistyped `text` most likely meant, or "" where none is near: the fewest edits
// (insert, delete, replace, swap two neighbours; case and leading dashes ignored), at most a third of
// the text's letters (1 to 3) and fewer than all of them. The first of equals wins.
std::string closestName(const std::string& text, const std::vector<std::string>& candidates);

} // namespace app
