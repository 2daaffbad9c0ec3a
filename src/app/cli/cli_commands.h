#pragma once
// Each command's flags, which only the command line knows. A command's add...Flags function declares
// them on its CLI::App before parsing; after parsing, its finish... function checks them and turns
// them into the command's options. A value that cannot be read until then is kept as text in the
// command's ...Flags struct, which must therefore outlive the parse.

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

// The demo's flags. They are declared on the root command, because vkboids without a command opens
// the demo.
struct DemoFlags {
    CLI::App* app = nullptr;
    std::string boids = "20000", frames, warmup = "0", stepsBefore = "0", draw = "auto", color = "heading",
                presentMode = "fifo", window;
    bool randomStart = false;
    ConfigFlags config;
    CLI::Option *boidsOption = nullptr, *warmupOption = nullptr;
    std::vector<CLI::Option*> only; // the demo's own options, without the global ones
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
    // An empty count leaves the sweep's default, which depends on the device (a short sweep on a CPU).
    std::string boids, frames, warmup, naiveMax, warmupMs = "1000", draw = "auto", color = "heading";
    ConfigFlags config;
    sim::Config base; // the settings every configuration of the sweep shares
    CLI::Option* colorOption = nullptr;
};
void addBenchFlags(CLI::App* bench, BenchOptions& options, BenchFlags& flags);
void finishBench(const BenchFlags& flags, BenchOptions& options);

} // namespace app
