#include "app/camera.h"
#include "app/capture.h"
#include "app/headless/commands.h"
#include "app/run.h"
#include "app/stats.h"
#include "render/renderer.h"
#include "sim/flock.h"
#include "sim/npy.h"
#include "sort/radix_sort.h"

#include "build_info.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

namespace app {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

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

// The demo's starting camera and style, so that --render draws what a user first sees (in the colours
// --color asks for).
render::DrawSettings benchView(const sim::Params& params, const sim::Grid& grid, uint32_t count,
                               const render::Offscreen& target, render::DrawPath path,
                               render::ColorMode color) {
    render::DrawStyle style;
    style.path = path;
    style.colorMode = color;
    render::DrawSettings s = drawSettings(defaultCamera(params.domainHalf), target.frame.width,
                                          target.frame.height, params, style);
    showGrid(s, sim::stepConstants(params, grid, count));
    return s;
}

// Calls `work` (a blocking GPU submission) again and again for `ms` milliseconds of wall time, at
// least once when ms > 0.
template <typename Work> void keepBusy(uint64_t ms, Work work) {
    if (ms == 0) return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    do {
        work();
    } while (std::chrono::steady_clock::now() < until);
}

struct SortBuffers {
    const gpu::Buffer &keysIn, &valuesIn, &keysOut, &valuesOut;
};

// One configuration of sort-bench: checks the sort of `keys` (in keysIn; valuesIn holds the
// indices) against the CPU before and after the timed runs, prints the table's row, and returns the
// CSV's. `name` is what the rows call the algorithm.
std::string sortBenchRow(const gpu::Context& ctx, Headless& headless, const SortBenchOptions& o,
                         const sort::Sorter& sorter, const SortBuffers& buffers,
                         const std::vector<uint32_t>& keys, uint32_t n, uint32_t bits,
                         sort::SortAlgorithm algorithm, const std::string& name, bool& allMatch) {
    const gpu::Buffer &keysIn = buffers.keysIn, &valuesIn = buffers.valuesIn, &keysOut = buffers.keysOut,
                      &valuesOut = buffers.valuesOut;
    const VkDeviceSize bytes = 4ull * n;
    const uint32_t mask = sort::sortKeyMask(bits);
    const auto record = [&](VkCommandBuffer cmd, gpu::Profiler* p) {
        sort::recordSort(cmd, sorter, keysIn, valuesIn, keysOut, valuesOut, n, bits, algorithm, p,
                         p != nullptr);
    };
    std::vector<double> total;
    std::map<std::string, std::vector<double>> dispatches;
    for (uint32_t run = 0; run <= o.runs; ++run) {
        const bool check = run == 0 || run == o.runs;
        if (check) {
            gpu::fillBuffer(ctx, keysOut, 0xdeadbeef);
            gpu::fillBuffer(ctx, valuesOut, 0xdeadbeef);
        }
        progress("sorting " + std::to_string(n) + " pairs, " + std::to_string(bits) + " bits, " + name +
                 ": run " + std::to_string(run) + "/" + std::to_string(o.runs));
        std::vector<gpu::ScopeTime> times = runHeadlessFrame(ctx, headless, record);
        if (run > 0) // run 0 is the warm-up
            for (const gpu::ScopeTime& t : times)
                if (t.valid) (t.name == "sort" ? total : dispatches[t.name]).push_back(t.ms * 1000);
        if (check) {
            std::vector<uint32_t> outKeys(n), outValues(n);
            gpu::downloadBuffer(ctx, keysOut, outKeys.data(), bytes);
            gpu::downloadBuffer(ctx, valuesOut, outValues.data(), bytes);
            std::string why;
            if (!isStableSortOf(keys, outKeys, outValues, mask, why)) {
                endProgress();
                std::fprintf(stderr, "vkboids: error: sort of %u pairs, %u bits, %s, run %u: %s\n", n, bits,
                             name.c_str(), run, why.c_str());
                allMatch = false;
            }
        }
        // The GPU idled through the check on the CPU, and its clock with it: sorts back to back
        // until it has risen (a GPU can take seconds from idle to its top rate).
        if (run == 0)
            keepBusy(o.warmupMs, [&] {
                runHeadlessFrame(ctx, headless,
                                 [&](VkCommandBuffer cmd, gpu::Profiler*) { record(cmd, nullptr); });
            });
    }
    endProgress();
    const uint32_t passes = sort::sortPassCount(bits);
    const Summary s = summarize(total);
    const double seconds = s.median * 1e-6;
    // The same bytes for both algorithms, so that the column ranks them: each pass reads and writes
    // pairs, and one histogram read.
    const double gbytes = (16.0 * passes + 4.0) * n * 1e-9;
    char row[512];
    // Rates to three significant digits in fixed notation: a CPU driver's are thousandths of a GPU's.
    const auto digits = [](double v) {
        return v > 0 ? std::clamp(2 - int(std::floor(std::log10(v))), 0, 6) : 2;
    };
    const double pairsRate = seconds > 0 ? n / seconds * 1e-9 : 0,
                 bytesRate = seconds > 0 ? gbytes / seconds : 0;
    std::snprintf(row, sizeof row, "%12u %5u %-30s %6u %11.2f %11.2f %11.2f %10.*f %9.*f  ", n, bits,
                  name.c_str(), passes, s.median, s.p95, s.min, digits(pairsRate), pairsRate,
                  digits(bytesRate), bytesRate);
    std::string line = row;
    std::string csvLine = std::to_string(n) + "," + std::to_string(bits) + "," + name + "," +
                          std::to_string(passes) + "," + std::to_string(o.runs) + "," +
                          std::to_string(s.median) + "," + std::to_string(s.p95) + "," +
                          std::to_string(s.min) + "," + std::to_string(seconds > 0 ? n / seconds * 1e-9 : 0) +
                          "," + std::to_string(seconds > 0 ? gbytes / seconds : 0);
    const auto median = [&](const std::string& scope) {
        auto it = dispatches.find(scope);
        return it != dispatches.end() && !it->second.empty() ? std::optional(summarize(it->second).median)
                                                             : std::nullopt;
    };
    for (const char* scope : {"sort/histogram", "sort/pass0", "sort/pass1", "sort/pass2", "sort/pass3"}) {
        const std::optional<double> m = median(scope);
        if (m) {
            std::snprintf(row, sizeof row, " %s %.1f", scope + 5, *m);
            line += row;
        }
        csvLine += "," + (m ? std::to_string(*m) : std::string());
    }
    // Reduce-then-scan: each step's time, summed over the passes.
    for (const char* step : {"upsweep", "spine", "downsweep"}) {
        std::optional<double> sum;
        for (uint32_t p = 0; p < passes; ++p)
            if (const std::optional<double> m = median("sort/" + std::string(step) + std::to_string(p)))
                sum = sum.value_or(0) + *m;
        if (sum) {
            std::snprintf(row, sizeof row, " %s %.1f", step, *sum);
            line += row;
        }
        csvLine += "," + (sum ? std::to_string(*sum) : std::string());
    }
    const bool half = sort::takesHalfGroups(sorter, n);
    const uint32_t groupSize = half ? sorter.workgroupSize / 2 : sorter.workgroupSize;
    const uint32_t tile = sort::tileSizeFor(sorter, n);
    if (half) { // the CSV says so too
        std::snprintf(row, sizeof row, "  (groups of %u, tile %u)", groupSize, tile);
        line += row;
    }
    std::printf("%s%s\n", line.c_str(), total.empty() ? " (timestamps unavailable)" : "");
    return csvLine + "," + std::to_string(groupSize) + "," + std::to_string(tile) + "\n";
}

} // namespace

