// Pure functions: no GPU.

#include "app/demo/screenshot.h"
#include "app/naive_guard.h"
#include "gpu/commands.h"
#include "gpu/profiler.h"
#include "gpu/shaders.h"
#include "gpu/spirv_reflect.h"
#include "render/draw_types.h"
#include "render/renderer.h"
#include "search_setups.h"
#include "sim/grid.h"
#include "sim/sim_types.h"
#include "sim/state.h"
#include "sort/sort_types.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>

TEST(GroupCount, RoundsUp) {
    EXPECT_EQ(gpu::groupCount(0, 256), 0u);
    EXPECT_EQ(gpu::groupCount(1, 256), 1u);
    EXPECT_EQ(gpu::groupCount(256, 256), 1u);
    EXPECT_EQ(gpu::groupCount(257, 256), 2u);
    EXPECT_EQ(gpu::groupCount(10240000, 256), 40000u);
    EXPECT_EQ(gpu::groupCount(0xffffffffull, 64), 67108864u);
}

TEST(TimestampTrust, TheProbesVerdict) {
    using gpu::TimestampTrust;
    // Plain timestamps that see the work (a GPU; noise either way): direct, one fill not measured.
    EXPECT_EQ(gpu::judgeTimestamps(0.021, 0.020, 0), TimestampTrust::Direct);
    EXPECT_EQ(gpu::judgeTimestamps(0.011, 0.020, 0), TimestampTrust::Direct);
    // lavapipe after a draw: the plain pair reads almost nothing, the pair behind barriers the four
    // fills, four times one.
    EXPECT_EQ(gpu::judgeTimestamps(0.014, 1.81, 0.49), TimestampTrust::Barriers);
    EXPECT_EQ(gpu::judgeTimestamps(0.009, 0.020, 0.010), TimestampTrust::Barriers);
    // Barriers that do not help: four fills read as one, or nothing at all.
    EXPECT_EQ(gpu::judgeTimestamps(0.014, 0.50, 0.49), TimestampTrust::Untrusted);
    EXPECT_EQ(gpu::judgeTimestamps(0.0, 0.0, 0.0), TimestampTrust::Untrusted);
    EXPECT_EQ(gpu::judgeTimestamps(0.001, 0.020, 0.0), TimestampTrust::Untrusted);
    EXPECT_TRUE(gpu::timesReported(TimestampTrust::Direct));
    EXPECT_TRUE(gpu::timesReported(TimestampTrust::Barriers));
    EXPECT_FALSE(gpu::timesReported(TimestampTrust::Untrusted));
    EXPECT_FALSE(gpu::timesReported(TimestampTrust::Unavailable));
}

TEST(Wrap, IntoTheHalfOpenDomain) {
    const float L = 100;
    EXPECT_EQ(sim::wrapCoordinate(0.0f, L), 0.0f);
    EXPECT_EQ(sim::wrapCoordinate(-100.0f, L), -100.0f);
    EXPECT_EQ(sim::wrapCoordinate(100.0f, L), -100.0f); // L itself is -L
    EXPECT_FLOAT_EQ(sim::wrapCoordinate(101.5f, L), -98.5f);
    EXPECT_FLOAT_EQ(sim::wrapCoordinate(-100.25f, L), 99.75f);
    EXPECT_FLOAT_EQ(sim::wrapCoordinate(650.0f, L), 50.0f);
    // Values just below -L that round back to L after the shift still land inside [-L, L).
    const float x = sim::wrapCoordinate(std::nextafter(-100.0f, -200.0f), L);
    EXPECT_GE(x, -L);
    EXPECT_LT(x, L);
}

TEST(RandomState, IsDeterministicAndInsideTheDomain) {
    const sim::State a = sim::randomState(1000, 42, 50, 2), b = sim::randomState(1000, 42, 50, 2);
    EXPECT_EQ(a.data, b.data);
    EXPECT_NE(a.data, sim::randomState(1000, 43, 50, 2).data);
    for (uint32_t i = 0; i < a.count(); ++i) {
        for (int k = 0; k < 3; ++k) {
            EXPECT_GE(a.data[i * 6 + k], -50.0f);
            EXPECT_LT(a.data[i * 6 + k], 50.0f);
        }
        const float* v = &a.data[i * 6 + 3];
        EXPECT_LE(std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), 2.0f * 1.0001f);
    }
}

