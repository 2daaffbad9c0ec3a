#pragma once
// Each command's flags, inside the command line only: added to its CLI::App before parsing
// (add...Flags) and, once parsed, checked and turned into the command's options (finish...). What a
// flag keeps as text until then lives in the command's ...Flags, which must outlive the parse.

#include "app/cli/cli_flags.h"
#include "app/demo/demo_options.h"
#include "app/headless/bench.h"
#include "app/headless/sort_bench.h"
#include "app/headless/step.h"
#include "harness/harness.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace app {

// The demo's flags, on the root: no command runs the demo.
struct DemoFlags {
    CLI::App* app = nullptr;
    std::string boids = "20000", frames, warmup = "0", stepsBefore = "0", draw = "auto", color = "heading",
                presentMode = "fifo", window;
    bool randomStart = false;
    ConfigFlags config;
    CLI::Option *boidsOption = nullptr, *warmupOption = nullptr;
    std::vector<CLI::Option*> only; // the demo's own, not the global flags beside them
};
void addDemoFlags(CLI::App* app, DemoOptions& demo, harness::Options& harness, DemoFlags& flags);
void finishDemo(const DemoFlags& flags, DemoOptions& demo);

struct StepFlags {
    CLI::App* app = nullptr;
    std::string boids, steps = "1", predator;
    ConfigFlags config;
    CLI::Option *predatorOption = nullptr, *predatorRadius = nullptr, *predatorScale = nullptr;
};
void addStepFlags(CLI::App* step, StepOptions& options, StepFlags& flags);
void finishStep(const StepFlags& flags, StepOptions& options);

struct SortBenchFlags {
    CLI::App* app = nullptr;
    std::string sizes, bits = "21,32", runs = "20", warmupMs = "1000", algorithms = "auto";
};
void addSortBenchFlags(CLI::App* sortBench, SortBenchOptions& options, SortBenchFlags& flags);
void finishSortBench(const SortBenchFlags& flags, SortBenchOptions& options);

struct BenchFlags {
    CLI::App* app = nullptr;
    std::string boids, frames, warmup, naiveMax, warmupMs = "1000", draw = "auto",
                                                 color = "heading"; // "": the sweep's
    ConfigFlags config;
    sim::Config base; // what the configuration flags set alike in every configuration
    CLI::Option* colorOption = nullptr;
};
void addBenchFlags(CLI::App* bench, BenchOptions& options, BenchFlags& flags);
void finishBench(const BenchFlags& flags, BenchOptions& options);

} // namespace app