int runSortBench(const GlobalOptions& global, const SortBenchOptions& o) {
    if (o.runs < 20) throw io::InputError("--runs must be at least 20 (medians of fewer runs are noise)");
    for (uint32_t b : o.bits)
        if (b < 1 || b > 32) throw io::InputError("--bits: key widths must be between 1 and 32");
    std::string csv = "pairs,key_bits,algorithm,passes,runs,median_us,p95_us,min_us,gpairs_per_s,gb_per_s,"
                      "histogram_us,pass0_us,pass1_us,pass2_us,pass3_us,upsweep_us,spine_us,downsweep_us,"
                      "workgroup,tile_keys\n";
    if (!o.csv.empty()) io::checkOutputPath(o.csv, ".csv");

    gpu::Context ctx = gpu::createContext({.validation = global.validation,
                                           .deviceIndex = global.device,
                                           .pipelineStatistics = global.pipelineStats});
    Headless headless = createHeadless(ctx);
    std::printf("sort-bench on %s (%s %s), subgroup %u, vkboids %s\n", ctx.properties.deviceName,
                ctx.driverName.c_str(), ctx.driverInfo.c_str(), gpu::preferredSubgroupSize(ctx),
                VKBOIDS_COMMIT);
    printTimestampNote(headless.profiler.probe);
    for (uint32_t n : o.sizes) // every size before any work
        if (n > sort::maxSortPairs(ctx))
            throw io::InputError("--n " + std::to_string(n) + " exceeds this device's limit of " +
                                 std::to_string(sort::maxSortPairs(ctx)) + " pairs");
    bool allMatch = true;
    bool printedConfig = false;
    for (uint32_t n : o.sizes) {
        const VkDeviceSize bytes = 4ull * n;
        gpu::Buffer keysIn, valuesIn, keysOut, valuesOut;
        sort::Sorter sorter;
        try {
            keysIn = gpu::createBuffer(ctx, bytes, gpu::storageUsage, gpu::MemoryUse::Device);
            valuesIn = gpu::createBuffer(ctx, bytes, gpu::storageUsage, gpu::MemoryUse::Device);
            keysOut = gpu::createBuffer(ctx, bytes, gpu::storageUsage, gpu::MemoryUse::Device);
            valuesOut = gpu::createBuffer(ctx, bytes, gpu::storageUsage, gpu::MemoryUse::Device);
            const bool reduceThenScan = std::find(o.algorithms.begin(), o.algorithms.end(),
                                                  sort::SortAlgorithm::ReduceThenScan) != o.algorithms.end();
            sorter = sort::createSorter(ctx, n, {.reduceThenScan = reduceThenScan});
        } catch (const gpu::OutOfMemory& e) {
            throw io::InputError("--n " + std::to_string(n) + " does not fit in GPU memory (" + e.what() +
                                 ")");
        }
        if (!printedConfig) {
            std::printf("work group %u, %u keys per invocation (tile %u)\n", sorter.workgroupSize,
                        sorter.keysPerThread, sorter.tileSize);
            std::printf("%12s %5s %-30s %6s %11s %11s %11s %10s %9s   per dispatch (median us)\n", "pairs",
                        "bits", "algorithm", "passes", "median us", "p95 us", "min us", "Gpairs/s", "GB/s");
            printedConfig = true;
        }
        std::vector<uint32_t> values(n);
        for (uint32_t i = 0; i < n; ++i) values[i] = i;
        gpu::uploadBuffer(ctx, valuesIn, values.data(), bytes);

        for (uint32_t bits : o.bits) {
            const uint32_t mask = sort::sortKeyMask(bits);
            sim::Random rng(o.seed * 1000003ull + n * 31ull + bits);
            std::vector<uint32_t> keys(n);
            for (uint32_t& k : keys) k = rng.next32() & mask;
            gpu::uploadBuffer(ctx, keysIn, keys.data(), bytes);
            for (sort::SortAlgorithm asked : o.algorithms) {
                const sort::SortAlgorithm algorithm = sort::resolveAlgorithm(asked, n, bits);
                const std::string name = asked == sort::SortAlgorithm::Auto
                                             ? std::string("auto:") + sort::algorithmName(algorithm)
                                             : sort::algorithmName(algorithm);
                csv += sortBenchRow(ctx, headless, o, sorter, {keysIn, valuesIn, keysOut, valuesOut}, keys, n,
                                    bits, algorithm, name, allMatch);
            }
        }
        for (gpu::Buffer* b : {&keysIn, &valuesIn, &keysOut, &valuesOut}) gpu::destroyBuffer(ctx, *b);
        sort::destroySorter(ctx, sorter);
    }
    destroyHeadless(ctx, headless);
    gpu::destroyContext(ctx);
    if (!o.csv.empty()) io::writeFileAtomically(o.csv, csv);
    if (!allMatch) {
        std::fprintf(stderr, "vkboids: error: the GPU sort disagreed with the CPU check\n");
        return finish(exitMismatch);
    }
    std::printf("every output matched the CPU check (stable order by masked key)\n");
    return finish(exitOk);
}