TEST(Grid, CellsDivideTheDomainExactly) {
    sim::Params p; // L = 100, max r = 5
    sim::Grid g27 = sim::makeGrid(p, sim::CellWidth::Reach, 100000),
              g8 = sim::makeGrid(p, sim::CellWidth::TwoReach, 100000);
    EXPECT_EQ(g27.dim, 40u);
    EXPECT_FLOAT_EQ(g27.cellWidth, 5.0f);
    EXPECT_EQ(g27.keyBits, 16u); // 64000 whole cells (1.6 boids a cell)
    EXPECT_EQ(g8.dim, 20u);
    EXPECT_FLOAT_EQ(g8.cellWidth, 10.0f);
    EXPECT_EQ(sim::makeGrid(p, sim::CellWidth::TwoReach, 100000, sim::Rows::Cells).keyBits,
              13u);                  // 8000 cells
    EXPECT_EQ(g8.slicesPerCell, 8u); // 12.5 boids a cell
    EXPECT_EQ(g8.keyBits, 16u);
    p.domainHalf = 7.4f; // floor(14.8 / 5) = 2 cells for 27, floor(14.8 / 10) = 1 for 8
    EXPECT_EQ(sim::makeGrid(p, sim::CellWidth::Reach, 10).dim, 2u);
    EXPECT_EQ(sim::makeGrid(p, sim::CellWidth::TwoReach, 10).dim, 1u);
    p.domainHalf = 2.0f; // smaller than the radius: one cell
    EXPECT_EQ(sim::makeGrid(p, sim::CellWidth::Reach, 10).dim, 1u);
    EXPECT_EQ(sim::makeGrid(p, sim::CellWidth::Reach, 10).keyBits, 1u);
}

TEST(Grid, HugeGridsAreCoarsened) {
    sim::Params p;
    p.domainHalf = 1000;
    p.cohesionRadius = p.separationRadius = p.alignmentRadius = 0.1f;
    const sim::Grid g = sim::makeGrid(p, sim::CellWidth::Reach, 1000);
    EXPECT_LE(g.cellCount, sim::maxGridCells(1000));
    EXPECT_GE(g.cellWidth, 0.1f);
}

TEST(Grid, CellCoordinateClampsTheUpperEdge) {
    EXPECT_EQ(sim::cellCoordinate(-100.0f, 100.0f, 0.2f, 40), 0u);
    EXPECT_EQ(sim::cellCoordinate(std::nextafter(100.0f, 0.0f), 100.0f, 0.2f, 40), 39u);
    EXPECT_EQ(sim::cellCoordinate(0.0f, 100.0f, 0.2f, 40), 20u);
    EXPECT_EQ(sim::cellIndex(1, 2, 3, 40), 1u + 40 * (2 + 40 * 3));
}

