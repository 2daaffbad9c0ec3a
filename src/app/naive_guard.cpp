#include "app/naive_guard.h"

#include <cstdio>

namespace app {

double estimateNaiveStepSeconds(uint32_t boids, std::optional<std::pair<uint32_t, double>> measured,
                                bool cpuDevice) {
    const double n = boids;
    if (measured && measured->first > 0) {
        const double ratio = n / measured->first;
        return measured->second * ratio * ratio;
    }
    // Seconds a pair: lavapipe on a few cores, and a mid-range GPU.
    const double perPair = cpuDevice ? 1e-8 : 1e-11;
    return n * n * perPair;
}

std::string naiveQuestion(uint32_t boids, double seconds) {
    std::string count = std::to_string(boids);
    for (int i = int(count.size()) - 3; i > 0; i -= 3) count.insert(size_t(i), 1, ',');
    char time[32];
    if (seconds < 10)
        std::snprintf(time, sizeof time, "%.2g", seconds);
    else
        std::snprintf(time, sizeof time, "%.0f", seconds);
    return "naive with " + count + " boids: about " + time + " s a step on this device. Switch anyway?";
}

} // namespace app
