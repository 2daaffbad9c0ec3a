// The flocking passes on lavapipe against the CPU reference of the contract (reference.cpp).

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
    sim::SubCells subCells = sim::SubCells::Auto;
    sim::CellOrder cellOrder = sim::CellOrder::Linear;

    // Runs `steps` steps of `mode` on a fresh flock; the outputs of the first step are poisoned.
    // Groups per dispatch row; small values split every dispatch over x and y, with spare groups.
    uint32_t maxGroupsX = 0;

    State gpuSteps(const State& in, const Params& p, Mode mode, int cells, int steps = 1) {
        sim::Flock f = sim::createFlock(ctx(), in.count(), options);
        sim::uploadState(ctx(), f, in);
        for (gpu::Buffer* b : {&f.pos[1], &f.vel[1], &f.ids[1]})
            gpu::fillBuffer(ctx(), *b, 0xffffffffu); // NaN
        const sim::Grid grid = sim::makeGrid(p, cells, f.count, subCells, mode, cellOrder);
        sim::prepareGrid(ctx(), f, grid); // compiles the grid's search pipelines
        if (maxGroupsX) {
            std::vector<gpu::Program*> programs = sim::flockPrograms(f);
            programs.push_back(&f.sorter.histogram);
            programs.push_back(&f.sorter.onesweep);
            programs.push_back(&f.sorter.onesweepHalf);
            for (gpu::Program* program : programs) program->maxGroupsX = maxGroupsX;
        }
        for (int s = 0; s < steps; ++s)
            test::runCommands([&](VkCommandBuffer cmd) { sim::recordStep(cmd, f, p, mode, grid, nullptr); });
        State out = sim::downloadState(ctx(), f);
        sim::destroyFlock(ctx(), f);
        return out;
    }

    void expectMatchesReference(const State& in, const Params& p, Mode mode, int cells,
                                const std::string& what) {
        SCOPED_TRACE(what + " mode=" + sim::modeName(mode) + " cells=" + std::to_string(cells) +
                     " n=" + std::to_string(in.count()));
        const test::ReferenceStep ref = test::referenceStep(in, p);
        const State got = gpuSteps(in, p, mode, cells);
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
            expectMatchesReference(uniformState(n, seed, p), p, Mode::Naive, 27,
                                   "uniform seed " + std::to_string(seed));
        }
}

// Devices without float16 arithmetic run the cube test in float32; lavapipe has float16, so that
// path is chosen here explicitly.
TEST_F(SimTest, NaiveWithTheFloat32FilterMatchesReference) {
    options.halfFilter = false;
    Params p;
    p.domainHalf = 12;
    expectMatchesReference(uniformState(1999, 8, p), p, Mode::Naive, 27, "uniform, float32 filter");
    expectMatchesReference(edgeState(800, 9, p), p, Mode::Naive, 27, "edges, float32 filter");
}

TEST_F(SimTest, NaiveMatchesReferenceOnAdversarialLayouts) {
    Params p;
    p.domainHalf = 10;
    expectMatchesReference(edgeState(1500, 4, p), p, Mode::Naive, 27, "faces, edges, corners");
    expectMatchesReference(coincidentState(1001, 5, p), p, Mode::Naive, 27, "coincident");
    expectMatchesReference(clusteredState(777, 6, p, 3, 1.0f), p, Mode::Naive, 27, "clusters");
    Params big = p;
    big.cohesionRadius = big.alignmentRadius = 14; // radii beyond L: every pair by its minimum image
    expectMatchesReference(uniformState(300, 7, big), big, Mode::Naive, 27, "radii beyond L");
}

// ---- The grid passes, one at a time -----------------------------------------------------------

class GridPassTest : public SimTest {
  protected:
    void SetUp() override {
        SimTest::SetUp();
        p.domainHalf = 20;
    }
    void useGrid(sim::SubCells sub, int cells) {
        grid = sim::makeGrid(p, cells, 3001, sub, Mode::Coherent);
        c = sim::stepConstants(p, grid, 3001);
    }
    Params p;
    sim::Grid grid;
    gpudata::StepConstants c{};
};

