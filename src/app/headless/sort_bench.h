#pragma once
// sort-bench: the GPU radix sort checked against the CPU and timed, over sizes, key widths and
// algorithms.

#include "app/run.h"
#include "sort/radix_sort.h"

#include <cstdint>
#include <string>
#include <vector>

namespace app {

struct SortBenchOptions {
    std::vector<uint32_t> sizes; // empty means the sweep's (sortBenchSizes)
    bool full = false;           // --full: the full sweep on a CPU device too
    std::vector<uint32_t> bits = {21, 32};
    std::vector<sort::SortAlgorithm> algorithms = {sort::SortAlgorithm::Auto};
    uint32_t runs = 20;
    uint64_t seed = 1;
    std::string csv;
    uint64_t warmupMs = 1000; // untimed sorts, back to back, before each configuration's timed runs
};

// The pair counts sort-bench sorts where --n is not given: the full sweep, up to `maxPairs` (the
// device's limit), or on a CPU device (without --full) a short one that takes about a minute on lavapipe.
std::vector<uint32_t> sortBenchSizes(bool cpuDevice, bool full, uint64_t maxPairs);

int runSortBench(const GlobalOptions& global, const SortBenchOptions& options);

} // namespace app
