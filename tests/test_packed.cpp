// The coherent search's packed velocities (sim_types.h): steps against the CPU reference that packs
// as the GPU does, with the packed sums decoded within the scan too, and a long run whose statistics
// must stay among those of full-precision runs.

#include "flock_steps.h"
#include "gpu_test.h"
#include "grid_check.h"
#include "layouts.h"
#include "reference.h"
#include "search_setups.h"
#include "sim/config.h"
#include "sim/flock.h"
#include "sim/grid.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <numeric>

namespace {

using sim::Mode;
using sim::Params;
using sim::State;

// Alignment alone, at full strength: the step is the neighbours' mean velocity, whose quantization
// (about 1e-3 a neighbour) stands far above the reference's float tolerance.
Params alignmentOnly(Params p) {
    p.cohesionScale = 0;
    p.separationScale = 0;
    p.alignmentScale = 1;
    p.maxSpeed = 4;
    return p;
}

class PackedVelocityTest : public test::GpuTest {
  protected:
    State coherentSteps(const State& in, const Params& p, const sim::FlockOptions& options, int count = 1,
                        sim::Rows rows = sim::Rows::Auto) {
        const sim::Grid grid = sim::makeGrid(p, sim::CellWidth::Reach, in.count(), rows);
        return test::stepFlock(ctx(), in, p, grid,
                               {.mode = Mode::Coherent, .count = count, .flock = options});
    }