namespace {

// One configuration of bench, as its rows, JSON and table line name it.
struct BenchRun {
    sim::Mode mode;
    uint32_t boids;
    int cells; // 0 for naive
    std::string cellOrder;
    sim::GridBuild build;
    std::string draw; // empty where nothing is drawn
    sim::Grid grid;
};

void printTableHeader() {
    std::printf("%-10s %10s %5s %6s %8s %8s %11s %11s  per pass (median ms)\n", "mode", "boids", "cells",
                "order", "build", "draw", "median ms", "p95 ms");
}

// The warm-up and measured frames of one configuration, each recorded by `record`; progressText says
// where the run is at frame f of the configuration `label` names.
std::vector<FrameRow>
measureFrames(const gpu::Context& ctx, Headless& headless, const BenchOptions& o, const BenchRun& r,
              const std::function<void(VkCommandBuffer, gpu::Profiler*)>& record, float domainHalf,
              const std::function<std::string(uint64_t, const std::string&)>& progressText) {
    const std::string label =
        std::string(sim::modeName(r.mode)) + " " + std::to_string(r.boids) +
        (r.cells ? " cells " + std::to_string(r.cells) + " " + r.cellOrder + " " + sim::gridBuildName(r.build)
                 : "") +
        (r.draw.empty() ? "" : " draw " + r.draw);
    std::vector<FrameRow> rows;
    Clock::time_point first{};
    for (uint64_t f = 0; f < o.warmup + o.frames; ++f) {
        if (f % 10 == 0) progress(progressText(f, label));
        const Clock::time_point t0 = Clock::now();
        if (f == o.warmup) first = t0;
        std::vector<gpu::ScopeTime> times = runHeadlessFrame(ctx, headless, record);
        if (f < o.warmup) continue;
        FrameRow row;
        row.frame = f - o.warmup;
        row.tMs = std::chrono::duration<double, std::milli>(t0 - first).count();
        row.mode = sim::modeName(r.mode);
        row.boids = r.boids;
        row.cells = r.cells;
        if (r.cells) row.gridBuild = sim::gridBuildName(r.build);
        row.cellOrder = r.cellOrder;
        row.domainHalf = domainHalf;
        row.presentMode = o.render ? "offscreen" : "none";
        row.draw = r.draw;
        row.cpuFrameMs = msSince(t0);
        addScopeTimes(row, times);
        rows.push_back(row);
    }
    endProgress();
    return rows;
}

nlohmann::json runJson(const BenchRun& r, const BenchOptions& o, const sim::Params& params,
                       const std::vector<FrameRow>& rows, const std::optional<sim::SearchCounts>& counted) {
    RunInfo info{sim::modeName(r.mode),
                 r.boids,
                 r.cells,
                 r.cells ? r.grid.dim : 0,
                 o.render ? "offscreen" : "none",
                 o.render,
                 r.draw,
                 o.seed,
                 o.warmup,
                 params};
    info.cellOrder = r.cellOrder;
    nlohmann::json run = summarizeRun(info, rows);
    if (o.render) run["color"] = render::colorModeName(o.color);
    if (r.mode != sim::Mode::Naive) {
        run["rows_per_cell"] = r.grid.rowsPerCell;
        run["row_height"] = sim::rowHeight(r.grid);
        run["slices_per_cell"] = r.grid.slicesPerCell;
        run["search"] = sim::searchVariantName(sim::searchVariant(r.mode, params));
        run["grid_build"] = sim::gridBuildName(r.build);
    }
    if (counted) {
        run["candidates_per_boid"] = counted->candidates;
        run["neighbours_per_boid"] = counted->neighbours;
        if (r.cells) {
            run["lane_efficiency"] = counted->laneEfficiency;
            run["rule_lanes"] = counted->ruleLanes;
            run["lane_subgroup_size"] = counted->subgroupSize;
        }
    }
    return run;
}

// The run's line of the table: medians, each pass, the rows and what the search counted.
std::string tableLine(const BenchRun& r, const nlohmann::json& run,
                      const std::optional<sim::SearchCounts>& counted) {
    char text[512];
    const auto& cols = run["columns"];
    const double median = cols.contains("gpu_total_ms") ? double(cols["gpu_total_ms"]["median"]) : -1;
    const double p95 = cols.contains("gpu_total_ms") ? double(cols["gpu_total_ms"]["p95"]) : -1;
    std::snprintf(text, sizeof text, "%-10s %10u %5s %6s %8s %8s %11.4f %11.4f ", sim::modeName(r.mode),
                  r.boids, r.cells ? std::to_string(r.cells).c_str() : "-",
                  r.cells ? r.cellOrder.c_str() : "-", r.cells ? sim::gridBuildName(r.build) : "-",
                  r.draw.empty() ? "-" : r.draw.c_str(), median, p95);
    std::string line = text;
    for (const std::string& pass : passNames())
        if (cols.contains(passColumn(pass))) {
            std::snprintf(text, sizeof text, " %s %.4f", pass.c_str(),
                          double(cols[passColumn(pass)]["median"]));
            line += text;
        }
    if (r.mode != sim::Mode::Naive) line += "  (" + sim::describeRows(r.grid) + ")";
    if (counted) {
        std::snprintf(text, sizeof text, "  candidates %.1f neighbours %.1f", counted->candidates,
                      counted->neighbours);
        line += text;
        if (r.cells) {
            std::snprintf(text, sizeof text, " lane efficiency %.0f%% rule lanes %.0f%%",
                          100 * counted->laneEfficiency, 100 * counted->ruleLanes);
            line += text;
        }
    }
    return line;
}

} // namespace

