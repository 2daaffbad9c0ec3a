#pragma once
// Summary statistics of frame timings.

#include <cstddef>
#include <cstdint>
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

// Frames per second from frame times in milliseconds: the average (frames over total time) and
// the "1% low", 1000 over the mean of the slowest 1% of frame times (at least one frame).
double averageFps(const std::vector<double>& frameMs);
double onePercentLowFps(const std::vector<double>& frameMs);

// One sort pass's tiles, from their rows of phase stamps (sort::readPhaseStamps); in clock ticks.
struct PhaseSummary {
    size_t tiles = 0;
    std::vector<double> phases;    // median over tiles of stamp[i + 1] - stamp[i], i < SORT_STAMP_END
    double lifetime = 0;           // median of end - start
    double span = 0;               // the last end - the first start
    uint32_t mostInFlight = 0;     // tiles started and not yet ended at one time
    double startToPredecessor = 0; // median of the predecessor's look-back stamp - the tile's start
    double rounds = 0;             // median look-back rounds
    uint32_t mostRounds = 0;
    double walkSteps = 0;   // median over tiles after the first: digit 0's look-back steps
    double walkTiles = 0;   // and the predecessors whose words it added
    double walkPolls = 0;   // and its polls of unpublished words: median
    double walkPolls90 = 0; // and 90th percentile
};
PhaseSummary summarizePhases(const std::vector<uint64_t>& rows);

} // namespace app
