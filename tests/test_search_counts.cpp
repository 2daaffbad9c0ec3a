// What the search does, counted (sim::countSearch): each boid's candidates against a CPU walk of the
// same rows and windows, its neighbours against the double-precision reference, and the flock's means.

#include "gpu_test.h"
#include "grid_check.h"
#include "layouts.h"
#include "reference.h"
#include "search_setups.h"
#include "sim/flock.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <numeric>
#include <tuple>

namespace {

using sim::Params;
using sim::State;

int wrapIndex(int x, int n) {
    return x < 0 ? x + n : (x >= n ? x - n : x);
}

float rowGap(float f, int h, float rowsPerCell) {
    return std::max(0.0f, std::max(float(h) / rowsPerCell - f, f - float(h + 1) / rowsPerCell));
}

void clampSpan(float f, int n, int& lo, int& hi) {
    if (hi - lo < n) return;
    if (f - float(lo + 1) > float(hi) - f)
        ++lo;
    else
        --hi;
}

// One range of a boid's walk: where in its walk it lies (the iteration of each loop of
// grid_walk.glsl: row along z, row along y, run of keys), the sorted positions it covers, and the
// displacements' origin.
struct Visit {
    int z, y, run;
    uint32_t start, end;
    float origin[3];
};

float periodShift(int x, int wx, float domainHalf) {
    return float((x > wx) - (x < wx)) * (2.0f * domainHalf);
}

// Each boid's ranges as grid_walk.glsl walks them: every row within reach, over its x window in
// whole slices, each run of keys read from the key starts; every boid on grids of fewer than 3 cells
// per axis. The same float operations in the same order as the shader's (`precise` there); on
// lavapipe its square roots and divisions round correctly, as the CPU's do.
std::vector<std::vector<Visit>> cpuWalks(const State& s, const Params& p, const sim::Grid& grid) {
    const uint32_t n = s.count();
    const gpudata::StepConstants c = sim::stepConstants(p, grid, n);
    std::vector<uint32_t> starts(sim::keyCount(grid) + 1, 0);
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t cell = 0;
        starts[test::cpuGridKey(&s.data[size_t(i) * 6], grid, c, cell) + 1]++;
    }
    std::partial_sum(starts.begin(), starts.end(), starts.begin());
    const int dim = int(grid.dim), S = int(grid.slicesPerCell), rows = int(grid.rowsPerCell) * dim,
              slices = S * dim;
    const bool morton = grid.cellOrder == sim::CellOrder::Morton;
    std::vector<std::vector<Visit>> walks(n);
    for (uint32_t i = 0; i < n; ++i) {
        const float* pos = &s.data[size_t(i) * 6];
        if (dim < 3) {
            walks[i].push_back({0, 0, 0, 0, n, {pos[0], pos[1], pos[2]}});
            continue;
        }
        float f[3];
        for (int a = 0; a < 3; ++a) f[a] = (pos[a] + c.domainHalf) * c.invCellWidth;
        const float reach = c.reach * c.invCellWidth, reach2 = reach * reach;
        const float perCell = float(grid.rowsPerCell), slicesF = float(S);
        int zLo = int(std::floor(perCell * (f[2] + -reach))), zHi = int(std::floor(perCell * (f[2] + reach)));
        int yLo = int(std::floor(perCell * (f[1] + -reach))), yHi = int(std::floor(perCell * (f[1] + reach)));
        clampSpan(perCell * f[2], rows, zLo, zHi);
        clampSpan(perCell * f[1], rows, yLo, yHi);
        for (int hz = zLo; hz <= zHi; ++hz)
            for (int hy = yLo; hy <= yHi; ++hy) {
                const float gapZ = rowGap(f[2], hz, perCell), gapY = rowGap(f[1], hy, perCell);
                const float rowGap2 = gapY * gapY + gapZ * gapZ;
                if (rowGap2 >= reach2) continue;
                const int wz = wrapIndex(hz, rows), wy = wrapIndex(hy, rows);
                const float rho = std::sqrt(reach2 - rowGap2);
                int lo = int(std::floor((f[0] + -rho) * slicesF));
                int hi = int(std::floor((f[0] + rho) * slicesF));
                clampSpan(f[0] * slicesF, slices, lo, hi);
                const uint32_t rowKey = uint32_t(wz * rows + wy) * uint32_t(dim) * uint32_t(S);
                const float shiftY = periodShift(hy, wy, c.domainHalf);
                const float shiftZ = periodShift(hz, wz, c.domainHalf);
                for (int run = 0; lo <= hi; ++run) {
                    const int wrapped = wrapIndex(lo, slices);
                    int end = std::min(hi, lo - wrapped + slices - 1);
                    if (morton) end = std::min(end, lo - wrapped % S + S - 1);
                    const uint32_t first =
                        morton ? sim::mortonIndex(uint32_t(wrapped / S), uint32_t(wy), uint32_t(wz)) * S +
                                     uint32_t(wrapped % S)
                               : rowKey + uint32_t(wrapped);
                    const float shiftX = periodShift(lo, wrapped, c.domainHalf);
                    walks[i].push_back({hz - zLo,
                                        hy - yLo,
                                        run,
                                        starts[first],
                                        starts[first + uint32_t(end - lo) + 1],
                                        {pos[0] - shiftX, pos[1] - shiftY, pos[2] - shiftZ}});
                    lo = end + 1;
                }
            }
    }
    return walks;
}