// Auto's rows: x windows from 12 boids a cell, in rows as many a cell as keep 8 boids in a cube of the
// row's height; only with 3 or more cells per axis, and only where every key's start fits.
TEST(Grid, AutoRowsFollowTheDensity) {
    sim::Params lab; // 40^3 cells with 27, 20^3 with 8
    const auto rowsOf = [&](const sim::Params& p, sim::CellWidth width, uint32_t n) {
        const sim::Grid g = sim::makeGrid(p, width, n);
        return g.slicesPerCell == 1 ? 0u : g.rowsPerCell; // 0: whole cells
    };
    EXPECT_EQ(rowsOf(lab, sim::CellWidth::Reach, 100000), 0u);
    EXPECT_EQ(rowsOf(lab, sim::CellWidth::Reach, 12 * 64000 - 1), 0u);
    EXPECT_EQ(rowsOf(lab, sim::CellWidth::Reach, 12 * 64000), 1u);
    EXPECT_EQ(rowsOf(lab, sim::CellWidth::Reach, 1000000), 1u);        // 15.6 a cell: 2 in a half cell's cube
    EXPECT_EQ(rowsOf(lab, sim::CellWidth::Reach, 64 * 64000 - 1), 1u); // just under 8 in a half cell's cube
    EXPECT_EQ(rowsOf(lab, sim::CellWidth::Reach, 64 * 64000), 2u);
    EXPECT_EQ(rowsOf(lab, sim::CellWidth::Reach, 10240000), 2u);
    EXPECT_EQ(rowsOf(lab, sim::CellWidth::TwoReach, 12 * 8000 - 1), 0u);
    EXPECT_EQ(rowsOf(lab, sim::CellWidth::TwoReach, 100000), 1u); // 12.5 a cell
    EXPECT_EQ(rowsOf(lab, sim::CellWidth::TwoReach, 1000000), 2u);
    EXPECT_EQ(rowsOf(lab, sim::CellWidth::TwoReach, 512 * 8000 - 1), 2u);
    EXPECT_EQ(rowsOf(lab, sim::CellWidth::TwoReach, 10240000), 4u);
    const sim::Grid dense8 = sim::makeGrid(lab, sim::CellWidth::TwoReach, 1000000);
    EXPECT_EQ(dense8.slicesPerCell, 8u);
    EXPECT_FLOAT_EQ(sim::rowHeight(dense8), 5.0f);
    EXPECT_EQ(dense8.keyBits, 13u + 5); // 8,000 cells x 2 x 2 rows x 8 slices
    // Rows whose keys do not fit 2^21 (or one a boid) are made taller, then whole cells: 4 x 4 x 8
    // keys a cell do not fit 64,000 cells, 2 x 2 x 8 do; 8 do not fit 343,000 cells.
    sim::Params wide = lab;
    wide.domainHalf = 200.0f; // 40^3 cells of 10 with 8
    EXPECT_EQ(sim::makeGrid(wide, sim::CellWidth::TwoReach, 1000000, sim::Rows::FourPerCell).rowsPerCell, 2u);
    wide.domainHalf = 175.0f; // 70^3 cells of 5 with 27
    EXPECT_EQ(sim::makeGrid(wide, sim::CellWidth::Reach, 100000, sim::Rows::OnePerCell).slicesPerCell, 1u);
    // Forced rows, as asked where they fit.
    EXPECT_EQ(sim::makeGrid(lab, sim::CellWidth::Reach, 1000000, sim::Rows::Cells).slicesPerCell, 1u);
    EXPECT_EQ(sim::makeGrid(lab, sim::CellWidth::Reach, 100000, sim::Rows::OnePerCell).rowsPerCell, 1u);
    EXPECT_EQ(sim::makeGrid(lab, sim::CellWidth::Reach, 100000, sim::Rows::OnePerCell).slicesPerCell, 8u);
    EXPECT_EQ(sim::makeGrid(lab, sim::CellWidth::Reach, 1000000, sim::Rows::TwoPerCell).rowsPerCell, 2u);
    EXPECT_EQ(sim::makeGrid(lab, sim::CellWidth::TwoReach, 100000, sim::Rows::FourPerCell).rowsPerCell, 4u);
    // Morton grids: rows one cell high.
    EXPECT_EQ(sim::makeGrid(lab, sim::CellWidth::Reach, 10240000, sim::Rows::Auto, sim::CellOrder::Morton)
                  .rowsPerCell,
              1u);
    // 2 cells per axis: no fixed image shifts, whole cells.
    sim::Params tiny = lab;
    tiny.domainHalf = 5;
    for (sim::Rows rows :
         {sim::Rows::Auto, sim::Rows::OnePerCell, sim::Rows::TwoPerCell, sim::Rows::FourPerCell}) {
        const sim::Grid g = sim::makeGrid(tiny, sim::CellWidth::Reach, 100000, rows);
        EXPECT_EQ(g.slicesPerCell, 1u) << sim::rowsName(rows);
        EXPECT_EQ(g.rowsPerCell, 1u) << sim::rowsName(rows);
    }
}

