#pragma once
// The command line's texts turned into values (cli_*.cpp declare the options): each throws
// io::InputError with a one-line message naming the flag.

#include "app/values.h"
#include "render/renderer.h"
#include "sim/config.h"
#include "sort/radix_sort.h"

#include <string>
#include <vector>

namespace app {

sim::Mode modeFromText(const std::string& text, const std::string& flag);
sim::CellWidth cellWidthFromText(const std::string& text); // --cell-width
sim::Rows rowsFromText(const std::string& text);
sim::GridBuild gridBuildFromText(const std::string& text);
sim::CellOrder cellOrderFromText(const std::string& text);
sort::SortAlgorithm algorithmFromText(const std::string& text);
render::DrawPath drawPathFromText(const std::string& text, const std::string& flag);
render::ColorMode colorModeFromText(const std::string& text);

void parsePredator(const std::string& text, sim::Params& p);

// The parameters checked (sim::validateParams): throws io::InputError with the first problem.
void checkParams(const sim::Params& p);
// The same, for a configuration whose L a density sets only once a state file's count is read
// (sim::configFor checks that L): the checks that depend on L wait for it.
void checkParamsBeforeTheCount(const sim::Config& config);
void refuseMortonThinRows(const std::vector<sim::CellOrder>& orders, sim::Rows rows);

// The candidate a mistyped `text` most likely meant, or "" where none is near: the fewest edits
// (insert, delete, replace, swap two neighbours; case and leading dashes ignored), at most a third of
// the text's letters (1 to 3) and fewer than all of them. The first of equals wins.
std::string closestName(const std::string& text, const std::vector<std::string>& candidates);

} // namespace app
