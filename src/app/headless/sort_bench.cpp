#include "app/headless/sort_bench.h"

#include "app/exit_codes.h"
#include "app/stats.h"
#include "io/output.h"
#include "sim/state.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

namespace app {
namespace {

// The unique stable order by masked key: values are the input indices, so the output must be a
// permutation carrying each key with its index, ordered by (key & mask, index). Linear time.
bool isStableSortOf(const std::vector<uint32_t>& keysIn, const std::vector<uint32_t>& keysOut,
                    const std::vector<uint32_t>& valuesOut, uint32_t mask, std::string& why) {
    const size_t n = keysIn.size();
    std::vector<bool> seen(n, false);
    for (size_t i = 0; i < n; ++i) {
        const uint32_t v = valuesOut[i];
        if (v >= n || seen[v])
            return why = "value " + std::to_string(v) + " at " + std::to_string(i) +
                         " is not a permutation entry",
                   false;
        seen[v] = true;
        if (keysOut[i] != keysIn[v])
            return why = "key at " + std::to_string(i) + " does not travel with its value", false;
        if (i > 0) {
            const uint32_t a = keysOut[i - 1] & mask, b = keysOut[i] & mask;
            if (a > b || (a == b && valuesOut[i - 1] > v))
                return why = "out of order at " + std::to_string(i), false;
        }
    }
    return true;
}

// The buffers and the sorter for n pairs (createSortSize).
struct SortSize {
    gpu::Buffer keysIn, valuesIn, keysOut, valuesOut;
    sort::Sorter sorter;
};

// One configuration of sort-bench: n pairs of `bits`-bit keys, sorted by `algorithm`, which the
// rows call `name`.
struct SortCase {
    const SortSize& size;
    const std::vector<uint32_t>& keys; // in keysIn; valuesIn holds the indices
    uint32_t n, bits;
    sort::SortAlgorithm algorithm;
    std::string name;
};

// The timed runs in microseconds: the whole sort's, and each dispatch's by scope name.
struct SortTimes {
    std::vector<double> total;
    std::map<std::string, std::vector<double>> dispatches;
};

// Checks the sort's output after `run` against the CPU. Returns false, with a line on stderr, where
// it is wrong.
bool checkSortOutput(const gpu::Context& ctx, const SortCase& c, uint32_t run) {
    std::vector<uint32_t> outKeys(c.n), outValues(c.n);
    gpu::downloadBuffer(ctx, c.size.keysOut, outKeys.data(), 4ull * c.n);
    gpu::downloadBuffer(ctx, c.size.valuesOut, outValues.data(), 4ull * c.n);
    std::string why;
    if (isStableSortOf(c.keys, outKeys, outValues, sort::sortKeyMask(c.bits), why)) return true;
    endProgress();
    std::fprintf(stderr, "vkboids: error: sort of %u pairs, %u bits, %s, run %u: %s\n", c.n, c.bits,
                 c.name.c_str(), run, why.c_str());
    return false;
}

// Runs the warm-up and the timed runs, and checks the first and the last against the CPU.
SortTimes timeSorts(const gpu::Context& ctx, Headless& headless, const SortBenchOptions& o, const SortCase& c,
                    bool& allMatch) {
    const SortSize& b = c.size;
    const auto record = [&](VkCommandBuffer cmd, gpu::Profiler* p) {
        sort::recordSort(cmd, b.sorter, b.keysIn, b.valuesIn, b.keysOut, b.valuesOut, c.n, c.bits,
                         c.algorithm, p, p != nullptr);
    };
    SortTimes times;
    for (uint32_t run = 0; run <= o.runs; ++run) {
        const bool check = run == 0 || run == o.runs;
        if (check) {
            gpu::fillBuffer(ctx, b.keysOut, 0xdeadbeef);
            gpu::fillBuffer(ctx, b.valuesOut, 0xdeadbeef);
        }
        progress("sorting " + std::to_string(c.n) + " pairs, " + std::to_string(c.bits) + " bits, " + c.name +
                 ": run " + std::to_string(run) + "/" + std::to_string(o.runs));
        std::vector<gpu::ScopeTime> scopes = runHeadlessFrame(ctx, headless, record);
        if (run > 0) // run 0 is the warm-up
            for (const gpu::ScopeTime& t : scopes)
                if (t.valid)
                    (t.name == "sort" ? times.total : times.dispatches[t.name]).push_back(t.ms * 1000);
        if (check && !checkSortOutput(ctx, c, run)) allMatch = false;
        // The GPU sat idle while the CPU checked, and its clock dropped, so sorts run back to back
        // until it has risen again (a GPU can take seconds from idle to its top rate).
        if (run == 0)
            keepBusy(o.warmupMs, [&] {
                runHeadlessFrame(ctx, headless,
                                 [&](VkCommandBuffer cmd, gpu::Profiler*) { record(cmd, nullptr); });
            });
    }
    endProgress();
    return times;
}

// Each dispatch's median, for the table's line and the CSV's columns: onesweep's histogram and
// passes, and reduce-then-scan's steps summed over the passes. A column is empty where the algorithm
// has no such dispatch.
void addDispatchColumns(const SortTimes& times, uint32_t passes, std::string& line, std::string& csvLine) {
    const auto addColumn = [&](const char* name, const std::optional<double>& ms) {
        if (ms) {
            char text[64];
            std::snprintf(text, sizeof text, " %s %.1f", name, *ms);
            line += text;
        }
        csvLine += "," + (ms ? std::to_string(*ms) : std::string());
    };
    const auto median = [&](const std::string& scope) {
        auto it = times.dispatches.find(scope);
        return it != times.dispatches.end() && !it->second.empty()
                   ? std::optional(summarize(it->second).median)
                   : std::nullopt;
    };
    for (const char* scope : {"sort/histogram", "sort/pass0", "sort/pass1", "sort/pass2", "sort/pass3"})
        addColumn(scope + 5, median(scope));
    for (const char* step : {"upsweep", "spine", "downsweep"}) {
        std::optional<double> sum;
        for (uint32_t p = 0; p < passes; ++p)
            if (const std::optional<double> m = median("sort/" + std::string(step) + std::to_string(p)))
                sum = sum.value_or(0) + *m;
        addColumn(step, sum);
    }
}

// Checks and times one configuration; prints the table's row and returns the CSV's.
std::string sortBenchRow(const gpu::Context& ctx, Headless& headless, const SortBenchOptions& o,
                         const SortCase& c, bool& allMatch) {
    const SortTimes times = timeSorts(ctx, headless, o, c, allMatch);
    const uint32_t n = c.n, passes = sort::sortPassCount(c.bits);
    const Summary s = summarize(times.total);
    const double seconds = s.median * 1e-6;
    // The same byte count is used for both algorithms, so that the column ranks them: each pass reads
    // and writes the pairs, plus one read for the histogram.
    const double gbytes = (16.0 * passes + 4.0) * n * 1e-9;
    char row[512];
    // Rates are printed to three significant digits in fixed notation, because a CPU driver's rates are
    // thousandths of a GPU's.
    const auto digits = [](double v) {
        return v > 0 ? std::clamp(2 - int(std::floor(std::log10(v))), 0, 6) : 2;
    };
    const double pairsRate = seconds > 0 ? n / seconds * 1e-9 : 0,
                 bytesRate = seconds > 0 ? gbytes / seconds : 0;
    std::snprintf(row, sizeof row, "%12u %5u %-30s %6u %11.2f %11.2f %11.2f %10.*f %9.*f  ", n, c.bits,
                  c.name.c_str(), passes, s.median, s.p95, s.min, digits(pairsRate), pairsRate,
                  digits(bytesRate), bytesRate);
    std::string line = row;
    std::string csvLine =
        std::to_string(n) + "," + std::to_string(c.bits) + "," + c.name + "," + std::to_string(passes) + "," +
        std::to_string(o.runs) + "," + std::to_string(s.median) + "," + std::to_string(s.p95) + "," +
        std::to_string(s.min) + "," + std::to_string(pairsRate) + "," + std::to_string(bytesRate);
    addDispatchColumns(times, passes, line, csvLine);
    const bool narrow = sort::takesNarrowGroups(c.size.sorter, n);
    const uint32_t groupSize = narrow ? c.size.sorter.workgroupSize / 2 : c.size.sorter.workgroupSize;
    const uint32_t tile = sort::tileSizeFor(c.size.sorter, n);
    if (narrow) { // the CSV also gives the group size and tile
        std::snprintf(row, sizeof row, "  (groups of %u, tile %u)", groupSize, tile);
        line += row;
    }
    std::printf("%s%s\n", line.c_str(), times.total.empty() ? " (timestamps unavailable)" : "");
    return csvLine + "," + std::to_string(groupSize) + "," + std::to_string(tile) + "\n";
}

// A size that does not fit is refused as bad input.
SortSize createSortSize(const gpu::Context& ctx, const SortBenchOptions& o, uint32_t n) {
    const VkDeviceSize bytes = 4ull * n;
    SortSize s;
    try {
        for (gpu::Buffer* b : {&s.keysIn, &s.valuesIn, &s.keysOut, &s.valuesOut})
            *b = gpu::createBuffer(ctx, bytes, gpu::storageUsage, gpu::MemoryUse::Device);
        const bool reduceThenScan = std::find(o.algorithms.begin(), o.algorithms.end(),
                                              sort::SortAlgorithm::ReduceThenScan) != o.algorithms.end();
        s.sorter = sort::createSorter(ctx, n, {.reduceThenScan = reduceThenScan});
    } catch (const gpu::OutOfMemory& e) {
        throw io::InputError("--n " + std::to_string(n) + " does not fit in GPU memory (" + e.what() + ")");
    }
    std::vector<uint32_t> values(n);
    for (uint32_t i = 0; i < n; ++i) values[i] = i;
    gpu::uploadBuffer(ctx, s.valuesIn, values.data(), bytes);
    return s;
}

void destroySortSize(const gpu::Context& ctx, SortSize& s) {
    for (gpu::Buffer* b : {&s.keysIn, &s.valuesIn, &s.keysOut, &s.valuesOut}) gpu::destroyBuffer(ctx, *b);
    sort::destroySorter(ctx, s.sorter);
}

std::string sortRowsFor(const gpu::Context& ctx, Headless& headless, const SortBenchOptions& o,
                        const SortSize& s, uint32_t n, bool& allMatch) {
    std::string csv;
    for (uint32_t bits : o.bits) {
        const uint32_t mask = sort::sortKeyMask(bits);
        sim::Random rng(o.seed * 1000003ull + n * 31ull + bits);
        std::vector<uint32_t> keys(n);
        for (uint32_t& k : keys) k = rng.next32() & mask;
        gpu::uploadBuffer(ctx, s.keysIn, keys.data(), 4ull * n);
        for (sort::SortAlgorithm asked : o.algorithms) {
            const sort::SortAlgorithm algorithm = sort::resolveAlgorithm(asked, n, bits);
            const std::string name = asked == sort::SortAlgorithm::Auto
                                         ? std::string("auto:") + sort::algorithmName(algorithm)
                                         : sort::algorithmName(algorithm);
            csv += sortBenchRow(ctx, headless, o, {s, keys, n, bits, algorithm, name}, allMatch);
        }
    }
    return csv;
}

} // namespace

std::vector<uint32_t> sortBenchSizes(bool cpuDevice, bool full, uint64_t maxPairs) {
    if (cpuDevice && !full) return {100000, 500000};
    std::vector<uint32_t> sizes;
    for (uint32_t n : {1000000u, 4000000u, 16000000u, 64000000u})
        if (n <= maxPairs) sizes.push_back(n);
    return sizes;
}

int runSortBench(const GlobalOptions& global, const SortBenchOptions& given) {
    SortBenchOptions o = given;
    if (o.runs < 20) throw io::InputError("--runs must be at least 20 (medians of fewer runs are noise)");
    for (uint32_t b : o.bits)
        if (b < 1 || b > 32) throw io::InputError("--bits: key widths must be between 1 and 32");
    std::string csv = "pairs,key_bits,algorithm,passes,runs,median_us,p95_us,min_us,gpairs_per_s,gb_per_s,"
                      "histogram_us,pass0_us,pass1_us,pass2_us,pass3_us,upsweep_us,spine_us,downsweep_us,"
                      "workgroup,tile_keys\n";
    if (!o.csv.empty()) io::checkOutputPath(o.csv, ".csv");

    gpu::Context ctx = gpu::createContext({.validation = global.validation,
                                           .deviceIndex = global.device,
                                           .pipelineStatistics = global.pipelineStats,
                                           .shaderFolder = global.shaders,
                                           .shaderModules = compileShaderSources(global, false)});
    Headless headless = createHeadless(ctx);
    std::printf("sort-bench on %s (%s %s), subgroup %u, vkboids %s\n", ctx.properties.deviceName,
                ctx.driverName.c_str(), ctx.driverInfo.c_str(), gpu::preferredSubgroupSize(ctx),
                buildCommit().c_str());
    printTimestampNote(headless.profiler.probe);
    if (o.sizes.empty()) {
        o.sizes = sortBenchSizes(ctx.isCpu, o.full, sort::maxSortPairs(ctx));
        if (ctx.isCpu && !o.full)
            std::printf("a CPU device: a short sweep (--n %s); --full runs the full one\n",
                        countList(o.sizes, ",").c_str());
        else if (o.sizes.size() < sortBenchSizes(false, true, UINT32_MAX).size())
            std::printf("the sweep stops at this device's limit of %llu pairs\n",
                        (unsigned long long)sort::maxSortPairs(ctx));
    }
    for (uint32_t n : o.sizes) // checks every size before any work starts
        if (n > sort::maxSortPairs(ctx))
            throw io::InputError("--n " + std::to_string(n) + " exceeds this device's limit of " +
                                 std::to_string(sort::maxSortPairs(ctx)) + " pairs");
    bool allMatch = true, printedConfig = false;
    for (uint32_t n : o.sizes) {
        SortSize s = createSortSize(ctx, o, n);
        if (!printedConfig) {
            std::printf("work group %u, %u keys per invocation (tile %u)\n", s.sorter.workgroupSize,
                        s.sorter.keysPerThread, s.sorter.tileSize);
            std::printf("%12s %5s %-30s %6s %11s %11s %11s %10s %9s   per dispatch (median us)\n", "pairs",
                        "bits", "algorithm", "passes", "median us", "p95 us", "min us", "Gpairs/s", "GB/s");
            printedConfig = true;
        }
        csv += sortRowsFor(ctx, headless, o, s, n, allMatch);
        destroySortSize(ctx, s);
    }
    destroyHeadless(ctx, headless);
    gpu::destroyContext(ctx);
    if (!o.csv.empty()) {
        io::writeFileAtomically(o.csv, csv);
        std::printf("wrote %s\n", o.csv.c_str());
    }
    if (!allMatch) {
        std::fprintf(stderr, "vkboids: error: the GPU sort disagreed with the CPU check\n");
        return finish(exitMismatch);
    }
    std::printf("every output matched the CPU check (stable order by masked key)\n");
    return finish(exitOk);
}

} // namespace app