// Every key's start is written every step: with x windows a grid's keys stay within maxGridKeys,
// whole cells within maxGridCells, and the sort key's bits hold them all.
TEST(Grid, KeysStayWithinTheirCaps) {
    size_t grids = 0;
    for (float domainHalf : {1.0f, 7.5f, 20.0f, 100.0f, 175.0f, 400.0f, 1000.0f})
        for (sim::CellWidth width : {sim::CellWidth::TwoReach, sim::CellWidth::Reach})
            for (uint32_t n : {1u, 1000u, 100000u, 1000000u, 10240000u, 64000000u})
                for (sim::Rows rows : {sim::Rows::Auto, sim::Rows::Cells, sim::Rows::OnePerCell,
                                       sim::Rows::TwoPerCell, sim::Rows::FourPerCell})
                    for (sim::CellOrder order : {sim::CellOrder::Linear, sim::CellOrder::Morton}) {
                        sim::Params p;
                        p.domainHalf = domainHalf;
                        const sim::Grid g = sim::makeGrid(p, width, n, rows, order);
                        SCOPED_TRACE(std::to_string(domainHalf) + " " + sim::cellWidthName(width) + " " +
                                     std::to_string(n) + " " + sim::rowsName(rows) + " " +
                                     sim::cellOrderName(order));
                        if (g.slicesPerCell > 1)
                            EXPECT_LE(sim::keyCount(g), sim::maxGridKeys(n));
                        else
                            EXPECT_LE(sim::keyCount(g), sim::maxGridCells(n));
                        EXPECT_GE(uint64_t(1) << g.keyBits, uint64_t(sim::keyCount(g)));
                        EXPECT_TRUE(g.dim >= 3 || (g.slicesPerCell == 1 && g.rowsPerCell == 1));
                        ++grids;
                    }
    EXPECT_EQ(grids, 7u * 2 * 6 * 5 * 2);
}

TEST(Grid, RowsNamesParseBack) {
    for (sim::Rows rows : {sim::Rows::Auto, sim::Rows::Cells, sim::Rows::OnePerCell, sim::Rows::TwoPerCell,
                           sim::Rows::FourPerCell})
        EXPECT_EQ(sim::parseRows(sim::rowsName(rows)), rows);
    EXPECT_FALSE(sim::parseRows("quarters").has_value());
    EXPECT_EQ(sim::describeRows(sim::makeGrid(sim::Params{}, sim::CellWidth::Reach, 1000, sim::Rows::Cells)),
              "whole cells");
    EXPECT_EQ(sim::describeRows(sim::makeGrid(sim::Params{}, sim::CellWidth::TwoReach, 1000000)),
              "rows 5 high (2 a cell), 8 x slices a cell");
}

// Every search pipeline the product can compile is listed by searchVariants(), once, and every step
// reaches one of them.
TEST(Grid, EverySearchPipelineIsListed) {
    const std::vector<sim::SearchVariant>& all = sim::searchVariants();
    EXPECT_EQ(all.size(), 6u); // docs/DESIGN.md counts them
    for (const sim::SearchVariant& v : all) EXPECT_EQ(std::count(all.begin(), all.end(), v), 1);
    for (sim::Mode mode : {sim::Mode::Scattered, sim::Mode::Coherent})
        for (bool shared : {true, false})
            for (bool packed : {true, false}) {
                const sim::Params p = shared ? sim::Params{} : test::distinctRadii(sim::Params{});
                const sim::SearchVariant v = sim::searchVariant(mode, p, packed);
                EXPECT_NE(std::find(all.begin(), all.end(), v), all.end()) << sim::searchVariantName(v);
                EXPECT_EQ(v.sharedRadii, shared);
                EXPECT_EQ(v.packedVelocity, packed && mode == sim::Mode::Coherent);
            }
}

TEST(Grid, PartsOfACellAreExactFractionsOfIt) {
    // 40 cells of 5 over [-100, 100): eighths of 0.625.
    EXPECT_EQ(sim::partOf(-100.0f, 100.0f, 0.2f, 0, 8), 0u);
    EXPECT_EQ(sim::partOf(-99.375f, 100.0f, 0.2f, 0, 8), 1u); // on a boundary: the upper slice
    EXPECT_EQ(sim::partOf(std::nextafter(-99.375f, -100.0f), 100.0f, 0.2f, 0, 8), 0u);
    EXPECT_EQ(sim::partOf(0.0f, 100.0f, 0.2f, 20, 8), 0u);
    EXPECT_EQ(sim::partOf(4.99f, 100.0f, 0.2f, 20, 8), 7u);
    EXPECT_EQ(sim::partOf(2.5f, 100.0f, 0.2f, 20, 8), 4u);
    // The clamped upper edge stays in the last part of the last cell.
    EXPECT_EQ(sim::partOf(std::nextafter(100.0f, 0.0f), 100.0f, 0.2f, 39, 8), 7u);
    // Rows: halves and quarters of the cell.
    EXPECT_EQ(sim::partOf(-97.5f, 100.0f, 0.2f, 0, 2), 1u);
    EXPECT_EQ(sim::partOf(std::nextafter(-97.5f, -100.0f), 100.0f, 0.2f, 0, 2), 0u);
    EXPECT_EQ(sim::partOf(-98.75f, 100.0f, 0.2f, 0, 4), 1u);
    EXPECT_EQ(sim::partOf(4.99f, 100.0f, 0.2f, 20, 4), 3u);
    EXPECT_EQ(sim::partOf(std::nextafter(100.0f, 0.0f), 100.0f, 0.2f, 39, 4), 3u);
    EXPECT_EQ(sim::partOf(1.0f, 100.0f, 0.2f, 20, 1), 0u);
}

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