int runBench(const GlobalOptions& global, const BenchOptions& o) {
    if (!o.csv.empty()) io::checkOutputPath(o.csv, ".csv");
    if (!o.json.empty()) io::checkOutputPath(o.json, ".json");
    if (!o.csv.empty() && !o.json.empty()) io::checkDistinctOutputs({o.csv, o.json});
    gpu::Context ctx = gpu::createContext({.validation = global.validation,
                                           .deviceIndex = global.device,
                                           .pipelineStatistics = global.pipelineStats});
    Headless headless = createHeadless(ctx);
    const double naiveLimit = o.naiveLimit.value_or(ctx.isCpu ? cpuNaiveMax : defaultNaiveMax);
    const auto isNaive = [](const sim::Config& c) { return c.mode == sim::Mode::Naive; };
    const bool onlyNaive = std::ranges::all_of(o.configs, isNaive);
    if (onlyNaive && std::ranges::all_of(o.boids, [&](uint32_t n) { return n > naiveLimit; }))
        throw io::InputError("every configuration is naive above --naive-max " +
                             std::to_string(uint64_t(naiveLimit)) + " boids: nothing to run");
    render::Offscreen offscreen;
    render::Renderer renderer;
    for (render::DrawPath path : o.drawPaths)
        if (path == render::DrawPath::Compute && !render::computePathAvailable(ctx))
            throw io::InputError(std::string("--draw compute: ") + ctx.properties.deviceName +
                                 " lacks 64-bit atomics on storage buffers or format-free image stores");
    if (o.render) {
        renderer = render::createRenderer(ctx, VK_FORMAT_R8G8B8A8_UNORM, gpu::findDepthFormat(ctx),
                                          VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        offscreen = render::createOffscreen(ctx, renderer, uint32_t(o.width), uint32_t(o.height));
    }
    std::printf("bench on %s (%s %s)\n", ctx.properties.deviceName, ctx.driverName.c_str(),
                ctx.driverInfo.c_str());
    printTimestampNote(headless.profiler.probe);
    if (!o.naiveLimit && ctx.isCpu && std::ranges::any_of(o.configs, isNaive))
        std::printf("a CPU device: naive runs only up to %.0f boids (--naive-max to change)\n", naiveLimit);

    std::string csv = csvHeader();
    std::vector<nlohmann::json> runs;
    std::vector<std::string> table;
    for (uint32_t n : o.boids) sim::checkFlockFits(ctx, n); // every size, before the first run
    // Without --render one pass through the loop below draws nothing.
    const std::vector<render::DrawPath> paths =
        !o.render             ? std::vector<render::DrawPath>{render::DrawPath::Points}
        : o.drawPaths.empty() ? std::vector<render::DrawPath>{render::DrawPath::Auto}
                              : o.drawPaths;
    // Every configuration, counted first for the progress line.
    uint64_t configurations = 0;
    for (uint32_t n : o.boids)
        for (const sim::Config& config : o.configs)
            if (config.mode != sim::Mode::Naive || n <= naiveLimit) configurations += paths.size();
    std::printf("%s of %s (%llu warm-up)\n", countOf(configurations, "configuration").c_str(),
                countOf(o.warmup + o.frames, "frame").c_str(), (unsigned long long)o.warmup);
    printTableHeader();
    const Clock::time_point benchStart = Clock::now();
    uint64_t configurationsDone = 0;
    // The rules, the domain and the density are the same in every configuration.
    for (uint32_t n : o.boids) {
        const sim::Params params = sim::configFor(o.configs.front(), n).params;
        const sim::State start = sim::randomState(n, o.seed, params.domainHalf, params.maxSpeed);
        sim::Flock flock = sim::createFlock(ctx, n);
        for (const sim::Config& config : o.configs) {
            const sim::Mode mode = config.mode;
            if (mode == sim::Mode::Naive && n > naiveLimit) {
                std::printf("skipping naive with %u boids (above --naive-max)\n", n);
                continue;
            }
            // A naive step builds no grid: its rows have no cells, order or build.
            const int cells = mode == sim::Mode::Naive ? 0 : sim::labCells(config.cellWidth);
            // Naive's neighbours are counted on the grid of cells max(r) wide.
            sim::Config gridConfig = sim::configFor(config, n);
            if (!cells) gridConfig.cellWidth = sim::CellWidth::Reach;
            const sim::CellOrder order = config.cellOrder;
            const sim::GridBuild build = config.gridBuild;
            for (render::DrawPath chosen : paths) {
                const render::DrawPath path =
                    render::resolveDrawPath(chosen, n, render::computePathAvailable(ctx), ctx.isCpu);
                const sim::Grid grid = sim::gridFor(gridConfig, n);
                const std::string orderName = cells ? sim::cellOrderName(order) : "";
                sim::prepareGrid(ctx, flock, grid, mode, build);
                // Steps until the GPU's clock has risen from idle (or from a light load), then the
                // run from the start state.
                sim::uploadState(ctx, flock, start);
                keepBusy(o.warmupMs, [&] {
                    runHeadlessFrame(ctx, headless, [&](VkCommandBuffer cmd, gpu::Profiler*) {
                        sim::recordStep(cmd, flock, params, mode, grid, build, nullptr);
                    });
                });
                sim::uploadState(ctx, flock, start);
                const BenchRun r{mode, n, cells, orderName, build, o.render ? render::drawPathName(path) : "",
                                 grid};
                const auto record = [&](VkCommandBuffer cmd, gpu::Profiler* p) {
                    sim::recordStep(cmd, flock, params, mode, grid, build, p);
                    if (o.render) {
                        gpu::Scope scope(p, cmd, "draw");
                        render::recordOffscreenDraw(cmd, ctx, renderer, offscreen, flock.pos[flock.current],
                                                    flock.vel[flock.current], flock.count,
                                                    benchView(params, grid, n, offscreen, path, o.color));
                    }
                };
                const auto progressText = [&](uint64_t f, const std::string& label) {
                    const double done =
                        (double(configurationsDone) + double(f) / double(o.warmup + o.frames)) /
                        double(configurations);
                    const std::string left = timeLeft(msSince(benchStart) / 1000, done);
                    return "configuration " + std::to_string(configurationsDone + 1) + "/" +
                           std::to_string(configurations) + ", " + label + ": frame " + std::to_string(f) +
                           "/" + std::to_string(o.warmup + o.frames) + (left.empty() ? "" : ", " + left);
                };
                std::vector<FrameRow> rows =
                    measureFrames(ctx, headless, o, r, record, params.domainHalf, progressText);
                // What the search did, on the state the timed frames left, outside the timings.
                // Naive steps test every boid; their neighbours are counted on the grid of cells max(r) wide.
                std::optional<sim::SearchCounts> counted;
                if (o.countCandidates) {
                    counted = sim::countSearch(ctx, flock, params, grid);
                    if (!cells) counted->candidates = n;
                    for (FrameRow& row : rows) {
                        row.candidates = counted->candidates;
                        row.neighbours = counted->neighbours;
                        if (cells) {
                            row.laneEfficiency = counted->laneEfficiency;
                            row.ruleLanes = counted->ruleLanes;
                        }
                    }
                }
                for (const FrameRow& row : rows) csv += csvRow(row);
                const nlohmann::json run = runJson(r, o, params, rows, counted);
                runs.push_back(run);
                const std::string line = tableLine(r, run, counted);
                table.push_back(line);
                std::printf("%s\n", line.c_str());
                ++configurationsDone;
            }
        }
        sim::destroyFlock(ctx, flock);
    }
    std::printf("\n");
    printTableHeader();
    for (const std::string& line : table) std::printf("%s\n", line.c_str());
    std::vector<std::pair<std::string, std::string>> files;
    if (!o.csv.empty()) files.push_back({o.csv, csv});
    if (!o.json.empty())
        files.push_back({o.json, captureJson(ctx, headless.profiler.probe, runs).dump(2) + "\n"});
    io::writeFilesAtomically(files);
    if (o.render) {
        render::destroyOffscreen(ctx, offscreen);
        render::destroyRenderer(ctx, renderer);
    }
    destroyHeadless(ctx, headless);
    gpu::destroyContext(ctx);
    return finish(exitOk);
}

} // namespace app