// The boids in sorted order: by key, then by slot (a stable sort of the slots).
std::vector<uint32_t> sortedSlots(const State& s, const Params& p, const sim::Grid& grid) {
    const uint32_t n = s.count();
    const gpudata::StepConstants c = sim::stepConstants(p, grid, n);
    std::vector<uint32_t> keys(n), slots(n);
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t cell = 0;
        keys[i] = test::cpuGridKey(&s.data[size_t(i) * 6], grid, c, cell);
    }
    std::iota(slots.begin(), slots.end(), 0);
    std::stable_sort(slots.begin(), slots.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
    return slots;
}

float minImage(float d, float L) {
    return d >= L ? d - 2.0f * L : (d < -L ? d + 2.0f * L : d);
}

// What one subgroup ran, as the counting twin counts it: the lanes at the same range of their walks
// step together for as long as the longest of their ranges; a rule step is one in which some lane
// meets a boid within max(r).
struct SubgroupSteps {
    uint64_t steps = 0, ruleSteps = 0;
};

SubgroupSteps cpuSubgroupSteps(const State& s, const Params& p, const sim::Grid& grid,
                               const std::vector<std::vector<Visit>>& walks,
                               const std::vector<uint32_t>& sorted, const std::vector<uint32_t>& lanes) {
    const gpudata::StepConstants c = sim::stepConstants(p, grid, s.count());
    const float reach2 = std::max({c.cohesionRadiusSq, c.separationRadiusSq, c.alignmentRadiusSq});
    std::map<std::tuple<int, int, int>, std::vector<const Visit*>> together;
    for (uint32_t lane : lanes)
        for (const Visit& v : walks[lane]) together[{v.z, v.y, v.run}].push_back(&v);
    SubgroupSteps out;
    for (const auto& [where, visits] : together) {
        uint32_t longest = 0;
        for (const Visit* v : visits) longest = std::max(longest, v->end - v->start);
        out.steps += longest;
        for (uint32_t step = 0; step < longest; ++step) {
            bool any = false;
            for (const Visit* v : visits) {
                if (step >= v->end - v->start) continue;
                const float* q = &s.data[size_t(sorted[v->start + step]) * 6];
                float d[3];
                for (int a = 0; a < 3; ++a) {
                    d[a] = q[a] - v->origin[a];
                    if (grid.dim < 3) d[a] = minImage(d[a], c.domainHalf);
                }
                const float dist2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                any = any || dist2 < reach2;
            }
            out.ruleSteps += any ? 1 : 0;
        }
    }
    return out;
}

class SearchCountTest : public test::GpuTest {
  protected:
    // Counts `s` on `grid` (poisoned counts first) against the CPU walk and the reference, and the
    // means against the per-boid counts; the flock's state must be left as it was.
    void expectCounts(const State& s, const Params& p, const sim::Grid& grid, const std::string& what) {
        SCOPED_TRACE(what + ", " + sim::describeRows(grid) + ", " + std::to_string(grid.dim) + " a side, " +
                     sim::cellOrderName(grid.cellOrder) + ", n " + std::to_string(s.count()));
        const uint32_t n = s.count();
        sim::Flock f = sim::createFlock(ctx(), n);
        sim::uploadState(ctx(), f, s);
        sim::countSearch(ctx(), f, p, grid); // makes the counts' buffer, then poisoned
        gpu::fillBuffer(ctx(), f.counter.perBoid, 0xabababab);
        const sim::SearchCounts means = sim::countSearch(ctx(), f, p, grid);
        const std::vector<uint32_t> got = test::readBuffer<uint32_t>(f.counter.perBoid, 4 * size_t(n));
        EXPECT_TRUE(sim::downloadState(ctx(), f).data == s.data) << "the count moved the boids";
        const uint32_t groupSize = f.workgroupSize;
        sim::destroyFlock(ctx(), f);
        ASSERT_EQ(means.subgroupSize, ctx().subgroupSize);

        const std::vector<std::vector<Visit>> walks = cpuWalks(s, p, grid);
        const test::ReferenceStep ref = test::referenceStep(s, p);
        uint64_t candidateSum = 0, neighbourSum = 0, compared = 0;
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t candidates = 0;
            for (const Visit& v : walks[i]) candidates += v.end - v.start;
            candidateSum += got[4 * i];
            neighbourSum += got[4 * i + 1];
            ASSERT_EQ(got[4 * i], candidates) << "candidates of boid " << i;
            ASSERT_GT(got[4 * i], got[4 * i + 1]) << "boid " << i << " (itself a candidate)";
            if (ref.ambiguous[i]) continue;
            ASSERT_EQ(got[4 * i + 1], ref.neighbours[i]) << "neighbours of boid " << i;
            ++compared;
        }
        EXPECT_GE(compared, n / 2) << "too many ambiguous boids to compare";
        EXPECT_GT(neighbourSum, 0u) << "a layout without neighbours tests little";
        EXPECT_DOUBLE_EQ(means.candidates, double(candidateSum) / n);
        EXPECT_DOUBLE_EQ(means.neighbours, double(neighbourSum) / n);

