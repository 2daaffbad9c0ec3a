// How the renderer chooses its drawing path for a count and a device (render::resolveDrawPath), and
// the names of the paths and colour modes, without a GPU.

#include "render/renderer.h"

#include <gtest/gtest.h>

TEST(DrawPath, AutoDrawsGlyphsUpToTheThresholdThenTheDevicesPointPath) {
    using render::DrawPath, render::resolveDrawPath, render::glyphsUpTo;
    EXPECT_EQ(resolveDrawPath(DrawPath::Auto, 0, true, false), DrawPath::Glyphs);
    EXPECT_EQ(resolveDrawPath(DrawPath::Auto, glyphsUpTo, true, false), DrawPath::Glyphs);
    EXPECT_EQ(resolveDrawPath(DrawPath::Auto, glyphsUpTo, false, true), DrawPath::Glyphs);
    EXPECT_EQ(resolveDrawPath(DrawPath::Auto, glyphsUpTo + 1, true, false), DrawPath::Compute);
    EXPECT_EQ(resolveDrawPath(DrawPath::Auto, glyphsUpTo + 1, true, true), DrawPath::Points); // a CPU driver
    EXPECT_EQ(resolveDrawPath(DrawPath::Auto, glyphsUpTo + 1, false, false), DrawPath::Points);
    // The user's choice stands at any count; compute falls back to points where it cannot run.
    EXPECT_EQ(resolveDrawPath(DrawPath::Glyphs, 100000000, true, false), DrawPath::Glyphs);
    EXPECT_EQ(resolveDrawPath(DrawPath::Points, 5, true, false), DrawPath::Points);
    EXPECT_EQ(resolveDrawPath(DrawPath::Compute, 5, true, true), DrawPath::Compute);
    EXPECT_EQ(resolveDrawPath(DrawPath::Compute, 5, false, false), DrawPath::Points);
    for (DrawPath p : {DrawPath::Compute, DrawPath::Points, DrawPath::Glyphs, DrawPath::Auto})
        EXPECT_EQ(render::drawPathFromName(render::drawPathName(p)), p);
    EXPECT_FALSE(render::drawPathFromName("hardware points"));
    using render::ColorMode;
    for (ColorMode m : {ColorMode::Speed, ColorMode::Heading, ColorMode::Cell, ColorMode::Order})
        EXPECT_EQ(render::colorModeFromName(render::colorModeName(m)), m);
    EXPECT_FALSE(render::colorModeFromName("Speed"));
}
