#pragma once
// The headless commands: --list-devices, step, sort-bench, bench.

#include "app/cli/cli.h"
#include "app/run.h"

namespace app {

int runListDevices();
int runStep(const GlobalOptions& global, const StepOptions& options);
int runSortBench(const GlobalOptions& global, const SortBenchOptions& options);
int runBench(const GlobalOptions& global, const BenchOptions& options);

} // namespace app