        // Each subgroup's steps, kept by one of its lanes: invocation k takes sorted position k, and a
        // subgroup is `size` consecutive invocations of one group.
        const uint32_t size = means.subgroupSize;
        ASSERT_EQ(groupSize % size, 0u);
        const std::vector<uint32_t> sorted = sortedSlots(s, p, grid);
        uint64_t steps = 0, ruleSteps = 0;
        for (uint32_t first = 0; first < n; first += size) {
            const std::vector<uint32_t> lanes(sorted.begin() + first,
                                              sorted.begin() + std::min(n, first + size));
            uint64_t gotSteps = 0, gotRuleSteps = 0;
            for (uint32_t slot : lanes) {
                gotSteps += got[4 * slot + 2];
                gotRuleSteps += got[4 * slot + 3];
            }
            const SubgroupSteps want = cpuSubgroupSteps(s, p, grid, walks, sorted, lanes);
            ASSERT_EQ(gotSteps, want.steps) << "steps of the subgroup from sorted position " << first;
            ASSERT_EQ(gotRuleSteps, want.ruleSteps)
                << "rule steps of the subgroup from sorted position " << first;
            steps += want.steps;
            ruleSteps += want.ruleSteps;
        }
        EXPECT_DOUBLE_EQ(means.laneEfficiency, double(candidateSum) / (double(steps) * size));
        EXPECT_DOUBLE_EQ(means.ruleLanes, double(neighbourSum + n) / (double(ruleSteps) * size));
        EXPECT_GT(means.laneEfficiency, 0.0);
        EXPECT_LE(means.laneEfficiency, 1.0);
        EXPECT_LE(means.ruleLanes, 1.0);
    }
};

// Every grid shape the search takes (whole cells, each row height, Morton windows, grids too small
// for fixed image shifts), on layouts that put boids on faces, in one cell and in clusters.
TEST_F(SearchCountTest, CountsMatchTheCpuWalkAndTheReference) {
    for (const test::GridShape& shape : test::gridShapes()) {
        Params p = test::distinctRadii(Params{});
        p.domainHalf = shape.domainHalf;
        const auto grid = [&](const State& s) {
            return sim::makeGrid(p, shape.width, s.count(), shape.rows, shape.cellOrder);
        };
        for (const State& s : {test::edgeState(2001, 31, p), test::clusteredState(3001, 32, p, 4, 3.0f),
                               test::boxState(777, 33, p, 2.0f, 0.5f)})
            expectCounts(s, p, grid(s), shape.name());
    }
}

// Thinner rows and whole cells see the same neighbours through fewer or more candidates.
TEST_F(SearchCountTest, ThinnerRowsTestFewerCandidates) {
    Params p;
    p.domainHalf = 25;                                // 5 cells of 10 per axis with 8 cells
    const State s = test::uniformState(16000, 34, p); // the lab's density, 0.128
    std::vector<sim::SearchCounts> counts;
    for (sim::Rows rows :
         {sim::Rows::FourPerCell, sim::Rows::TwoPerCell, sim::Rows::OnePerCell, sim::Rows::Cells}) {
        sim::Flock f = sim::createFlock(ctx(), s.count());
        sim::uploadState(ctx(), f, s);
        counts.push_back(
            sim::countSearch(ctx(), f, p, sim::makeGrid(p, sim::CellWidth::TwoReach, s.count(), rows)));
        sim::destroyFlock(ctx(), f);
    }
    EXPECT_NEAR(counts[0].neighbours, 4.0 / 3 * std::numbers::pi * 125 * 0.128, 6.0); // a uniform flock's
    for (size_t k = 1; k < counts.size(); ++k) {
        EXPECT_DOUBLE_EQ(counts[k].neighbours, counts[0].neighbours) << k;
        EXPECT_GT(counts[k].candidates, counts[k - 1].candidates) << k;
    }
    EXPECT_GT(counts[0].candidates, counts[0].neighbours + 1);
}

} // namespace