TEST(SpirvReflection, ReadsBindingsPushConstantsAndLocalSize) {
    const gpu::ShaderReflection naive = gpu::reflectSpirv(gpu::embeddedSpirv("naive"));
    EXPECT_EQ(naive.stage, VK_SHADER_STAGE_COMPUTE_BIT);
    ASSERT_EQ(naive.bindings.size(), 4u);
    for (VkDescriptorType t : naive.bindings) EXPECT_EQ(t, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    EXPECT_EQ(naive.pushConstantSize, sizeof(gpudata::StepConstants));
    EXPECT_EQ(naive.localSizeSpecId[0], 0);

    const gpu::ShaderReflection onesweep = gpu::reflectSpirv(gpu::embeddedSpirv("sort_onesweep"));
    EXPECT_EQ(onesweep.bindings.size(), 7u);
    EXPECT_EQ(onesweep.pushConstantSize, sizeof(gpudata::SortPassConstants));

    const gpu::ShaderReflection box = gpu::reflectSpirv(gpu::embeddedSpirv("box_vert"));
    EXPECT_EQ(box.stage, VK_SHADER_STAGE_VERTEX_BIT);
    EXPECT_TRUE(box.bindings.empty());
    EXPECT_EQ(box.pushConstantSize, sizeof(gpudata::DrawConstants));

    const gpu::ShaderReflection raster = gpu::reflectSpirv(gpu::embeddedSpirv("draw_raster"));
    EXPECT_EQ(raster.stage, VK_SHADER_STAGE_COMPUTE_BIT);
    EXPECT_EQ(raster.bindings.size(), 3u);
    EXPECT_EQ(raster.pushConstantSize, sizeof(gpudata::DrawConstants));
    const gpu::ShaderReflection resolve = gpu::reflectSpirv(gpu::embeddedSpirv("draw_resolve"));
    EXPECT_EQ(resolve.stage, VK_SHADER_STAGE_COMPUTE_BIT);
    EXPECT_EQ(resolve.bindings, (std::vector<VkDescriptorType>{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                               VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}));
    EXPECT_EQ(resolve.pushConstantSize, sizeof(gpudata::DrawConstants));
    const gpu::ShaderReflection overTarget = gpu::reflectSpirv(gpu::embeddedSpirv("box_over_target_frag"));
    EXPECT_EQ(overTarget.stage, VK_SHADER_STAGE_FRAGMENT_BIT);
    EXPECT_EQ(overTarget.bindings.size(), 1u);
}

TEST(SpirvReflection, RejectsGarbage) {
    const std::vector<uint32_t> junk = {1, 2, 3, 4, 5, 6};
    EXPECT_THROW(gpu::reflectSpirv(junk), gpu::Error);
    EXPECT_TRUE(gpu::embeddedSpirv("no such shader").empty());
}

// Ids as onesweep.comp and grid_search_coherent.comp (through rules.glsl) declare them (layout(constant_id =
// N)).
TEST(SpirvReflection, FindsSpecializationConstantsByName) {
    const gpu::ShaderReflection onesweep = gpu::reflectSpirv(gpu::embeddedSpirv("sort_onesweep"));
    const std::vector<uint32_t> ids = gpu::specConstantIds(
        "sort_onesweep", onesweep,
        {{gpu::localSizeX, 512}, {"KEYS_PER_THREAD", 8}, {"SPIN_LIMIT", 1}, {"LOOKBACK_WINDOW", 4}});
    EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 3, 5}));
    EXPECT_EQ(onesweep.specConstants.size(), 5u); // the local size's has no name
    // A bool (OpSpecConstantFalse) is found as well.
    const gpu::ShaderReflection search = gpu::reflectSpirv(gpu::embeddedSpirv("grid_search_coherent"));
    EXPECT_EQ(gpu::specConstantIds("grid_search_coherent", search, {{"COHESION_IS_ALIGNMENT", 1}}),
              std::vector<uint32_t>{1});
}