TEST_F(GridPassTest, CellIndexAndSortedPairsAndRangesAndReorder) {
    uint32_t sliced = 0;     // occupied cells with empty slices between occupied ones
    uint32_t longestGap = 0; // sub-keys between consecutive sorted keys, with slices
    // 8 cells per axis, and 7: then with 27 cells eighths do not fill whole blocks of 64 sub-keys
    // (cell_ranges.comp); quarter rows in 32 slices a cell always do. With 8 cells in a domain twice as
    // wide: as many per axis.
    struct Shape {
        sim::SubCells sub;
        int cells;
    };
    const Shape shapes[] = {{sim::SubCells::Off, 27},
                            {sim::SubCells::Slices, 27},
                            {sim::SubCells::Quarters, 27},
                            {sim::SubCells::Quarters, 8}};
    for (float half : {20.0f, 17.5f})
        for (const auto& [sub, cells] : shapes) {
            p.domainHalf = cells == 8 ? 2 * half : half; // cells twice as wide: as many per axis
            for (const State& s : {edgeState(3001, 11, p), clusteredState(3001, 12, p, 4, 0.7f),
                                   boxState(3001, 13, p, 2.0f, 0.5f)}) {
                useGrid(sub, cells);
                SCOPED_TRACE(std::string("order ") + sim::subCellsName(sub) + ", " + std::to_string(cells) +
                             " cells, L " + std::to_string(half));
                if (grid.slices && half != 20.0f && cells == 27 && sim::subKeysPerCell(grid) < 64) {
                    ASSERT_NE((sim::subRangeCount(grid) - 1) % 64, 0u);
                }
                // Quarter rows take the finest slices that fit: 32 a cell on these small grids.
                ASSERT_EQ(grid.slicesPerCell, sub == sim::SubCells::Quarters ? 32u : 8u);
                ASSERT_EQ(grid.slices, sub == sim::SubCells::Slices || sub == sim::SubCells::Quarters);
                ASSERT_EQ(grid.quarters, sub == sim::SubCells::Quarters);
                // Cell index of every boid (times slicesPerCell plus its x slice), or with quarters its
                // quarter row, cell x and x slice, as the CPU computes it.
                ASSERT_EQ(grid.keyCells, grid.cellCount);
                const uint32_t slicesPerCell = grid.slicesPerCell;
                const uint32_t shift =
                    std::bit_width((grid.quarters ? slicesPerCell : sim::subKeysPerCell(grid)) - 1);
                // The key of a position, and its cell.
                const auto keyOf = [&](const float* position, uint32_t& cell) {
                    uint32_t xyz[3], halves = 0;
                    for (int a = 0; a < 3; ++a) {
                        xyz[a] = sim::cellCoordinate(position[a], p.domainHalf, c.invCellWidth, grid.dim);
                        halves |= sim::subCellBit(position[a], p.domainHalf, c.invCellWidth, xyz[a]) << a;
                    }
                    const uint32_t slice =
                        sim::sliceOf(position[0], p.domainHalf, c.invCellWidth, xyz[0], slicesPerCell);
                    cell = sim::cellIndex(xyz[0], xyz[1], xyz[2], grid.dim);
                    const uint32_t low = grid.slices ? slice : 0;
                    const uint32_t row =
                        (2 * xyz[2] + (halves >> 2)) * 2 * grid.dim + 2 * xyz[1] + (halves >> 1 & 1);
                    return grid.quarters ? (row * grid.dim + xyz[0]) * slicesPerCell + slice
                                         : (cell << shift) + low;
                };
                const auto checkRanges = [&](const sim::Flock& f, const test::SortedCells& cpu) {
                    const uint32_t n = s.count();
                    const std::vector<uint32_t>& sortedKeys = cpu.sortedKeys;
                    // Start and end of every cell; empty ones marked empty in both. Slices and
                    // quarters leave the cell ranges alone (their walks read the starts): there these are
                    // the ranges of segments, a cell or a quarter row's cell.
                    const uint32_t segmentCount = grid.quarters ? 4 * grid.cellCount : grid.cellCount;
                    std::vector<uint32_t> ranges(2 * segmentCount, CELL_EMPTY),
                        subRanges(2 * sim::subKeysPerCell(grid) * grid.cellCount, CELL_EMPTY);
                    for (uint32_t k = 0; k < n; ++k) {
                        const uint32_t cell = sortedKeys[k] >> shift;
                        if (k == 0 || sortedKeys[k - 1] >> shift != cell) ranges[2 * cell] = k;
                        if (k == n - 1 || sortedKeys[k + 1] >> shift != cell) ranges[2 * cell + 1] = k + 1;
                        if (k == 0 || sortedKeys[k - 1] != sortedKeys[k]) subRanges[2 * sortedKeys[k]] = k;
                        if (k == n - 1 || sortedKeys[k + 1] != sortedKeys[k])
                            subRanges[2 * sortedKeys[k] + 1] = k + 1;
                    }
                    const std::vector<uint32_t> gotRanges =
                        test::readBuffer<uint32_t>(f.cellRanges, 2 * grid.cellCount);
                    if (grid.slices)
                        EXPECT_EQ(gotRanges, std::vector<uint32_t>(2 * grid.cellCount, 0xabababab));
                    else
                        EXPECT_EQ(gotRanges, ranges);
                    EXPECT_GT(std::count(cpu.boidsIn.begin(), cpu.boidsIn.end(), 0u), 0)
                        << "no empty cells to check";
                    if (grid.slices) {
                        // Every sub-key starts where its keys are or would go, in empty cells too, and one
                        // more entry holds n.
                        const uint32_t per = sim::subKeysPerCell(grid), total = per * grid.cellCount;
                        ASSERT_NO_FATAL_FAILURE(test::expectSubKeyStarts(f, grid, sortedKeys, total));
                        // Segments of slicesPerCell sub-keys (a cell's slices, or those of a cell of a
                        // quarter row) with empty slices between occupied ones.
                        for (uint32_t segment = 0; segment < total / slicesPerCell; ++segment) {
                            if (ranges[2 * segment] == CELL_EMPTY) continue;
                            bool gap = false, seen = false, emptyAfterSeen = false;
                            for (uint32_t sub = slicesPerCell * segment; sub < slicesPerCell * (segment + 1);
                                 ++sub) {
                                const auto first =
                                    std::lower_bound(sortedKeys.begin(), sortedKeys.end(), sub);
                                const bool occupied = first != sortedKeys.end() && *first == sub;
                                gap |= occupied && emptyAfterSeen;
                                emptyAfterSeen |= seen && !occupied;
                                seen |= occupied;
                            }
                            sliced += gap;
                        }
                        // Runs of empty cells, whose starts the cells' own invocations write: the layouts
                        // have some.
                        uint32_t longest = sortedKeys.front() + 1;
                        for (uint32_t k = 1; k < n; ++k)
                            longest = std::max(longest, sortedKeys[k] - sortedKeys[k - 1]);
                        longestGap = std::max(longestGap, std::max(longest, total - sortedKeys.back()));
                    }
                };
                ASSERT_NO_FATAL_FAILURE(test::checkGridPasses(ctx(), s, p, grid, c, keyOf, checkRanges));
            }
        }
    EXPECT_GT(sliced, 10u) << "too few cells with empty slices between occupied ones";
    EXPECT_GT(longestGap, 64u) << "no run of empty cells between occupied ones";
}

