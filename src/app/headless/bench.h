#pragma once
// bench: the simulation timed headless over configurations, a table on stdout, rows and summaries
// to files.

#include "app/run.h"
#include "render/renderer.h"
#include "sim/config.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace app {

struct BenchOptions {
    // Every combination of the lists given for --mode, --cell-width, --cell-order and --grid-build, in that
    // order of nesting (naive once: it builds no grid), each with the rows, rules and density given.
    std::vector<sim::Config> configs;
    std::vector<uint32_t> boids;            // empty means the sweep's (benchSweep)
    std::optional<uint64_t> frames, warmup; // unset means the sweep's
    bool full = false;                      // --full: the full sweep on a CPU device too
    bool countCandidates = false;           // count the search's candidates and neighbours after each run
    uint64_t warmupMs = 1000; // untimed steps from the start state before each run's warm-up frames
    uint64_t seed = 1;
    std::string csv, json;
    bool render = false;
    std::vector<render::DrawPath> drawPaths;              // with --render; empty means chosen per count
    render::ColorMode color = render::ColorMode::Heading; // with --render
    int width = 1280, height = 800;
    std::optional<double> naiveLimit; // --naive-max; unset means chosen by the device (below)
};

// Naive runs only up to this many boids unless --naive-max says otherwise; on a CPU device, up to the
// count whose step takes cpuNaiveStepSeconds, measured (measureNaiveStep): a naive step with 1e5 boids
// takes minutes there.
constexpr double defaultNaiveMax = 2e6, cpuNaiveStepSeconds = 0.25;

// The counts and frames bench runs where --boids, --frames and --warmup are not given: the full
// sweep, or on a CPU device (without --full) a short one that takes about a minute on lavapipe.
struct BenchSweep {
    std::vector<uint32_t> boids;
    uint64_t frames, warmup;
};
BenchSweep benchSweep(bool cpuDevice, bool full);

int runBench(const GlobalOptions& global, const BenchOptions& options);

} // namespace app