TEST(SpirvReflection, RefusesUnknownAndRepeatedSpecializationConstants) {
    const gpu::ShaderReflection scan = gpu::reflectSpirv(gpu::embeddedSpirv("sort_scan"));
    EXPECT_THROW(gpu::specConstantIds("sort_scan", scan, {{"KEYS_PER_THREAD", 8}}), gpu::Error);
    EXPECT_THROW(gpu::specConstantIds("sort_scan", scan, {{"items", 4}}), gpu::Error); // names are exact
    EXPECT_THROW(gpu::specConstantIds("sort_scan", scan, {{"ITEMS", 4}, {"ITEMS", 2}}), gpu::Error);
    // A vertex shader has no local size to specialize.
    const gpu::ShaderReflection box = gpu::reflectSpirv(gpu::embeddedSpirv("box_vert"));
    EXPECT_THROW(gpu::specConstantIds("box_vert", box, {{gpu::localSizeX, 64}}), gpu::Error);
    EXPECT_EQ(gpu::specConstantIds("sort_scan", scan, {{"ITEMS", 4}}), std::vector<uint32_t>{1});
}

// The estimate is a measured step (measureNaiveStep times one on the device) scaled with the square
// of the count.
TEST(NaiveGuard, EstimateScalesTheMeasuredStep) {
    const app::NaiveTiming measured{10000, 0.5};
    EXPECT_NEAR(app::estimateNaiveStepSeconds(20000, measured), 2.0, 1e-12);
    EXPECT_NEAR(app::estimateNaiveStepSeconds(5000, measured), 0.125, 1e-12);
    EXPECT_NEAR(app::estimateNaiveStepSeconds(10000, measured), 0.5, 1e-12);
    EXPECT_EQ(app::estimateNaiveStepSeconds(0, measured), 0.0);
    EXPECT_EQ(app::estimateNaiveStepSeconds(100, app::NaiveTiming{0, 1.0}), 0.0); // nothing measured
}

TEST(NaiveGuard, QuestionNamesTheCountAndTime) {
    EXPECT_EQ(app::naiveQuestion(20000, 4.0),
              "naive with 20,000 boids: about 4 s a step on this device. Switch anyway?");
    EXPECT_EQ(app::naiveQuestion(1234567, 1.53),
              "naive with 1,234,567 boids: about 1.5 s a step on this device. Switch anyway?");
    EXPECT_EQ(app::naiveQuestion(100000, 99.6),
              "naive with 100,000 boids: about 100 s a step on this device. Switch anyway?");
}

// Started in naive mode from the command line: one line, and how to go on where the demo opens paused.
TEST(NaiveGuard, StartNoteNamesTheCountAndTime) {
    EXPECT_EQ(app::naiveStartNote(20000, 4.0, true),
              "naive with 20,000 boids: about 4 s a step on this device; opening paused (Space runs it, N "
              "steps once, M changes the mode)");
    EXPECT_EQ(app::naiveStartNote(50000, 25.2, false),
              "naive with 50,000 boids: about 25 s a step on this device");
}

TEST(ScreenshotName, TimestampedWithASuffixWhereTaken) {
    std::tm t{};
    t.tm_year = 2025 - 1900;
    t.tm_mon = 2;
    t.tm_mday = 7;
    t.tm_hour = 9;
    t.tm_min = 5;
    t.tm_sec = 3;
    EXPECT_EQ(app::timestampedScreenshotName(t, [](const std::string&) { return false; }),
              "vkboids-20250307-090503.png");
    const std::vector<std::string> existing = {"vkboids-20250307-090503.png",
                                               "vkboids-20250307-090503-2.png"};
    EXPECT_EQ(app::timestampedScreenshotName(t,
                                             [&](const std::string& name) {
                                                 return std::find(existing.begin(), existing.end(), name) !=
                                                        existing.end();
                                             }),
              "vkboids-20250307-090503-3.png");
}
