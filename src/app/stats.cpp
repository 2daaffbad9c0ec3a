#include "app/stats.h"

#include "shared.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <utility>

namespace app {

double percentile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const double rank = std::clamp(q, 0.0, 100.0) / 100.0 * double(v.size() - 1);
    const size_t lo = size_t(std::floor(rank)), hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - double(lo));
}

Summary summarize(const std::vector<double>& v) {
    Summary s;
    s.count = v.size();
    if (v.empty()) return s;
    s.mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    s.median = percentile(v, 50);
    s.p95 = percentile(v, 95);
    s.p99 = percentile(v, 99);
    s.min = *std::min_element(v.begin(), v.end());
    s.max = *std::max_element(v.begin(), v.end());
    double sq = 0;
    for (double x : v) sq += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(sq / double(v.size()));
    return s;
}

double averageFps(const std::vector<double>& frameMs) {
    const double total = std::accumulate(frameMs.begin(), frameMs.end(), 0.0);
    return total > 0 ? 1000.0 * double(frameMs.size()) / total : 0;
}

double onePercentLowFps(const std::vector<double>& frameMs) {
    if (frameMs.empty()) return 0;
    std::vector<double> sorted = frameMs;
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    const size_t worst = std::max<size_t>(1, sorted.size() / 100);
    const double mean = std::accumulate(sorted.begin(), sorted.begin() + worst, 0.0) / double(worst);
    return mean > 0 ? 1000.0 / mean : 0;
}

PhaseSummary summarizePhases(const std::vector<uint64_t>& rows) {
    PhaseSummary s;
    s.tiles = rows.size() / SORT_TIMING_STAMPS;
    if (s.tiles == 0) return s;
    const auto at = [&](size_t tile, uint32_t slot) { return rows[tile * SORT_TIMING_STAMPS + slot]; };
    const auto ticks = [](uint64_t from, uint64_t to) { return double(int64_t(to - from)); };
    std::vector<std::vector<double>> phases(SORT_STAMP_END);
    std::vector<double> lifetimes, toPredecessor, rounds, walkSteps, walkTiles, walkPolls;
    std::vector<std::pair<uint64_t, int>> events; // (time, +1 start or -1 end)
    uint64_t first = UINT64_MAX, last = 0;
    for (size_t t = 0; t < s.tiles; ++t) {
        for (uint32_t i = 0; i < SORT_STAMP_END; ++i) phases[i].push_back(ticks(at(t, i), at(t, i + 1)));
        lifetimes.push_back(ticks(at(t, SORT_STAMP_START), at(t, SORT_STAMP_END)));
        // The rounds word (shared.h): rounds and polls in the low 32 bits, steps and tiles in the high.
        const uint64_t word = at(t, SORT_STAMP_ROUNDS);
        const uint32_t tileRounds = uint32_t(word & 0xffff);
        if (t > 0) {
            toPredecessor.push_back(ticks(at(t, SORT_STAMP_START), at(t - 1, SORT_STAMP_LOOKBACK)));
            walkPolls.push_back(double((word >> 16) & 0xffff));
            walkSteps.push_back(double((word >> 32) & 0xffff));
            walkTiles.push_back(double(word >> 48));
        }
        rounds.push_back(double(tileRounds));
        s.mostRounds = std::max(s.mostRounds, tileRounds);
        events.push_back({at(t, SORT_STAMP_START), 1});
        events.push_back({at(t, SORT_STAMP_END), -1});
        first = std::min(first, at(t, SORT_STAMP_START));
        last = std::max(last, at(t, SORT_STAMP_END));
    }
    for (const std::vector<double>& p : phases) s.phases.push_back(percentile(p, 50));
    s.lifetime = percentile(lifetimes, 50);
    s.span = ticks(first, last);
    s.startToPredecessor = percentile(toPredecessor, 50);
    s.rounds = percentile(rounds, 50);
    s.walkSteps = percentile(walkSteps, 50);
    s.walkTiles = percentile(walkTiles, 50);
    s.walkPolls = percentile(walkPolls, 50);
    s.walkPolls90 = percentile(walkPolls, 90);
    // Ends sort before starts at the same time: a tile that starts as another ends does not overlap it.
    std::sort(events.begin(), events.end());
    int inFlight = 0;
    for (const auto& e : events) {
        inFlight += e.second;
        s.mostInFlight = std::max(s.mostInFlight, uint32_t(std::max(inFlight, 0)));
    }
    return s;
}

} // namespace app
