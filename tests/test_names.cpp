// The enums' name tables (io::NameTable): each parses what it prints, and the command line lists
// its choices from the table.

#include "cli_test.h"
#include "gpu/swapchain.h"
#include "io/names.h"
#include "render/renderer.h"
#include "sim/config.h"
#include "sort/radix_sort.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

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

// The present mode has a table like the other enums: the command line parses the table's names into
// the mode the swapchain asks Vulkan for, and its list of choices is the table's.
TEST(Names, ThePresentModesTableParsesTheCommandLine) {
    const std::vector<std::pair<gpu::PresentMode, VkPresentModeKHR>> modes = {
        {gpu::PresentMode::Fifo, VK_PRESENT_MODE_FIFO_KHR},
        {gpu::PresentMode::Mailbox, VK_PRESENT_MODE_MAILBOX_KHR},
        {gpu::PresentMode::Immediate, VK_PRESENT_MODE_IMMEDIATE_KHR}};
    for (const auto& [mode, vulkan] : modes) {
        const char* name = io::nameIn(gpu::presentModeNames, mode);
        EXPECT_EQ(test::parse({"--present-mode", name}).demo.presentMode, mode) << name;
        EXPECT_EQ(gpu::vulkanPresentMode(mode), vulkan) << name;
        EXPECT_STREQ(gpu::presentModeName(vulkan), name);
    }
    EXPECT_EQ(test::parse({}).demo.presentMode, gpu::PresentMode::Fifo);
    EXPECT_EQ(parseError({"--present-mode", "vsync"}),
              "--present-mode: 'vsync' must be fifo, mailbox or immediate");
}

} // namespace