// ---- Whole grid steps against the reference ---------------------------------------------------

TEST_F(SimTest, GridStepsMatchReferenceOnLayouts) {
    Params p;
    p.domainHalf = 25;
    subCells = sim::SubCells::Off; // whole cells (auto would slice the 8-cell grid's 24 boids a cell)
    for (Mode mode : {Mode::Scattered, Mode::Coherent})
        for (int cells : {8, 27}) {
            expectMatchesReference(uniformState(2999, 21, p), p, mode, cells, "uniform");
            expectMatchesReference(clusteredState(1500, 22, p, 4, 1.5f), p, mode, cells, "clusters");
            expectMatchesReference(boxState(600, 23, p, 7.0f, 0.8f), p, mode, cells, "one cell");
            expectMatchesReference(edgeState(2000, 24, p), p, mode, cells, "faces, edges, corners");
            expectMatchesReference(coincidentState(1201, 25, p), p, mode, cells, "coincident");
            expectMatchesReference(uniformState(1, 26, p), p, mode, cells, "a single boid");
            expectMatchesReference(uniformState(257, 27, p), p, mode, cells, "n not a multiple of the group");
        }
}

// Slices: each row walked only over the x within reach of the boid, at an eighth of a cell. Cells
// of 10 to 40 boids, so that windows end inside occupied cells and cut slices off them.
TEST_F(SimTest, GridStepsWithSlicesMatchReference) {
    for (sim::SubCells sub : {sim::SubCells::Slices, sim::SubCells::Quarters})
        for (Mode mode : {Mode::Scattered, Mode::Coherent})
            for (int cells : {8, 27}) {
                subCells = sub;
                SCOPED_TRACE(sim::subCellsName(sub));
                Params p;
                p.domainHalf = cells == 27 ? 12.5f : 25.0f; // 5 cells of 5 per axis, or 5 of 10
                Params distinct = test::distinctRadii(p);
                distinct.domainHalf = cells == 27 ? 13.75f : 27.5f; // 5 cells of max(r) = 5.5 (or 11)
                Params small = p;
                small.domainHalf = cells == 27 ? 7.5f : 15.0f; // 3 cells per axis: every row wraps
                ASSERT_TRUE(sim::makeGrid(p, cells, 1250, subCells, mode).slices);
                ASSERT_TRUE(sim::makeGrid(small, cells, 300, subCells, mode).slices);
                ASSERT_EQ(sim::makeGrid(p, cells, 1250, subCells, mode).quarters,
                          sub == sim::SubCells::Quarters);
                expectMatchesReference(uniformState(2999, 81, p), p, mode, cells, "slices, uniform");
                expectMatchesReference(edgeState(2500, 82, p), p, mode, cells, "slices, edges");
                expectMatchesReference(boxState(700, 83, p, 2.0f, 0.5f), p, mode, cells, "slices, one cell");
                expectMatchesReference(clusteredState(1999, 84, p, 3, 1.0f), p, mode, cells,
                                       "slices, clusters");
                expectMatchesReference(coincidentState(1201, 85, p), p, mode, cells, "slices, coincident");
                expectMatchesReference(uniformState(257, 86, p), p, mode, cells, "slices, sparse");
                expectMatchesReference(uniformState(2500, 87, distinct), distinct, mode, cells,
                                       "slices, distinct radii");
                expectMatchesReference(edgeState(1000, 88, small), small, mode, cells,
                                       "slices, 3 cells per axis");
                Params wide = p; // cells wider than max(r): window ends fall elsewhere in the cells
                wide.domainHalf = cells == 27 ? 14.0f : 28.0f; // 5 cells of 5.6 (or 11.2)
                expectMatchesReference(uniformState(2500, 90, wide), wide, mode, cells, "slices, wide cells");
                // Crowded rows: about 48 boids a row of a cell (192 a cell with quarter rows).
                const uint32_t dense = (sub == sim::SubCells::Quarters ? 4 : 1) * 48 * 27 + 77;
                expectMatchesReference(uniformState(dense, 89, small), small, mode, cells,
                                       "slices, long rows");
            }
}

