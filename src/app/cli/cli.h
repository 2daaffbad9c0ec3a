#pragma once
// The command line: what each command takes, parsed by CLI11 into plain structs.

#include "render/renderer.h"
#include "sim/grid.h"
#include "sim/params.h"
#include "sort/radix_sort.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace app {

// Exit codes (README "Exit codes").
constexpr int exitOk = 0;
constexpr int exitFailure = 1;    // a Vulkan or system failure, or an output not written
constexpr int exitBadInput = 2;   // flags, files, sizes
constexpr int exitValidation = 3; // validation errors were reported
constexpr int exitMismatch = 4;   // a GPU result disagreed with its CPU reference

struct GlobalOptions {
    bool validation = false;
    int device = -1;
    bool pipelineStats = false; // print the driver's statistics of every compute pipeline
};

// The smallest window the demo opens (--window) or resizes to.
constexpr int minWindowWidth = 320, minWindowHeight = 240;

struct DemoOptions {
    uint32_t boids = 20000;
    uint64_t seed = 1;
    sim::Mode mode = sim::Mode::Coherent;
    int cells = 27;
    sim::Rows rows = sim::Rows::Auto;
    sim::GridBuild gridBuild = sim::GridBuild::Radix;
    sim::CellOrder cellOrder = sim::CellOrder::Linear;
    std::string presentMode = "fifo";
    uint64_t frames = 0; // 0: run until closed
    uint64_t warmup = 0;
    std::string capture;    // CSV path; a JSON summary goes beside it
    std::string screenshot; // PNG of the last frame
    std::string loadState;
    bool exerciseWindow = false;    // testing: resize, minimize and restore during the run
    std::string inputScript;        // testing: input events at given frames (input_script.h)
    bool reportMemory = false;      // testing: the device memory vkboids holds, a line a second
    int width = 1280, height = 800; // --window
    render::DrawPath drawPath = render::DrawPath::Auto;
    render::ColorMode color = render::ColorMode::Heading;
    double density = 0; // boids per unit^3; 0: L from --domain-half
    sim::Params params;
};

struct StepOptions {
    uint32_t boids = 0; // 0: not given
    uint64_t seed = 1;
    std::string loadState, saveState;
    uint64_t steps = 1;
    sim::Mode mode = sim::Mode::Coherent;
    int cells = 27;
    sim::Rows rows = sim::Rows::Auto;
    sim::GridBuild gridBuild = sim::GridBuild::Radix;
    sim::CellOrder cellOrder = sim::CellOrder::Linear;
    bool quiet = false;
    double density = 0; // boids per unit^3; 0: L from --domain-half
    sim::Params params;
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
    std::vector<sim::Mode> modes = {sim::Mode::Naive, sim::Mode::Scattered, sim::Mode::Coherent};
    std::vector<uint32_t> boids = {100000, 1000000};
    std::vector<int> cells = {8, 27};
    sim::Rows rows = sim::Rows::Auto;
    bool countCandidates = false; // after each run, the search's candidates and neighbours a boid
    std::vector<sim::GridBuild> gridBuilds = {sim::GridBuild::Radix}; // each grid run once with each
    std::vector<sim::CellOrder> cellOrders = {sim::CellOrder::Linear};
    uint64_t frames = 300, warmup = 60;
    uint64_t warmupMs = 1000; // untimed steps from the start state before each run's warm-up frames
    uint64_t seed = 1;
    std::string csv, json;
    bool render = false;
    std::vector<render::DrawPath> drawPaths;              // with --render; empty: auto, per count
    render::ColorMode color = render::ColorMode::Heading; // with --render
    int width = 1280, height = 800;
    std::optional<double> naiveLimit; // --naive-max; unset: by the device (below)
    double density = 0;               // boids per unit^3, L set for each count; 0: L from --domain-half
    sim::Params params;
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
