#pragma once
// Summary statistics of frame timings.

#include <cstddef>
#include <vector>

namespace app {

struct Summary {
    size_t count = 0;
    double mean = 0, median = 0, p95 = 0, p99 = 0, min = 0, max = 0, stddev = 0;
};

// Percentile q in [0, 100] by linear interpolation between closest ranks (NumPy's default).
double percentile(std::vector<double> values, double q);

// Mean, median, p95, p99, min, max and the population standard deviation; all zero when empty.
Summary summarize(const std::vector<double>& values);

// The summary of `values` without their first `warmup` values (a first frame's pipeline creation and
// cold caches: one such spike lifts the mean of a few hundred frames above their p95), unless that
// would leave none.
Summary summarizeSettled(const std::vector<double>& values, size_t warmup);

// Frames per second from frame times in milliseconds: the average (frames over total time) and
// the "1% low", 1000 over the mean of the slowest 1% of frame times (at least one frame).
double averageFps(const std::vector<double>& frameMs);
double onePercentLowFps(const std::vector<double>& frameMs);

} // namespace app
