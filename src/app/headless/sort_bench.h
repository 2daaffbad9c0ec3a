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
    std::vector<uint32_t> sizes = {1000000, 4000000, 16000000, 64000000};
    std::vector<uint32_t> bits = {21, 32};
    std::vector<sort::SortAlgorithm> algorithms = {sort::SortAlgorithm::Auto};
    uint32_t runs = 20;
    uint64_t seed = 1;
    std::string csv;
    uint64_t warmupMs = 1000; // untimed sorts, back to back, before each configuration's timed runs
};

int runSortBench(const GlobalOptions& global, const SortBenchOptions& options);

} // namespace app
