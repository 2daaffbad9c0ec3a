// Rule 4, the predator, on lavapipe against the CPU reference (reference.cpp) in every mode: boids
// inside and outside its radius, across the domain's faces, and no change at all without it.

#include "flock_steps.h"
#include "gpu_test.h"
#include "reference.h"
#include "sim/flock.h"

#include <cmath>

namespace {

using sim::Mode;
using sim::Params;
using sim::State;

struct ModeWidth {
    Mode mode;
    sim::CellWidth width;
};
const ModeWidth everyMode[] = {{Mode::Naive, sim::CellWidth::Reach},
                               {Mode::Scattered, sim::CellWidth::TwoReach},
                               {Mode::Scattered, sim::CellWidth::Reach},
                               {Mode::Coherent, sim::CellWidth::TwoReach},
                               {Mode::Coherent, sim::CellWidth::Reach}};

class PredatorTest : public test::GpuTest {
  protected:
    // One step on a fresh flock whose output buffers are poisoned first.
    State gpuStep(const State& in, const Params& p, Mode mode, sim::CellWidth width) {
        return test::stepFlock(ctx(), in, p, sim::makeGrid(p, width, in.count()), {.mode = mode});
    }

    // Every mode against the reference; `inside` and `outside` count the boids within the predator's
    // radius and beyond it, so that a layout that puts none on either side fails.
    void expectEveryModeMatches(const State& in, const Params& p, const std::string& what) {
        const test::ReferenceStep full = test::referenceStep(in, p),
                                  packed = test::referenceStep(in, p, true);
        uint32_t inside = 0, outside = 0;
        for (uint32_t i = 0; i < in.count(); ++i)
            (minImageDistance(in, i, p) < p.predatorRadius ? inside : outside)++;
        EXPECT_GE(inside, 20u) << what;
        EXPECT_GE(outside, 20u) << what;
        for (const ModeWidth& m : everyMode) {
            SCOPED_TRACE(what + " mode=" + sim::modeName(m.mode) + " width=" + sim::cellWidthName(m.width));
            const test::ReferenceStep& ref = sim::usesPackedVelocity(m.mode, {}) ? packed : full;
            const test::Comparison c = test::compareStates(gpuStep(in, p, m.mode, m.width), ref, p);
            EXPECT_EQ(c.mismatches, 0u) << c.firstMismatch;
            EXPECT_LE(c.ambiguous, in.count() / 50);
        }
    }

    // The boid's distance to the predator on the torus.
    static double minImageDistance(const State& s, uint32_t i, const Params& p) {
        const double L = p.domainHalf;
        double sum = 0;
        for (int a = 0; a < 3; ++a) {
            double d = std::fmod(std::abs(double(s.data[size_t(i) * 6 + a]) - p.predatorPos[a]), 2 * L);
            d = std::min(d, 2 * L - d);
            sum += d * d;
        }
        return std::sqrt(sum);
    }
};

// Dense enough for neighbours (L = 20) and about one boid in twelve within the predator's radius.
Params predatorParams(float x, float y, float z) {
    Params p;
    p.domainHalf = 20;
    p.predator = true;
    p.predatorPos[0] = x;
    p.predatorPos[1] = y;
    p.predatorPos[2] = z;
    p.predatorRadius = 7;
    p.predatorScale = 0.5f;
    return p;
}

TEST_F(PredatorTest, MatchesReferenceInEveryMode) {
    const Params p = predatorParams(3.5f, -2.25f, 5);
    expectEveryModeMatches(sim::randomState(3000, 7, p.domainHalf, p.maxSpeed), p, "uniform");
    Params strong = p;
    strong.predatorScale = -2; // a negative scale attracts: the same rule, the other way
    strong.predatorRadius = 11;
    expectEveryModeMatches(sim::randomState(2001, 8, p.domainHalf, p.maxSpeed), strong, "attractor");
}

// The predator near a corner of the domain, with a crowd around it in every periodic image: its
// distance is the minimum image too. Also given outside the domain, where it is wrapped.
TEST_F(PredatorTest, MatchesReferenceAcrossTheDomainsFaces) {
    for (const Params& p : {predatorParams(-19.5f, 18.75f, 0.5f), predatorParams(23.0f, -20.0f, -41.0f)}) {
        State s = sim::randomState(3000, 11, p.domainHalf, p.maxSpeed);
        sim::Random rng(12);
        uint32_t across = 0;
        for (uint32_t i = 0; i < s.count(); i += 3)
            for (int a = 0; a < 3; ++a) {
                const float raw = p.predatorPos[a] + rng.uniform(-p.predatorRadius, p.predatorRadius);
                s.data[size_t(i) * 6 + a] = sim::wrapCoordinate(raw, p.domainHalf);
                across += std::abs(s.data[size_t(i) * 6 + a] - raw) > p.domainHalf;
            }
        EXPECT_GT(across, 100u) << "the crowd must straddle the faces";
        expectEveryModeMatches(s, p, "near a face at " + std::to_string(p.predatorPos[0]));
    }
}

// Off, of radius 0, or with every boid beyond its radius: the step is the one without a predator.
TEST_F(PredatorTest, WithoutEffectTheStepIsUnchanged) {
    Params none;
    none.domainHalf = 20;
    State s = sim::randomState(1500, 5, none.domainHalf, none.maxSpeed);
    for (uint32_t i = 0; i < s.count(); ++i) // all in [-20, 0)^3
        for (int a = 0; a < 3; ++a)
            s.data[size_t(i) * 6 + a] = -10 + std::fmod(s.data[size_t(i) * 6 + a], 10.0f);
    Params off = predatorParams(0, 0, 0);
    off.predator = false;
    Params zero = predatorParams(0, 0, 0);
    zero.predatorRadius = 0;
    Params far = predatorParams(10, 10, 10); // 10 from the crowd's box along each axis
    far.predatorRadius = 9.5f;
    for (const ModeWidth& m : everyMode) {
        SCOPED_TRACE(std::string(sim::modeName(m.mode)) + " width=" + sim::cellWidthName(m.width));
        const State base = gpuStep(s, none, m.mode, m.width);
        EXPECT_EQ(gpuStep(s, off, m.mode, m.width).data, base.data);
        EXPECT_EQ(gpuStep(s, zero, m.mode, m.width).data, base.data);
        EXPECT_EQ(gpuStep(s, far, m.mode, m.width).data, base.data);
        // And the rule has an effect where boids are within reach.
        Params near = far;
        near.predatorPos[0] = near.predatorPos[1] = near.predatorPos[2] = -5;
        EXPECT_NE(gpuStep(s, near, m.mode, m.width).data, base.data);
    }
}

} // namespace
