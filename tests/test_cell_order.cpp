// Cell orders (sim::CellOrder) without a GPU: Morton codes against a bit-by-bit reference, the key
// range, and the grids makeGrid chooses in Morton order.

#include "sim/flock.h"
#include "sim/grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

using sim::CellOrder;

// Bit b of x, y and z to bits 3b, 3b + 1 and 3b + 2, one bit at a time.
uint32_t referenceMorton(uint32_t x, uint32_t y, uint32_t z) {
    uint32_t code = 0;
    for (uint32_t b = 0; b < 10; ++b) {
        code |= (x >> b & 1u) << (3 * b);
        code |= (y >> b & 1u) << (3 * b + 1);
        code |= (z >> b & 1u) << (3 * b + 2);
    }
    return code;
}

// The most cells per axis any grid has: the cap of the largest flock.
uint32_t largestDim() {
    return uint32_t(std::cbrt(double(sim::maxGridCells(0xffffffffu))) + 1e-9);
}

TEST(CellOrder, MortonMatchesTheBitByBitReferenceOnEveryCell) {
    ASSERT_EQ(largestDim(), 256u);
    for (uint32_t dim : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 17u, 31u, 33u, 64u, 65u, 100u, 255u, 256u}) {
        SCOPED_TRACE("dim " + std::to_string(dim));
        const uint32_t keys = sim::cellKeyCount(dim, CellOrder::Morton);
        std::vector<bool> seen(keys, false);
        uint32_t largest = 0;
        for (uint32_t z = 0; z < dim; ++z)
            for (uint32_t y = 0; y < dim; ++y)
                for (uint32_t x = 0; x < dim; ++x) {
                    const uint32_t code = sim::mortonIndex(x, y, z);
                    ASSERT_EQ(code, referenceMorton(x, y, z)) << x << "," << y << "," << z;
                    ASSERT_EQ(sim::cellKey(x, y, z, dim, CellOrder::Morton), code);
                    ASSERT_LT(code, keys);
                    ASSERT_FALSE(seen[code]) << "two cells share key " << code;
                    seen[code] = true;
                    largest = std::max(largest, code);
                }
        // The key range ends just past the last cell's key; a power of two fills it.
        EXPECT_EQ(largest + 1, keys);
        const bool powerOfTwo = (dim & (dim - 1)) == 0;
        EXPECT_EQ(uint64_t(std::count(seen.begin(), seen.end(), true)) == keys, powerOfTwo);
        EXPECT_GE(keys, dim * dim * dim);
        EXPECT_LE(uint64_t(keys), 8ull * dim * dim * dim);
    }
    // The highest coordinates the code takes.
    EXPECT_EQ(sim::mortonIndex(1023, 1023, 1023), (1u << 30) - 1);
    EXPECT_EQ(sim::mortonIndex(1023, 0, 0), referenceMorton(1023, 0, 0));
    EXPECT_EQ(sim::mortonIndex(0, 0, 1023), referenceMorton(0, 0, 1023));
    EXPECT_EQ(sim::mortonIndex(1, 0, 0), 1u);
    EXPECT_EQ(sim::mortonIndex(0, 1, 0), 2u);
    EXPECT_EQ(sim::mortonIndex(0, 0, 1), 4u);
    EXPECT_EQ(sim::mortonIndex(2, 0, 0), 8u);
}

TEST(CellOrder, LinearKeysAreTheCellIndex) {
    for (uint32_t dim : {1u, 3u, 40u}) {
        EXPECT_EQ(sim::cellKeyCount(dim, CellOrder::Linear), dim * dim * dim);
        EXPECT_EQ(sim::cellKey(dim - 1, 0, dim - 1, dim, CellOrder::Linear),
                  sim::cellIndex(dim - 1, 0, dim - 1, dim));
    }
}

TEST(CellOrder, NamesParseBack) {
    for (CellOrder o : {CellOrder::Linear, CellOrder::Morton})
        EXPECT_EQ(sim::parseCellOrder(sim::cellOrderName(o)), o);
    EXPECT_FALSE(sim::parseCellOrder("Morton").has_value());
    EXPECT_FALSE(sim::parseCellOrder("").has_value());
}

// Morton grids size their key starts and sort keys by the key range and have rows one cell high.
TEST(CellOrder, MortonGridsHaveRowsOneCellHigh) {
    sim::Params lab; // L = 100: 40 cells of 5 per axis (27 cells), 20 of 10 (8 cells)
    for (sim::CellWidth width : {sim::CellWidth::TwoReach, sim::CellWidth::Reach})
        for (sim::Rows rows : {sim::Rows::Auto, sim::Rows::Cells, sim::Rows::OnePerCell,
                               sim::Rows::TwoPerCell, sim::Rows::FourPerCell})
            for (uint32_t n : {100000u, 1000000u, 10240000u}) {
                const sim::Grid g = sim::makeGrid(lab, width, n, rows, CellOrder::Morton);
                SCOPED_TRACE(std::string(sim::rowsName(rows)) + " " + sim::cellWidthName(width) +
                             " wide, n " + std::to_string(n));
                EXPECT_EQ(g.cellOrder, CellOrder::Morton);
                EXPECT_EQ(g.rowsPerCell, 1u);
                EXPECT_EQ(g.keyCells, sim::cellKeyCount(g.dim, CellOrder::Morton));
                EXPECT_LE(g.keyCells, sim::maxGridCells(n));
                EXPECT_GE(uint64_t(1) << g.keyBits, uint64_t(sim::keyCount(g)));
                EXPECT_EQ(sim::keyCount(g), g.keyCells * g.slicesPerCell);
                // x windows asked for where their keys fit.
                if (rows != sim::Rows::Auto && rows != sim::Rows::Cells) {
                    EXPECT_EQ(g.slicesPerCell == 8, 8ull * g.keyCells <= sim::maxGridKeys(n));
                }
                const sim::Grid linear = sim::makeGrid(lab, width, n, rows);
                EXPECT_EQ(g.dim, linear.dim); // 20 and 40 per axis: within every cap here
                EXPECT_EQ(linear.keyCells, linear.cellCount);
            }
    // 40 per axis: codes up to that of (39, 39, 39), 18 bits, and 3 more with slices.
    const sim::Grid g40 =
        sim::makeGrid(lab, sim::CellWidth::Reach, 1000000, sim::Rows::OnePerCell, CellOrder::Morton);
    EXPECT_EQ(g40.keyCells, sim::mortonIndex(39, 39, 39) + 1);
    EXPECT_EQ(g40.keyBits, 18u + 3u);
}

// A key range past the cap coarsens a Morton grid where linear keys still fit: 65 cells per axis (274,625
// cells, Morton keys up to 7 x 2^18) against a cap of 300,000 gives 64 (2^18 keys).
TEST(CellOrder, MortonKeyRangesCountAgainstTheCellCap) {
    sim::Params p;
    p.domainHalf = 163.5f;    // 2L / 5 = 65.4
    const uint32_t n = 37500; // cap 8n = 300,000
    ASSERT_EQ(sim::maxGridCells(n), 300000u);
    EXPECT_EQ(sim::makeGrid(p, sim::CellWidth::Reach, n).dim, 65u);
    const sim::Grid g = sim::makeGrid(p, sim::CellWidth::Reach, n, sim::Rows::Cells, CellOrder::Morton);
    EXPECT_EQ(g.dim, 64u);
    EXPECT_EQ(g.keyCells, 1u << 18);
    EXPECT_EQ(g.keyBits, 18u);
}

} // namespace
