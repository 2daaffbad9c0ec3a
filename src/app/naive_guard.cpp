#include "app/naive_guard.h"

#include "sim/config.h"
#include "sim/flock.h"
#include "sim/state.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace app {

double estimateNaiveStepSeconds(uint32_t boids, NaiveTiming measured) {
    if (measured.boids == 0) return 0;
    const double ratio = double(boids) / measured.boids;
    return measured.seconds * ratio * ratio;
}

NaiveTiming measureNaiveStep(const gpu::Context& ctx, uint32_t boids, const sim::Params& params) {
    sim::Config config;
    config.mode = sim::Mode::Naive;
    config.params = params;
    config.density = sim::densityOf(std::max(boids, 1u), params.domainHalf);
    NaiveTiming timing;
    for (uint32_t n = std::min(boids, 1024u); n > 0; n = std::min(2 * n, boids)) {
        config.params.domainHalf = sim::domainHalfFor(config, n);
        const sim::Grid grid = sim::gridFor(config, n);
        sim::Flock flock = sim::createFlock(ctx, n);
        sim::uploadState(ctx, flock, sim::randomState(n, 1, config.params.domainHalf, params.maxSpeed));
        sim::prepareGrid(ctx, flock, grid, config.mode, config.gridBuild);
        double seconds = 0;
        for (int run = 0; run < 2; ++run) { // the first run warms the pipeline up, the second is timed
            const auto start = std::chrono::steady_clock::now();
            VkCommandBuffer cmd = gpu::beginOneShot(ctx);
            sim::recordStep(cmd, flock, config.params, config.mode, grid, config.gridBuild, nullptr);
            gpu::endOneShot(ctx, cmd);
            seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
        sim::destroyFlock(ctx, flock);
        timing = {n, seconds};
        if (seconds >= 0.05 || n == boids) break;
    }
    return timing;
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
