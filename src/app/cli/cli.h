#pragma once
// The command line. Run without a command, vkboids opens the demo, so the root command holds the
// demo's flags beside the global ones; step, bench and sort-bench are subcommands. CLI11 parses the
// arguments, and each command declares and checks its own flags in its own file (cli_*.cpp).

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
    int exitCode = 0; // the exit code after --help or --version has printed
    GlobalOptions global;
    DemoOptions demo;
    harness::Options harness; // options only tests use, which --help does not list
    StepOptions step;
    SortBenchOptions sortBench;
    BenchOptions bench;
};

// Throws io::InputError when the input is bad. After --help or --version has printed its text, the
// result is Command::Exit.
CommandLine parseCommandLine(int argc, const char* const* argv);

// The one line that tells the user about an error. The layers below the command line report a bad
// value as data (a flock too large, the L that a density gives, a device option refused), so this is
// where the value gets the name of the flag that set it. Any other error is shown as it reads.
std::string errorText(const std::exception& error);

} // namespace app
