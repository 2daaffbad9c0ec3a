// The flocking passes on lavapipe against the CPU reference of the contract (reference.cpp).

#include "flock_steps.h"
#include "gpu_test.h"
#include "grid_check.h"
#include "layouts.h"
#include "reference.h"
#include "search_setups.h"
#include "sim/flock.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <numeric>

namespace {

using sim::Mode;
using sim::Params;
using sim::State;
using test::GpuTest;

using test::boxState;
using test::clusteredState;
using test::coincidentState;
using test::edgeState;
using test::uniformState;

// ---- Running the GPU --------------------------------------------------------------------------

class SimTest : public GpuTest {
  protected:
    sim::FlockOptions options;
    sim::Rows rows = sim::Rows::Auto;
    sim::CellOrder cellOrder = sim::CellOrder::Linear;

    // Runs `steps` steps of `mode` on a fresh flock; the outputs of the first step are poisoned.
    // Groups per dispatch row; small values split every dispatch over x and y, with spare groups.
    uint32_t maxGroupsX = 0;

    State gpuSteps(const State& in, const Params& p, Mode mode, sim::CellWidth width) {
        const sim::Grid grid = sim::makeGrid(p, width, in.count(), rows, cellOrder);
        return test::stepFlock(ctx(), in, p, grid,
                               {.mode = mode, .flock = options, .maxGroupsX = maxGroupsX});
    }

