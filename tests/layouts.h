#pragma once
// Layouts of boids shared by the GPU tests: uniform, clustered, in one box, on the domain's faces,
// coincident pairs.

#include "sim/params.h"
#include "sim/state.h"

#include <cmath>
#include <vector>

namespace test {

inline sim::State uniformState(uint32_t n, uint64_t seed, const sim::Params& p) {
    return sim::randomState(n, seed, p.domainHalf, p.maxSpeed);
}

// Boids in a few tight clusters (many per cell, most cells empty).
inline sim::State clusteredState(uint32_t n, uint64_t seed, const sim::Params& p, int clusters,
                                 float spread) {
    sim::State s = uniformState(n, seed, p);
    sim::Random rng(seed ^ 0xc1u);
    std::vector<float> centres;
    for (int c = 0; c < 3 * clusters; ++c) centres.push_back(rng.uniform(-p.domainHalf, p.domainHalf));
    for (uint32_t i = 0; i < n; ++i) {
        const int c = int(rng.next32() % uint32_t(clusters));
        for (int a = 0; a < 3; ++a)
            s.data[size_t(i) * 6 + a] =
                sim::wrapCoordinate(centres[3 * c + a] + rng.uniform(-spread, spread), p.domainHalf);
    }
    return s;
}

// Every boid inside one box [lo, lo + width)^3.
inline sim::State boxState(uint32_t n, uint64_t seed, const sim::Params& p, float lo, float width) {
    sim::State s = uniformState(n, seed, p);
    sim::Random rng(seed ^ 0xb0u);
    for (uint32_t i = 0; i < n; ++i)
        for (int a = 0; a < 3; ++a) s.data[size_t(i) * 6 + a] = lo + width * rng.uniform();
    return s;
}

// Coordinates on the faces (exactly -L), just inside them, or anywhere: faces, edges and corners,
// and neighbours across them.
inline sim::State edgeState(uint32_t n, uint64_t seed, const sim::Params& p) {
    sim::State s = uniformState(n, seed, p);
    sim::Random rng(seed ^ 0xedu);
    const float L = p.domainHalf;
    for (uint32_t i = 0; i < n; ++i)
        for (int a = 0; a < 3; ++a) {
            float& x = s.data[size_t(i) * 6 + a];
            switch (rng.next32() % 4) {
            case 0: x = -L; break;
            case 1: x = -L + rng.uniform(0.0f, 1.5f); break;
            case 2: x = std::nextafter(L, 0.0f) - rng.uniform(0.0f, 1.5f); break;
            default: break;
            }
        }
    return s;
}

// Pairs of boids at exactly the same position (different velocities).
inline sim::State coincidentState(uint32_t n, uint64_t seed, const sim::Params& p) {
    sim::State s = uniformState(n, seed, p);
    for (uint32_t i = 1; i < n; i += 2)
        for (int a = 0; a < 3; ++a) s.data[size_t(i) * 6 + a] = s.data[size_t(i - 1) * 6 + a];
    return s;
}

} // namespace test