// Every search pipeline the product can reach (sim::searchVariants), on a grid that takes it
// (tests/search_setups.h): boids in clusters (wrapped across the domain's faces where they reach
// them), some tens of neighbours a boid on grids of up to 40 cells per axis.
TEST_F(SimTest, EverySearchPipelineMatchesReference) {
    for (const sim::SearchVariant& v : sim::searchVariants()) {
        SCOPED_TRACE(sim::searchVariantName(v));
        const std::optional<test::SearchSetup> setup = test::setupFor(v);
        ASSERT_TRUE(setup.has_value());
        subCells = setup->order;
        cellOrder = setup->cellOrder;
        const Params& p = setup->params;
        expectMatchesReference(clusteredState(setup->boids, 191, p, 3, 12.0f), p, v.mode, setup->cells,
                               "3 clusters");
        expectMatchesReference(clusteredState(setup->boids, 192, p, 6, 9.0f), p, v.mode, setup->cells,
                               "6 clusters");
    }
}

// The slice walks read the slice starts: spoiled starts must change the step, or a walk compiled
// without slices (whole cells) would pass every test above.
TEST_F(SimTest, SliceWalksReadTheirStarts) {
    Params p;
    p.domainHalf = 12.5f; // 5 cells of 5 per axis, 24 boids a cell
    const State in = uniformState(2999, 91, p);
    const test::ReferenceStep ref = test::referenceStep(in, p);
    for (sim::SubCells sub : {sim::SubCells::Slices, sim::SubCells::Quarters})
        for (Mode mode : {Mode::Scattered, Mode::Coherent}) {
            SCOPED_TRACE(std::string(sim::subCellsName(sub)) + " " + sim::modeName(mode));
            const sim::Grid grid = sim::makeGrid(p, 27, in.count(), sub, mode);
            ASSERT_TRUE(grid.slices);
            test::expectSpoiledStartsChangeTheStep(ctx(), in, ref, p, grid);
        }
}

TEST_F(SimTest, GridStepsWithThreeDifferentRadii) {
    Params p = test::distinctRadii(Params{});
    p.domainHalf = 20;
    for (Mode mode : {Mode::Scattered, Mode::Coherent})
        for (int cells : {8, 27}) {
            expectMatchesReference(uniformState(2500, 61, p), p, mode, cells, "uniform, distinct radii");
            expectMatchesReference(edgeState(1500, 62, p), p, mode, cells, "edges, distinct radii");
        }
    expectMatchesReference(uniformState(1500, 63, p), p, Mode::Naive, 27, "naive, distinct radii");
}

