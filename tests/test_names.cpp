// The enums' name tables (io::NameTable): each parses what it prints, and the command line lists
// its choices from the table.

#include "cli_test.h"
#include "io/names.h"
#include "render/renderer.h"
#include "sim/config.h"
#include "sort/radix_sort.h"

#include <gtest/gtest.h>

namespace {

using test::parseError;

// Each table parses every name it prints, and the command line's list of choices is the table's.
TEST(Names, EachTableParsesWhatItPrintsAndListsItsChoices) {
    for (sim::Mode m : {sim::Mode::Naive, sim::Mode::Scattered, sim::Mode::Coherent})
        EXPECT_EQ(sim::parseMode(sim::modeName(m)), m);
    for (sim::Rows r : {sim::Rows::Auto, sim::Rows::Cells, sim::Rows::OnePerCell, sim::Rows::TwoPerCell,
                        sim::Rows::FourPerCell})
        EXPECT_EQ(sim::parseRows(sim::rowsName(r)), r);
    for (render::DrawPath d : {render::DrawPath::Compute, render::DrawPath::Points, render::DrawPath::Glyphs,
                               render::DrawPath::Auto})
        EXPECT_EQ(render::drawPathFromName(render::drawPathName(d)), d);
    EXPECT_EQ(sim::parseCellWidth("8"), sim::CellWidth::TwoReach); // the lab's name, parsed too
    EXPECT_EQ(sim::cellWidthName(sim::CellWidth::TwoReach), std::string("2r"));
    EXPECT_FALSE(sort::parseAlgorithm("radix"));
    EXPECT_EQ(io::choiceList(sort::algorithmNames), "onesweep, reduce-then-scan or auto");
    EXPECT_EQ(io::choiceList(sim::modeNames, ", "), "naive, scattered, coherent");
    EXPECT_EQ(parseError({"--rows", "x"}), "--rows: 'x' must be auto, cells, full, half or quarter");
    EXPECT_EQ(parseError({"--mode", "x"}), "--mode: 'x' is not a mode (naive, scattered, coherent)");
    EXPECT_EQ(parseError({"--cell-width", "4"}),
              "--cell-width: '4' must be r or 2r (or the lab's 27 or 8 cells)");
}

} // namespace