    test::Comparison compare(const State& in, const Params& p, const sim::FlockOptions& options,
                             bool packedReference) {
        return test::compareStates(coherentSteps(in, p, options), test::referenceStep(in, p, packedReference),
                                   p);
    }
};

// Packing is exact where the reference says so: each packed step sums as the reference's, and the
// full-precision step does not (nor the reverse), so neither reference accepts the other's step.
TEST_F(PackedVelocityTest, EachReferenceAcceptsOnlyItsOwnStep) {
    Params p = alignmentOnly(Params{});
    p.domainHalf = 15;
    const State in = test::uniformState(2999, 301, p);
    for (bool packed : {true, false}) {
        SCOPED_TRACE(packed ? "packed" : "full precision");
        const sim::FlockOptions options = {.packedVelocity = packed};
        const test::Comparison own = compare(in, p, options, packed);
        EXPECT_EQ(own.mismatches, 0u) << own.firstMismatch;
        EXPECT_LE(own.ambiguous, in.count() / 50);
        const test::Comparison other = compare(in, p, options, !packed);
        EXPECT_GT(other.mismatches, other.compared / 2) << "the reference cannot tell packing from none";
    }
}

// Sums decoded within the scan (sim_types.h: PACKED_VELOCITY_ROOM), after every 1, 2, 5 or 64
// candidates: the step is the same as the reference's, one decode a boid, within float rounding.
// Ranges are cut inside and at their ends, and in the 2-cell grid the whole flock is one range.
TEST_F(PackedVelocityTest, SumsDecodedWithinTheScanMatchTheReference) {
    Params p = alignmentOnly(test::distinctRadii(Params{}));
    for (uint32_t room : {1u, 2u, 5u, 64u})
        for (float domainHalf : {13.75f, 6.875f}) { // 5 cells of max(r) per axis, and 2 (one range)
            SCOPED_TRACE("room " + std::to_string(room) + ", L " + std::to_string(domainHalf));
            p.domainHalf = domainHalf;
            const State in = test::clusteredState(1500, 302 + room, p, 3, 3.0f);
            const test::Comparison c = compare(in, p, {.packedVelocity = true, .packedRoom = room}, true);
            EXPECT_EQ(c.mismatches, 0u) << c.firstMismatch;
            EXPECT_LE(c.ambiguous, in.count() / 50);
        }
    // The shared-radii pipeline counts its neighbours with cohesion's count.
    Params shared = alignmentOnly(Params{});
    shared.domainHalf = 12.5f;
    const State in = test::uniformState(2500, 310, shared);
    const test::Comparison c = compare(in, shared, {.packedVelocity = true, .packedRoom = 3}, true);
    EXPECT_EQ(c.mismatches, 0u) << c.firstMismatch;
}

// A packed field spans the speed limit: velocities beyond it (a loaded state) pack as the limit,
// zero packs as 512 exactly, and halves round to even.
TEST(PackedVelocity, FieldsClampAndRoundToEven) {
    const float maxSpeed = 1.0f;
    const float step = sim::velocityPackStep(maxSpeed);
    const float zero[3] = {0, 0, 0};
    EXPECT_EQ(test::packVelocity(zero, maxSpeed), 512u | 512u << 10 | 512u << 20);
    const float beyond[3] = {5.0f, -5.0f, 1.0f};
    EXPECT_EQ(test::packVelocity(beyond, maxSpeed), 1023u | 1u << 10 | 1023u << 20);
    const float halves[3] = {2.5f * step, -2.5f * step, 3.5f * step};
    const uint32_t w = test::packVelocity(halves, maxSpeed);
    EXPECT_EQ(w & 1023u, 514u);
    EXPECT_EQ(w >> 10 & 1023u, 510u);
    EXPECT_EQ(w >> 20, 516u);
    EXPECT_GT(sim::velocityPackScale(1e-45f), 0.0f); // finite however small the limit
}

// The shader packs as the CPU helper above does, on the values where a rounding or a clamp would
// differ: exact halves of a step either way, -0, and speeds far beyond maxSpeed (the reorder's w is
// checked bit for bit by checkGridPasses).
TEST_F(PackedVelocityTest, TheReorderPacksHalvesAndOverFastVelocitiesAsTheCpu) {
    Params p;
    State s = test::uniformState(1000, 41, p);
    const float step = sim::velocityPackStep(p.maxSpeed);
    const float special[] = {2.5f * step,    -2.5f * step,    3.5f * step,   -0.0f,
                             0.5f * step,    -0.5f * step,    511.5f * step, -511.5f * step,
                             5 * p.maxSpeed, -5 * p.maxSpeed, 1.5f * step,   0.0f};
    for (uint32_t i = 0; i < s.count(); ++i)
        for (uint32_t a = 0; a < 3; ++a)
            s.data[size_t(i) * 6 + 3 + a] = special[(i * 3 + a * 5) % std::size(special)];
    sim::Config c;
    c.mode = sim::Mode::Coherent;
    c.params = p;
    test::checkGridPasses(ctx(), s, p, sim::gridFor(c, s.count()));
}

// ---- A long run ---------------------------------------------------------------------------------

struct FlockStatistics {
    double polarization = 0; // |mean heading|
    double meanSpeed = 0;
    double meanNeighbours = 0; // within max(r), the minimum image
};

FlockStatistics statistics(const State& s, const Params& p) {
    const uint32_t n = s.count();
    const double L = p.domainHalf, r = sim::maxRadius(p);
    double heading[3] = {0, 0, 0};
    FlockStatistics out;
    uint64_t pairs = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const float* bi = &s.data[size_t(i) * 6];
        const double speed = std::sqrt(double(bi[3]) * bi[3] + double(bi[4]) * bi[4] + double(bi[5]) * bi[5]);
        out.meanSpeed += speed / n;
        if (speed > 0)
            for (int a = 0; a < 3; ++a) heading[a] += bi[3 + a] / speed / n;
        for (uint32_t j = i + 1; j < n; ++j) {
            const float* bj = &s.data[size_t(j) * 6];
            double d2 = 0;
            for (int a = 0; a < 3; ++a) {
                double d = std::abs(double(bj[a]) - double(bi[a]));
                d = std::min(d, 2 * L - d);
                d2 += d * d;
            }
            pairs += d2 < r * r;
        }
    }
    out.polarization = std::sqrt(heading[0] * heading[0] + heading[1] * heading[1] + heading[2] * heading[2]);
    out.meanNeighbours = 2.0 * double(pairs) / n;
    return out;
}

