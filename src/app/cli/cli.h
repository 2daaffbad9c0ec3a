#pragma once
// The command line: what each command takes, parsed by CLI11 into plain structs.

#include "app/exit_codes.h"
#include "render/renderer.h"
#include "sim/config.h"
#include "sort/radix_sort.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace app {

struct GlobalOptions {
    bool validation = false;
    int device = -1;
    bool pipelineStats = false; // print the driver's statistics of every compute pipeline
};

// The smallest window the demo opens (--window) or resizes to: the panels and the domain beside
// them fit, nothing clipped.
constexpr int minWindowWidth = 800, minWindowHeight = 600;

struct DemoOptions {
    uint32_t boids = 20000;
    uint64_t seed = 1;
    sim::Config sim;
    std::string presentMode = "fifo";
    uint64_t frames = 0; // 0: run until closed
    uint64_t warmup = 0;
    std::string capture;    // CSV path; a JSON summary goes beside it
    std::string screenshot; // PNG of the last frame
    std::string loadState;
    std::string preset;       // --preset: the panel's preset (its id) the run starts with; "" none
    bool keepDensity = false; // the preset's flock was taken: later counts keep its density, as in the panel
    bool paused = false;      // the first frames show the flock still (space resumes)
    uint64_t stepsBefore = 0; // steps run before the first frame: a formed flock
    bool formedStart = false; // no flock asked for: the formed flock of assets/ (app/formed_flock.h)
    bool exerciseWindow = false;    // testing: resize, minimize and restore during the run
    std::string inputScript;        // testing: input events at given frames (input_script.h)
    bool reportMemory = false;      // testing: the device memory vkboids holds, a line a second
    bool reportLayout = false;      // testing: the panels' and the domain's rectangles, a line a second
    int width = 1280, height = 800; // --window
    render::DrawPath drawPath = render::DrawPath::Auto;
    render::ColorMode color = render::ColorMode::Heading;
};

struct StepOptions {
    uint32_t boids = 0; // 0: not given
    uint64_t seed = 1;
    std::string loadState, saveState;
    uint64_t steps = 1;
    sim::Config sim;
    bool quiet = false;
};

struct SortBenchOptions {
    std::vector<uint32_t> sizes = {1000000, 4000000, 16000000, 64000000};
    std::vector<uint32_t> bits = {21, 32};
    std::vector<sort::SortAlgorithm> algorithms = {sort::SortAlgorithm::Auto};
    uint32_t runs = 20;
    uint64_t seed = 1;
    std::string csv;
    uint64_t warmupMs = 1000; // untimed sorts, back to back, before each configuration's timed runs
};

struct BenchOptions {
    // Every combination of the lists given for --mode, --cell-width, --cell-order and --grid-build, in that
    // order of nesting (naive once: it builds no grid), each with the rows, rules and density given.
    std::vector<sim::Config> configs;
    std::vector<uint32_t> boids = {100000, 1000000};
    bool countCandidates = false; // after each run, the search's candidates and neighbours a boid
    uint64_t frames = 300, warmup = 60;
    uint64_t warmupMs = 1000; // untimed steps from the start state before each run's warm-up frames
    uint64_t seed = 1;
    std::string csv, json;
    bool render = false;
    std::vector<render::DrawPath> drawPaths;              // with --render; empty: auto, per count
    render::ColorMode color = render::ColorMode::Heading; // with --render
    int width = 1280, height = 800;
    std::optional<double> naiveLimit; // --naive-max; unset: by the device (below)
};

// Naive runs only up to this many boids unless --naive-max says otherwise: fewer on a CPU device,
// where a naive step with 1e5 boids takes a minute and more.
constexpr double defaultNaiveMax = 2e6, cpuNaiveMax = 5e4;

enum class Command { Demo, Step, SortBench, Bench, ListDevices, Exit };

struct CommandLine {
    Command command = Command::Demo;
    int exitCode = 0; // for Command::Exit (help, version)
    GlobalOptions global;
    DemoOptions demo;
    StepOptions step;
    SortBenchOptions sortBench;
    BenchOptions bench;
};

// Throws io::InputError for bad input; --help and --version give Command::Exit after printing.
CommandLine parseCommandLine(int argc, const char* const* argv);

// "100000", "1e6", "2.5e5": a whole number in [1, max]. Throws InputError naming `flag`.
uint64_t parseCount(const std::string& text, const std::string& flag, uint64_t max);
// A comma-separated list of counts.
std::vector<uint32_t> parseCountList(const std::string& text, const std::string& flag, uint64_t max);

} // namespace app
