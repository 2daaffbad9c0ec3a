#pragma once
// The headless commands: --list-devices, step, sort-bench, bench; and the exit code every command ends with.

#include "app/cli/cli.h"

namespace app {

int runListDevices();
int runStep(const GlobalOptions& global, const StepOptions& options);
int runSortBench(const GlobalOptions& global, const SortBenchOptions& options);
int runBench(const GlobalOptions& global, const BenchOptions& options);

// Exit code at the end of a run: validation errors turn success into exitValidation.
int finish(int code);

} // namespace app