// The start with the last bit of one coordinate of every boid flipped (which: 0 to 5).
State perturbed(State s, int which) {
    for (uint32_t i = 0; i < s.count(); ++i) {
        float& x = s.data[size_t(i) * 6 + size_t(which)];
        x = std::bit_cast<float>(std::bit_cast<uint32_t>(x) ^ 1u);
    }
    return s;
}

// The spread of a statistic over runs, widened by itself on each side.
struct Band {
    double lo = INFINITY, hi = -INFINITY;
    void add(double x) { lo = std::min(lo, x), hi = std::max(hi, x); }
    bool holds(double x) const {
        const double w = hi - lo;
        return x >= lo - w && x <= hi + w;
    }
};

// Over a long run the flock's polarization, mean speed and mean neighbour count with packed
// velocities lie among those of full-precision runs whose starts differ in the last bit of one
// coordinate; and a run whose alignment is weakened by 30% does not, so the bands can tell.
TEST_F(PackedVelocityTest, LongRunStatisticsStayAmongFullPrecisionRuns) {
    // CI's size; VKBOIDS_STATS_BOIDS and VKBOIDS_STATS_STEPS run it larger at the same density on a
    // GPU (the 100,000 boids over 4,000 steps).
    const char* boidsText = std::getenv("VKBOIDS_STATS_BOIDS");
    const char* stepsText = std::getenv("VKBOIDS_STATS_STEPS");
    const uint32_t boids = boidsText ? uint32_t(std::atol(boidsText)) : 1200;
    const int steps = stepsText ? std::atoi(stepsText) : 150;
    Params p;
    p.domainHalf = 15.0f * std::cbrt(boids / 1200.0f); // about 17 neighbours a boid
    const State start = test::uniformState(boids, 320, p);
    const auto run = [&](const State& s, const Params& q, bool packed) {
        return statistics(coherentSteps(s, q, {.packedVelocity = packed}, steps), q);
    };
    Band polarization, speed, neighbours;
    for (int which = 0; which < 6; ++which) {
        const FlockStatistics f = run(perturbed(start, which), p, false);
        polarization.add(f.polarization), speed.add(f.meanSpeed), neighbours.add(f.meanNeighbours);
    }
    const FlockStatistics packed = run(start, p, true);
    const auto report = [&](const char* what, const Band& b, double x) {
        return std::string(what) + " " + std::to_string(x) + ", full-precision runs " + std::to_string(b.lo) +
               " to " + std::to_string(b.hi);
    };
    EXPECT_GT(polarization.lo, 0.3) << "the flock did not align: the run tests little";
    EXPECT_TRUE(polarization.holds(packed.polarization))
        << report("polarization", polarization, packed.polarization);
    EXPECT_TRUE(speed.holds(packed.meanSpeed)) << report("mean speed", speed, packed.meanSpeed);
    EXPECT_TRUE(neighbours.holds(packed.meanNeighbours))
        << report("neighbours", neighbours, packed.meanNeighbours);

    Params weaker = p;
    weaker.alignmentScale *= 0.7f;
    const FlockStatistics w = run(start, weaker, false);
    EXPECT_FALSE(polarization.holds(w.polarization) && speed.holds(w.meanSpeed) &&
                 neighbours.holds(w.meanNeighbours))
        << report("weaker alignment: polarization", polarization, w.polarization) << "; "
        << report("mean speed", speed, w.meanSpeed) << "; "
        << report("neighbours", neighbours, w.meanNeighbours);
    std::printf("polarization %s\nmean speed %s\nneighbours %s\nweaker: %f %f %f\n",
                report("packed", polarization, packed.polarization).c_str(),
                report("packed", speed, packed.meanSpeed).c_str(),
                report("packed", neighbours, packed.meanNeighbours).c_str(), w.polarization, w.meanSpeed,
                w.meanNeighbours);
}

} // namespace
