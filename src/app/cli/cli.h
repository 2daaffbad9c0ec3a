#pragma once
// The command line: the root (the demo's flags and the global ones) and its commands, parsed by
// CLI11 into each command's options. Each command declares and checks its own flags (cli_*.cpp).

#include "app/demo/demo_options.h"
#include "app/exit_codes.h"
#include "app/headless/bench.h"
#include "app/headless/sort_bench.h"
#include "app/headless/step.h"
#include "app/run.h"
#include "harness/harness.h"

#include <exception>
#include <string>

namespace app {

enum class Command { Demo, Step, SortBench, Bench, ListDevices, Exit };

struct CommandLine {
    Command command = Command::Demo;
    int exitCode = 0; // for Command::Exit (help, version)
    GlobalOptions global;
    DemoOptions demo;
    harness::Options harness; // the demo's hidden options, for tests
    StepOptions step;
    SortBenchOptions sortBench;
    BenchOptions bench;
};

// Throws io::InputError for bad input; --help and --version give Command::Exit after printing.
CommandLine parseCommandLine(int argc, const char* const* argv);

// An error's one line for the user: an error from below the command line that names a value (a flock
// too large, a density's L, a refused device option) with that value's flag; any other as it reads.
std::string errorText(const std::exception& error);

} // namespace app