    void expectMatchesReference(const State& in, const Params& p, Mode mode, sim::CellWidth width,
                                const std::string& what) {
        SCOPED_TRACE(what + " mode=" + sim::modeName(mode) + " cells=" + sim::cellWidthName(width) +
                     " n=" + std::to_string(in.count()));
        const test::ReferenceStep ref = test::referenceStep(in, p, sim::usesPackedVelocity(mode, options));
        const State got = gpuSteps(in, p, mode, width);
        const test::Comparison c = test::compareStates(got, ref, p);
        EXPECT_EQ(c.mismatches, 0u) << c.firstMismatch;
        // Boids skipped for sitting on a rounding boundary must stay rare, or the test proves little.
        EXPECT_LE(c.ambiguous, std::max(2u, in.count() / 50)) << "too many ambiguous boids";
        uint64_t neighbours = std::accumulate(ref.neighbours.begin(), ref.neighbours.end(), uint64_t(0));
        if (in.count() > 50) {
            EXPECT_GT(neighbours, 0u) << "a layout without neighbours tests nothing";
        }
    }
};

// ---- The naive step ---------------------------------------------------------------------------

TEST_F(SimTest, NaiveMatchesReferenceAcrossSizesAndSeeds) {
    Params p;
    p.domainHalf = 20; // dense enough for many neighbours at these sizes
    for (uint32_t n : {1u, 2u, 255u, 1000u, 4097u})
        for (uint64_t seed : {1u, 2u, 3u}) {
            if (n == 4097 && seed > 1) continue;
            expectMatchesReference(uniformState(n, seed, p), p, Mode::Naive, sim::CellWidth::Reach,
                                   "uniform seed " + std::to_string(seed));
        }
}

// Devices without float16 arithmetic run the cube test in float32; lavapipe has float16, so that
// path is chosen here explicitly.
TEST_F(SimTest, NaiveWithTheFloat32FilterMatchesReference) {
    options.float16Filter = false;
    Params p;
    p.domainHalf = 12;
    expectMatchesReference(uniformState(1999, 8, p), p, Mode::Naive, sim::CellWidth::Reach,
                           "uniform, float32 filter");
    expectMatchesReference(edgeState(800, 9, p), p, Mode::Naive, sim::CellWidth::Reach,
                           "edges, float32 filter");
}

TEST_F(SimTest, NaiveMatchesReferenceOnAdversarialLayouts) {
    Params p;
    p.domainHalf = 10;
    expectMatchesReference(edgeState(1500, 4, p), p, Mode::Naive, sim::CellWidth::Reach,
                           "faces, edges, corners");
    expectMatchesReference(coincidentState(1001, 5, p), p, Mode::Naive, sim::CellWidth::Reach, "coincident");
    expectMatchesReference(clusteredState(777, 6, p, 3, 1.0f), p, Mode::Naive, sim::CellWidth::Reach,
                           "clusters");
    Params big = p;
    big.cohesionRadius = big.alignmentRadius = 14; // radii beyond L: every pair by its minimum image
    expectMatchesReference(uniformState(300, 7, big), big, Mode::Naive, sim::CellWidth::Reach,
                           "radii beyond L");
}

// ---- The grid passes, one at a time -----------------------------------------------------------

// Grid index, sort, key starts with reorder, statistics and the search's next keys, against the CPU,
// for whole cells and each row height, on domains of 8 and 7 cells per axis (key counts that fill
// whole blocks of 64 starts and ones that do not: key_starts.comp).
TEST_F(SimTest, GridPassesMatchTheCpu) {
    uint32_t gaps = 0;       // rows with empty slices between occupied ones
    uint32_t longestGap = 0; // keys between consecutive sorted keys
    for (float cellsPerAxis : {8.0f, 7.0f})
        for (sim::Rows rows :
             {sim::Rows::Cells, sim::Rows::OnePerCell, sim::Rows::TwoPerCell, sim::Rows::FourPerCell})
            for (sim::CellWidth width : {sim::CellWidth::Reach, sim::CellWidth::TwoReach}) {
                Params p;
                p.domainHalf = (width == sim::CellWidth::TwoReach ? 10.0f : 5.0f) * cellsPerAxis / 2;
                for (const State& s : {edgeState(3001, 11, p), clusteredState(3001, 12, p, 4, 0.7f),
                                       boxState(3001, 13, p, 2.0f, 0.5f)}) {
                    const sim::Grid grid = sim::makeGrid(p, width, s.count(), rows);
                    SCOPED_TRACE(sim::describeRows(grid) + ", " + sim::cellWidthName(width) + " wide, " +
                                 std::to_string(grid.dim) + " a side");
                    ASSERT_EQ(grid.slicesPerCell, rows == sim::Rows::Cells ? 1u : 8u);
                    ASSERT_EQ(grid.rowsPerCell, rows == sim::Rows::TwoPerCell    ? 2u
                                                : rows == sim::Rows::FourPerCell ? 4u
                                                                                 : 1u);
                    const test::SortedCells cpu = test::checkGridPasses(ctx(), s, p, grid);
                    ASSERT_FALSE(HasFatalFailure());
                    const std::vector<uint32_t>& keys = cpu.sortedKeys;
                    for (size_t k = 1; k < keys.size(); ++k) {
                        const uint32_t gap = keys[k] - keys[k - 1];
                        gaps += gap > 1 && keys[k] / grid.slicesPerCell == keys[k - 1] / grid.slicesPerCell;
                        longestGap = std::max(longestGap, gap);
                    }
                }
            }
    EXPECT_GT(gaps, 10u) << "too few empty slices between occupied ones";
    EXPECT_GT(longestGap, 64u) << "no run of empty keys longer than a block";
}

// ---- Whole grid steps against the reference ---------------------------------------------------

TEST_F(SimTest, GridStepsMatchReferenceOnLayouts) {
    Params p;
    p.domainHalf = 25;
    rows = sim::Rows::Cells; // whole cells (auto would give cells 2 max(r) wide, 24 boids a cell, x windows)
    for (Mode mode : {Mode::Scattered, Mode::Coherent})
        for (sim::CellWidth width : {sim::CellWidth::TwoReach, sim::CellWidth::Reach}) {
            expectMatchesReference(uniformState(2999, 21, p), p, mode, width, "uniform");
            expectMatchesReference(clusteredState(1500, 22, p, 4, 1.5f), p, mode, width, "clusters");
            expectMatchesReference(boxState(600, 23, p, 7.0f, 0.8f), p, mode, width, "one cell");
            expectMatchesReference(edgeState(2000, 24, p), p, mode, width, "faces, edges, corners");
            expectMatchesReference(coincidentState(1201, 25, p), p, mode, width, "coincident");
            expectMatchesReference(uniformState(1, 26, p), p, mode, width, "a single boid");
            expectMatchesReference(uniformState(257, 27, p), p, mode, width, "n not a multiple of the group");
        }
}

// x windows: each row scanned only over the x within reach of the boid, in whole slices, for each row
// height. Cells of 10 to 40 boids, so that windows end inside occupied cells and cut slices off them.
TEST_F(SimTest, GridStepsWithWindowsMatchReference) {
    for (sim::Rows r : {sim::Rows::OnePerCell, sim::Rows::TwoPerCell, sim::Rows::FourPerCell})
        for (Mode mode : {Mode::Scattered, Mode::Coherent})
            for (sim::CellWidth width : {sim::CellWidth::TwoReach, sim::CellWidth::Reach}) {
                rows = r;
                SCOPED_TRACE(sim::rowsName(r));
                Params p;
                p.domainHalf =
                    width == sim::CellWidth::Reach ? 12.5f : 25.0f; // 5 cells of 5 per axis, or 5 of 10
                Params distinct = test::distinctRadii(p);
                distinct.domainHalf =
                    width == sim::CellWidth::Reach ? 13.75f : 27.5f; // 5 cells of max(r) = 5.5 (or 11)
                Params small = p;
                small.domainHalf =
                    width == sim::CellWidth::Reach ? 7.5f : 15.0f; // 3 cells per axis: every row wraps
                ASSERT_EQ(sim::makeGrid(p, width, 1250, rows).slicesPerCell, 8u);
                ASSERT_EQ(sim::makeGrid(small, width, 300, rows).slicesPerCell, 8u);
                expectMatchesReference(uniformState(2999, 81, p), p, mode, width, "windows, uniform");
                expectMatchesReference(edgeState(2500, 82, p), p, mode, width, "windows, edges");
                expectMatchesReference(boxState(700, 83, p, 2.0f, 0.5f), p, mode, width, "windows, one cell");
                expectMatchesReference(clusteredState(1999, 84, p, 3, 1.0f), p, mode, width,
                                       "windows, clusters");
                expectMatchesReference(coincidentState(1201, 85, p), p, mode, width, "windows, coincident");
                expectMatchesReference(uniformState(257, 86, p), p, mode, width, "windows, sparse");
                expectMatchesReference(uniformState(2500, 87, distinct), distinct, mode, width,
                                       "windows, distinct radii");
                expectMatchesReference(edgeState(1000, 88, small), small, mode, width,
                                       "windows, 3 cells per axis");
                Params wide = p; // cells wider than max(r): window ends fall elsewhere in the cells
                wide.domainHalf = width == sim::CellWidth::Reach ? 14.0f : 28.0f; // 5 cells of 5.6 (or 11.2)
                expectMatchesReference(uniformState(2500, 90, wide), wide, mode, width,
                                       "windows, wide cells");
                // Crowded rows: about 48 boids a row of rows a full or half cell high (12 a quarter row).
                const uint32_t rowsPerCell = std::min(sim::makeGrid(small, width, 300, rows).rowsPerCell, 2u);
                const uint32_t crowded = 48 * 27 * rowsPerCell * rowsPerCell + 77;
                expectMatchesReference(uniformState(crowded, 89, small), small, mode, width,
                                       "windows, long rows");
            }
}

// Every search pipeline (sim::searchVariants) on every grid shape (tests/search_setups.h): boids in
// clusters (wrapped across the domain's faces where they reach them), some tens of neighbours a boid.
TEST_F(SimTest, EverySearchPipelineMatchesReferenceOnEveryShape) {
    for (const sim::SearchVariant& v : sim::searchVariants())
        for (const test::GridShape& shape : test::gridShapes()) {
            SCOPED_TRACE(sim::searchVariantName(v) + ", " + shape.name());
            rows = shape.rows;
            cellOrder = shape.cellOrder;
            options.packedVelocity = v.packedVelocity;
            Params p = v.sharedRadii ? Params{} : test::distinctRadii(Params{});
            p.domainHalf = shape.domainHalf;
            const float spread = std::max(6.0f, shape.domainHalf / 4); // some tens of neighbours a boid
            expectMatchesReference(clusteredState(3000, 191, p, 3, spread), p, v.mode, shape.width,
                                   "3 clusters");
        }
}

// The search reads the key starts: spoiled starts must change the step, or a search that ignored
// them would pass every test above.
TEST_F(SimTest, TheSearchReadsItsStarts) {
    Params p;
    p.domainHalf = 12.5f; // 5 cells of 5 per axis, 24 boids a cell
    const State in = uniformState(2999, 91, p);
    for (sim::Rows r : {sim::Rows::Cells, sim::Rows::OnePerCell, sim::Rows::TwoPerCell})
        for (Mode mode : {Mode::Scattered, Mode::Coherent}) {
            SCOPED_TRACE(std::string(sim::rowsName(r)) + " " + sim::modeName(mode));
            test::expectSpoiledStartsChangeTheStep(
                ctx(), in, test::referenceStep(in, p, sim::usesPackedVelocity(mode, {})), p,
                sim::makeGrid(p, sim::CellWidth::Reach, in.count(), r), mode);
        }
}

// The scattered search's velocities in sorted order (gather_velocities.comp), over a poisoned copy,
// for each grid build: velSorted[k] is the velocity of the boid in sorted position k.
TEST_F(SimTest, TheScatteredSearchGathersTheVelocitiesInSortedOrder) {
    Params p;
    p.domainHalf = 12.5f;
    const State in = clusteredState(3001, 92, p, 5, 2.0f); // 3,001: off every group and subgroup size
    const sim::Grid grid = sim::makeGrid(p, sim::CellWidth::Reach, in.count());
    for (sim::GridBuild build : {sim::GridBuild::Radix, sim::GridBuild::Counting}) {
        SCOPED_TRACE(sim::gridBuildName(build));
        sim::Flock f = sim::createFlock(ctx(), in.count());
        sim::uploadState(ctx(), f, in);
        sim::prepareGrid(ctx(), f, grid, Mode::Scattered, build);
        gpu::fillBuffer(ctx(), f.velSorted, 0xabababab);
        test::runCommands(
            [&](VkCommandBuffer cmd) { sim::recordStep(cmd, f, p, Mode::Scattered, grid, build, nullptr); });
        const std::vector<float> velSorted = test::readBuffer<float>(f.velSorted, 4 * size_t(in.count()));
        const std::vector<uint32_t> slots = test::readBuffer<uint32_t>(f.sortedSlots, in.count());
        for (uint32_t k = 0; k < in.count(); ++k)
            for (int a = 0; a < 3; ++a)
                ASSERT_EQ(velSorted[4 * k + a], in.data[size_t(slots[k]) * 6 + 3 + a])
                    << "sorted position " << k;
        sim::destroyFlock(ctx(), f);
    }
}

TEST_F(SimTest, GridStepsWithThreeDifferentRadii) {
    Params p = test::distinctRadii(Params{});
    p.domainHalf = 20;
    for (Mode mode : {Mode::Scattered, Mode::Coherent})
        for (sim::CellWidth width : {sim::CellWidth::TwoReach, sim::CellWidth::Reach}) {
            expectMatchesReference(uniformState(2500, 61, p), p, mode, width, "uniform, distinct radii");
            expectMatchesReference(edgeState(1500, 62, p), p, mode, width, "edges, distinct radii");
        }
    expectMatchesReference(uniformState(1500, 63, p), p, Mode::Naive, sim::CellWidth::Reach,
                           "naive, distinct radii");
}

TEST_F(SimTest, GridStepsOnDomainsOfOneTwoAndThreeCells) {
    for (sim::CellWidth width : {sim::CellWidth::TwoReach, sim::CellWidth::Reach})
        for (uint32_t dim : {1u, 2u, 3u}) {
            Params p;
            const float w = width == sim::CellWidth::TwoReach ? 10.0f : 5.0f; // 2 max(r) or max(r)
            p.domainHalf = w * (float(dim) + 0.4f) / 2;
            ASSERT_EQ(sim::makeGrid(p, width, 400).dim, dim);
            for (Mode mode : {Mode::Scattered, Mode::Coherent}) {
                expectMatchesReference(uniformState(400, 30 + dim, p), p, mode, width,
                                       std::to_string(dim) + " cells per axis");
                expectMatchesReference(edgeState(300, 40 + dim, p), p, mode, width,
                                       std::to_string(dim) + " cells per axis, edges");
            }
        }
}

TEST_F(SimTest, DispatchesSplitOverTwoDimensions) {
    maxGroupsX = 3; // every pass's groups spread over x and y, with spare groups past the end
    Params p;
    p.domainHalf = 15;
    for (Mode mode : {Mode::Naive, Mode::Scattered, Mode::Coherent})
        expectMatchesReference(uniformState(2777, 70, p), p, mode, sim::CellWidth::Reach, "split dispatches");
}

// ---- Switching modes ----------------------------------------------------------------------------

TEST_F(SimTest, SwitchingModesKeepsTheBoidsAndTheirState) {
    Params p;
    p.domainHalf = 15;
    // 25 boids a cell max(r) wide (Auto: rows a cell high), 200 a cell 2 max(r) wide (rows half a
    // cell high).
    const uint32_t n = 5400;
    bool sawOneRow = false, sawTwoRows = false;
    sim::Flock f = sim::createFlock(ctx(), n);
    State state = uniformState(n, 50, p);
    sim::uploadState(ctx(), f, state);
    constexpr sim::CellWidth R = sim::CellWidth::Reach, T = sim::CellWidth::TwoReach;
    const std::vector<std::pair<Mode, sim::CellWidth>> schedule = {
        {Mode::Coherent, R},  {Mode::Coherent, R}, {Mode::Naive, R},
        {Mode::Scattered, T}, {Mode::Coherent, T}, {Mode::Scattered, T},
        {Mode::Scattered, R}, {Mode::Naive, R},    {Mode::Coherent, R}};
    for (const auto& step : schedule) {
        const Mode mode = step.first; // not a structured binding: captured below, which clang 14 refuses
        const sim::CellWidth width = step.second;
        SCOPED_TRACE(std::string("step in ") + sim::modeName(mode) + " with " + sim::cellWidthName(width) +
                     " wide cells");
        const sim::Grid grid = sim::makeGrid(p, width, n);
        sawOneRow |= mode != Mode::Naive && grid.slicesPerCell > 1 && grid.rowsPerCell == 1;
        sawTwoRows |= mode != Mode::Naive && grid.rowsPerCell == 2;
        sim::prepareGrid(ctx(), f, grid, mode);
        test::runCommands([&](VkCommandBuffer cmd) {
            sim::recordStep(cmd, f, p, mode, grid, sim::GridBuild::Radix, nullptr);
        });
        const State next = sim::downloadState(ctx(), f); // in original boid order, through the ids
        const test::ReferenceStep ref =
            test::referenceStep(state, p, sim::usesPackedVelocity(mode, f.options));
        const test::Comparison c = test::compareStates(next, ref, p);
        ASSERT_EQ(c.mismatches, 0u) << c.firstMismatch;
        state = next;
    }
    EXPECT_TRUE(sawOneRow && sawTwoRows);
    sim::destroyFlock(ctx(), f);
}

// A grid step on the grid of the step before it sorts the pairs its search wrote, without the
// grid-index pass: the steps must be the same, bit for bit, as with that pass every time.
TEST_F(SimTest, StepsOnTheSameGridReuseTheSearchsPairs) {
    Params p;
    p.domainHalf = 12.5f; // 5 cells of max(r) = 5 per axis, 24 boids a cell
    const State in = edgeState(2999, 92, p);
    for (sim::Rows r : {sim::Rows::Cells, sim::Rows::OnePerCell, sim::Rows::TwoPerCell})
        for (Mode mode : {Mode::Scattered, Mode::Coherent}) {
            SCOPED_TRACE(std::string(sim::rowsName(r)) + " " + sim::modeName(mode));
            const sim::Grid grid = sim::makeGrid(p, sim::CellWidth::Reach, in.count(), r);
            const std::vector<State> results = test::stepsReusingPairsAndNot(ctx(), in, p, grid, mode);
            EXPECT_TRUE(results[0].data == results[1].data);
        }
}

TEST_F(SimTest, TooManyBoidsIsAClearError) {
    EXPECT_THROW(sim::checkFlockFits(ctx(), 0xffffffffu), io::InputError);
    EXPECT_THROW(sim::checkFlockFits(ctx(), 0), io::InputError);
    EXPECT_NO_THROW(sim::checkFlockFits(ctx(), 1000));
}

} // namespace
