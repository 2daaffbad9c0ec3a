// The grid the search steps on (sim::makeGrid), without a GPU: cells that divide the domain, the
// rows and x slices chosen by density, the caps on keys, and the search pipelines each grid reaches.

#include "search_setups.h"
#include "sim/grid.h"
#include "sim/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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
