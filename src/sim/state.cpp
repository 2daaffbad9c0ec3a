#include "sim/state.h"

#include <algorithm>
#include <cmath>

namespace sim {

float wrapCoordinate(float x, float L) {
    const float twoL = 2.0f * L;
    x -= twoL * std::floor((x + L) / twoL);
    if (x >= L) x -= twoL;
    if (x < -L) x += twoL;
    return x;
}

State randomState(uint32_t count, uint64_t seed, float L, float maxSpeed) {
    State s;
    s.data.resize(size_t(count) * 6);
    Random rng(seed);
    for (uint32_t i = 0; i < count; ++i) {
        float* b = &s.data[size_t(i) * 6];
        for (int a = 0; a < 3; ++a) b[a] = wrapCoordinate(rng.uniform(-L, L), L);
        // A direction uniform on the sphere, a speed uniform in [0, maxSpeed).
        const float z = rng.uniform(-1.0f, 1.0f), phi = rng.uniform(0.0f, 6.2831853f);
        const float rxy = std::sqrt(std::max(0.0f, 1.0f - z * z)), speed = maxSpeed * rng.uniform();
        b[3] = speed * rxy * std::cos(phi);
        b[4] = speed * rxy * std::sin(phi);
        b[5] = speed * z;
    }
    return s;
}

void wrapPositions(State& s, float L) {
    for (uint32_t i = 0; i < s.count(); ++i)
        for (int a = 0; a < 3; ++a) s.data[size_t(i) * 6 + a] = wrapCoordinate(s.data[size_t(i) * 6 + a], L);
}

} // namespace sim
