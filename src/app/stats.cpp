#include "app/stats.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <numeric>

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

Summary summarizeSettled(const std::vector<double>& v, size_t warmup) {
    if (v.size() <= warmup) return summarize(v);
    return summarize(std::vector<double>(v.begin() + ptrdiff_t(warmup), v.end()));
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

} // namespace app
