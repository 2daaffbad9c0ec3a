// Grid steps in Morton cell order (sim::CellOrder) on lavapipe: the passes against the CPU's keys,
// key starts, and whole steps against the CPU reference and against linear order.

#include "flock_steps.h"
#include "gpu_test.h"
#include "grid_check.h"
#include "layouts.h"
#include "reference.h"
#include "sim/flock.h"

#include <algorithm>
#include <numeric>

namespace {

using sim::CellOrder;
using sim::Mode;
using sim::Params;
using sim::Rows;
using sim::State;

class MortonTest : public test::GpuTest {
  protected:
    // A step of `mode` on `grid` from a fresh flock whose outputs are poisoned first.
    State gpuSteps(const State& in, const Params& p, const sim::Grid& grid, Mode mode) {
        return test::stepFlock(ctx(), in, p, grid, {.mode = mode});
    }

    void expectMatches(const State& got, const test::ReferenceStep& ref, const Params& p, uint32_t n) {
        const test::Comparison c = test::compareStates(got, ref, p);
        EXPECT_EQ(c.mismatches, 0u) << c.firstMismatch;
        EXPECT_LE(c.ambiguous, std::max(2u, n / 50)) << "too many ambiguous boids";
    }

    // One Morton step of `rows` against the reference, and against the same step in linear order.
    void expectMortonStep(const State& in, const Params& p, Mode mode, sim::CellWidth width, Rows rows,
                          const std::string& what) {
        const sim::Grid grid = sim::makeGrid(p, width, in.count(), rows, CellOrder::Morton);
        SCOPED_TRACE(what + ", " + sim::modeName(mode) + ", " + sim::cellWidthName(width) + " wide, " +
                     std::to_string(grid.dim) + " per axis, " + sim::describeRows(grid) + ", n " +
                     std::to_string(in.count()));
        ASSERT_EQ(grid.cellOrder, CellOrder::Morton);
        const test::ReferenceStep ref = test::referenceStep(in, p, sim::usesPackedVelocity(mode, {}));
        const State morton = gpuSteps(in, p, grid, mode);
        expectMatches(morton, ref, p, in.count());
        if (in.count() > 50) {
            EXPECT_GT(std::accumulate(ref.neighbours.begin(), ref.neighbours.end(), uint64_t(0)), 0u)
                << "a layout without neighbours tests nothing";
        }
        // Linear order sums the same neighbours in another order: within twice the reference's bound.
        const sim::Grid linearGrid = sim::makeGrid(p, width, in.count(), rows);
        ASSERT_EQ(linearGrid.dim, grid.dim);
        test::ReferenceStep linear = ref;
        linear.state = gpuSteps(in, p, linearGrid, mode);
        for (double& t : linear.velocityTolerance) t *= 2;
        expectMatches(morton, linear, p, in.count());
    }
};

// Domain half-widths giving `dim` cells per axis of a cell width (max(r) = 5, or 2 max(r) = 10).
float domainHalfFor(uint32_t dim, sim::CellWidth width) {
    return (width == sim::CellWidth::TwoReach ? 10.0f : 5.0f) * (float(dim) + 0.4f) / 2;
}

// ---- The passes: keys, sorted pairs, ranges or starts, statistics, reorder, next keys --------------

TEST_F(MortonTest, GridPassesMatchTheCpuInMortonOrder) {
    uint32_t gapped = 0; // grids whose key range has keys of no cell
    for (uint32_t dim : {5u, 7u, 8u})
        for (Rows rows : {Rows::Cells, Rows::OnePerCell}) {
            Params p;
            p.domainHalf = domainHalfFor(dim, sim::CellWidth::Reach);
            const uint32_t n = 3001;
            const sim::Grid grid = sim::makeGrid(p, sim::CellWidth::Reach, n, rows, CellOrder::Morton);
            ASSERT_EQ(grid.dim, dim);
            ASSERT_EQ(grid.slicesPerCell, rows == Rows::OnePerCell ? 8u : 1u);
            gapped += grid.keyCells > grid.cellCount;
            for (const State& s : {test::edgeState(n, 11, p), test::clusteredState(n, 12, p, 4, 0.7f),
                                   test::boxState(n, 13, p, 2.0f, 0.5f)}) {
                SCOPED_TRACE(sim::describeRows(grid) + ", " + std::to_string(dim) + " per axis");
                test::checkGridPasses(ctx(), s, p, grid);
                ASSERT_FALSE(HasFatalFailure());
            }
        }
    EXPECT_GT(gapped, 0u) << "no key range with gaps";
}

// ---- Whole steps ------------------------------------------------------------------------------

// The layouts of the linear grid tests, in both modes and shapes, whole cells and rows of cells (each
// window cut at every cell's edge), on 5 cells per axis (Morton keys with gaps).
TEST_F(MortonTest, StepsMatchReferenceAndLinearOrderOnLayouts) {
    for (Mode mode : {Mode::Scattered, Mode::Coherent})
        for (sim::CellWidth width : {sim::CellWidth::TwoReach, sim::CellWidth::Reach})
            for (Rows sub : {Rows::Cells, Rows::OnePerCell}) {
                Params p;
                p.domainHalf = domainHalfFor(5, width);
                ASSERT_EQ(sim::makeGrid(p, width, 2999, sub, CellOrder::Morton).slicesPerCell,
                          sub == Rows::Cells ? 1u : 8u);
                expectMortonStep(test::uniformState(2999, 21, p), p, mode, width, sub, "uniform");
                expectMortonStep(test::clusteredState(1500, 22, p, 4, 1.5f), p, mode, width, sub, "clusters");
                expectMortonStep(test::boxState(600, 23, p, 7.0f, 0.8f), p, mode, width, sub, "one cell");
                expectMortonStep(test::edgeState(2000, 24, p), p, mode, width, sub, "faces, edges, corners");
                expectMortonStep(test::coincidentState(1201, 25, p), p, mode, width, sub, "coincident");
                expectMortonStep(test::uniformState(1, 26, p), p, mode, width, sub, "a single boid");
                expectMortonStep(test::uniformState(257, 27, p), p, mode, width, sub, "n off the group");
            }
}

// 1, 2 and 3 cells per axis (each cell a distinct image only from 3), and 7 and 9 (keys with gaps,
// 9 just above a power of two), boids on the domain's faces.
TEST_F(MortonTest, StepsOnSmallAndOddGrids) {
    for (sim::CellWidth width : {sim::CellWidth::TwoReach, sim::CellWidth::Reach})
        for (uint32_t dim : {1u, 2u, 3u, 7u, 9u}) {
            Params p;
            p.domainHalf = domainHalfFor(dim, width);
            ASSERT_EQ(sim::makeGrid(p, width, 400, Rows::Cells, CellOrder::Morton).dim, dim);
            for (Mode mode : {Mode::Scattered, Mode::Coherent})
                for (Rows sub : {Rows::Cells, Rows::OnePerCell}) {
                    if (dim < 3 && sub == Rows::OnePerCell) continue; // whole cells, as Cells
                    const uint32_t n = dim == 9 ? 1500 : 500;
                    expectMortonStep(test::edgeState(n, 40 + dim, p), p, mode, width, sub, "edges");
                    if (dim > 3)
                        expectMortonStep(test::uniformState(n, 30 + dim, p), p, mode, width, sub, "uniform");
                }
        }
}

// Switching the order on a flock whose search wrote the other order's keys must redo them (the
// grid-index pass), both ways; steps on one Morton grid reuse the search's keys, bit for bit.
TEST_F(MortonTest, SwitchingTheCellOrderRedoesTheKeys) {
    Params p;
    p.domainHalf = domainHalfFor(5, sim::CellWidth::Reach);
    State state = test::uniformState(2999, 93, p);
    sim::Flock f = sim::createFlock(ctx(), state.count());
    sim::uploadState(ctx(), f, state);
    for (CellOrder order : {CellOrder::Linear, CellOrder::Morton, CellOrder::Morton, CellOrder::Linear})
        for (Mode mode : {Mode::Coherent, Mode::Scattered}) {
            SCOPED_TRACE(std::string(sim::cellOrderName(order)) + " " + sim::modeName(mode));
            const sim::Grid grid = sim::makeGrid(p, sim::CellWidth::Reach, f.count, Rows::Cells, order);
            sim::prepareGrid(ctx(), f, grid, mode);
            test::runCommands([&](VkCommandBuffer cmd) {
                sim::recordStep(cmd, f, p, mode, grid, sim::GridBuild::Radix, nullptr);
            });
            EXPECT_TRUE(f.keysCurrent);
            const State next = sim::downloadState(ctx(), f);
            expectMatches(next, test::referenceStep(state, p, sim::usesPackedVelocity(mode, f.options)), p,
                          state.count());
            state = next;
        }
    sim::destroyFlock(ctx(), f);

    const State in = test::edgeState(2999, 94, p);
    for (Rows sub : {Rows::Cells, Rows::OnePerCell})
        for (Mode mode : {Mode::Scattered, Mode::Coherent}) {
            const sim::Grid grid =
                sim::makeGrid(p, sim::CellWidth::Reach, in.count(), sub, CellOrder::Morton);
            const std::vector<State> results = test::stepsReusingPairsAndNot(ctx(), in, p, grid, mode);
            EXPECT_TRUE(results[0].data == results[1].data)
                << sim::rowsName(sub) << " " << sim::modeName(mode);
        }
}

// Morton windows, cut at every cell's edge, read the key starts: spoiled starts must change the step.
TEST_F(MortonTest, MortonWindowsReadTheirStarts) {
    Params p;
    p.domainHalf = domainHalfFor(5, sim::CellWidth::Reach);
    const State in = test::uniformState(2999, 95, p);
    const sim::Grid grid =
        sim::makeGrid(p, sim::CellWidth::Reach, in.count(), Rows::OnePerCell, CellOrder::Morton);
    for (Mode mode : {Mode::Scattered, Mode::Coherent})
        test::expectSpoiledStartsChangeTheStep(
            ctx(), in, test::referenceStep(in, p, sim::usesPackedVelocity(mode, {})), p, grid, mode);
}

} // namespace