TEST_F(SimTest, GridStepsOnDomainsOfOneTwoAndThreeCells) {
    for (int cells : {8, 27})
        for (uint32_t dim : {1u, 2u, 3u}) {
            Params p;
            const float width = cells == 8 ? 10.0f : 5.0f; // 2 max(r) or max(r)
            p.domainHalf = width * (float(dim) + 0.4f) / 2;
            ASSERT_EQ(sim::makeGrid(p, cells, 400).dim, dim);
            for (Mode mode : {Mode::Scattered, Mode::Coherent}) {
                expectMatchesReference(uniformState(400, 30 + dim, p), p, mode, cells,
                                       std::to_string(dim) + " cells per axis");
                expectMatchesReference(edgeState(300, 40 + dim, p), p, mode, cells,
                                       std::to_string(dim) + " cells per axis, edges");
            }
        }
}

TEST_F(SimTest, DispatchesSplitOverTwoDimensions) {
    maxGroupsX = 3; // every pass's groups spread over x and y, with spare groups past the end
    Params p;
    p.domainHalf = 15;
    for (Mode mode : {Mode::Naive, Mode::Scattered, Mode::Coherent})
        expectMatchesReference(uniformState(2777, 70, p), p, mode, 27, "split dispatches");
}

// ---- Switching modes ----------------------------------------------------------------------------

TEST_F(SimTest, SwitchingModesKeepsTheBoidsAndTheirState) {
    Params p;
    p.domainHalf = 15;
    // 25 boids a cell with 27 cells: Auto orders coherent grids by quarter rows and scattered ones by
    // slices, so switching modes also switches the grid's key, as in the demo.
    const uint32_t n = 5400;
    bool sawSlices = false, sawQuarters = false;
    sim::Flock f = sim::createFlock(ctx(), n);
    State state = uniformState(n, 50, p);
    sim::uploadState(ctx(), f, state);
    // With 8 cells (200 boids a cell) both modes take quarter rows, with their own walks.
    const std::vector<std::pair<Mode, int>> schedule = {
        {Mode::Coherent, 27},  {Mode::Coherent, 27}, {Mode::Naive, 27},
        {Mode::Scattered, 8},  {Mode::Coherent, 8},  {Mode::Scattered, 8},
        {Mode::Scattered, 27}, {Mode::Naive, 27},    {Mode::Coherent, 27}};
    for (const auto& [mode, cells] : schedule) {
        SCOPED_TRACE(std::string("step in ") + sim::modeName(mode) + " with " + std::to_string(cells) +
                     " cells");
        const sim::Grid grid = sim::makeGrid(p, cells, n, sim::SubCells::Auto, mode);
        sawSlices |= mode != Mode::Naive && grid.slices && !grid.quarters;
        sawQuarters |= mode != Mode::Naive && grid.quarters;
        sim::prepareGrid(ctx(), f, grid);
        test::runCommands([&](VkCommandBuffer cmd) { sim::recordStep(cmd, f, p, mode, grid, nullptr); });
        const State next = sim::downloadState(ctx(), f); // in original boid order, through the ids
        const test::ReferenceStep ref = test::referenceStep(state, p);
        const test::Comparison c = test::compareStates(next, ref, p);
        ASSERT_EQ(c.mismatches, 0u) << c.firstMismatch;
        state = next;
    }
    EXPECT_TRUE(sawSlices && sawQuarters);
    sim::destroyFlock(ctx(), f);
}

// A grid step on the grid of the step before it sorts the pairs its search wrote, without the
// grid-index pass: the steps must be the same, bit for bit, as with that pass every time.
TEST_F(SimTest, StepsOnTheSameGridReuseTheSearchsPairs) {
    Params p;
    p.domainHalf = 12.5f; // 5 cells of 5 per axis (27 cells), 24 boids a cell
    const State in = edgeState(2999, 92, p);
    for (sim::SubCells sub : {sim::SubCells::Off, sim::SubCells::Slices, sim::SubCells::Quarters})
        for (Mode mode : {Mode::Scattered, Mode::Coherent}) {
            SCOPED_TRACE(std::string(sim::subCellsName(sub)) + " " + sim::modeName(mode));
            const sim::Grid grid = sim::makeGrid(p, 27, in.count(), sub, mode);
            const std::vector<State> results = test::stepsReusingPairsAndNot(ctx(), in, p, grid);
            EXPECT_TRUE(results[0].data == results[1].data);
        }
}

TEST_F(SimTest, TooManyBoidsIsAClearError) {
    EXPECT_THROW(sim::checkFlockFits(ctx(), 0xffffffffu), sim::InputError);
    EXPECT_THROW(sim::checkFlockFits(ctx(), 0), sim::InputError);
    EXPECT_NO_THROW(sim::checkFlockFits(ctx(), 1000));
}

} // namespace
