// The flock's state without a GPU: positions wrapped into the periodic domain, and the seeded
// random start.

#include "sim/state.h"

#include <gtest/gtest.h>

#include <cmath>

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
