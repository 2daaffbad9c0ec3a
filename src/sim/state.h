#pragma once
// A flock's state on the CPU: N rows of px py pz vx vy vz (float32), as in the .npy state files.

#include <cstdint>
#include <vector>

namespace sim {

struct State {
    std::vector<float> data; // row-major N x 6
    uint32_t count() const { return uint32_t(data.size() / 6); }
};

// Positions uniform in [-L, L)^3; velocities with uniformly random directions and speeds up to
// maxSpeed. The generator is our own (splitmix64), so a seed means the same flock everywhere.
State randomState(uint32_t count, uint64_t seed, float domainHalf, float maxSpeed);

// Wraps every position into [-L, L) (loaded files may hold positions outside the domain).
void wrapPositions(State& state, float domainHalf);

// x wrapped into [-L, L), as the GPU passes do it (shaders/sim/common.glsl).
float wrapCoordinate(float x, float domainHalf);

// A small deterministic generator, shared by the state and the tests.
struct Random {
    uint64_t state;
    explicit Random(uint64_t seed) : state(seed) {}
    uint64_t next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    uint32_t next32() { return uint32_t(next() >> 32); }
    float uniform() { return float(next() >> 40) * (1.0f / 16777216.0f); } // [0, 1)
    float uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }
};

} // namespace sim
