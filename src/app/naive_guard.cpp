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

namespace {

std::string naiveCost(uint32_t boids, double seconds) {
    std::string count = std::to_string(boids);
    for (int i = int(count.size()) - 3; i > 0; i -= 3) count.insert(size_t(i), 1, ',');
    char time[32];
    if (seconds < 10)
        std::snprintf(time, sizeof time, "%.2g", seconds);
    else
        std::snprintf(time, sizeof time, "%.0f", seconds);
    return "naive with " + count + " boids: about " + time + " s a step on this device";
}

} // namespace

std::string naiveQuestion(uint32_t boids, double seconds) {
    return naiveCost(boids, seconds) + ". Switch anyway?";
}

std::string naiveStartNote(uint32_t boids, double seconds, bool opensPaused) {
    return naiveCost(boids, seconds) +
           (opensPaused ? "; opening paused (Space runs it, N steps once, M changes the mode)" : "");
}

} // namespace app
