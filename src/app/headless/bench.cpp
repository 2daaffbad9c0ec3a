#include "app/headless/bench.h"

#include "app/camera.h"
#include "app/capture.h"
#include "app/exit_codes.h"
#include "app/naive_guard.h"
#include "io/output.h"
#include "render/renderer.h"
#include "sim/flock.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace app {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// Uses the demo's starting camera and style, so that --render draws what a user first sees, in the
// colours --color asks for.
render::DrawSettings benchView(const sim::Params& params, const sim::Grid& grid, uint32_t count,
                               const render::Offscreen& target, render::DrawPath path,
                               render::ColorMode color) {
    render::DrawSettings s = drawSettings(defaultCamera(params.domainHalf), target.frame.width,
                                          target.frame.height, params, {.path = path, .colorMode = color});
    showGrid(s, sim::stepConstants(params, grid, count));
    return s;
}

// What every configuration of a bench shares: the device, its frames and drawing target, the plan,
// and the results so far.
struct Bench {
    const BenchOptions& o;
    gpu::Context ctx;
    Headless headless;
    render::Renderer renderer;
    render::Offscreen offscreen;
    double naiveLimit = 0;
    std::vector<uint32_t> boids; // from the options or from the sweep (benchSweep), as are the frames
    uint64_t frames = 0, warmup = 0;
    std::vector<render::DrawPath> paths; // without --render, one pass that draws nothing
    uint64_t configurations = 0, configurationsDone = 0;
    Clock::time_point start;
    std::string csv;
    std::vector<nlohmann::json> runs;
    std::vector<std::string> table;
};

// One run of bench: the configuration with its L set, the boid count, the drawing path's name (empty
// where nothing is drawn) and the grid that is stepped.
struct BenchRun {
    sim::Config config;
    uint32_t boids;
    std::string draw;
    sim::Grid grid;
};

bool buildsGrid(const BenchRun& r) {
    return r.config.mode != sim::Mode::Naive;
}

void printTableHeader() {
    std::printf("%-10s %10s %5s %6s %8s %8s %11s %11s  per pass (median ms)\n", "mode", "boids", "cells",
                "order", "build", "draw", "median ms", "p95 ms");
}

std::string runLabel(const BenchRun& r) {
    const sim::Config& c = r.config;
    return std::string(sim::modeName(c.mode)) + " " + std::to_string(r.boids) +
           (buildsGrid(r) ? " cells " + std::to_string(sim::labCells(c.cellWidth)) + " " +
                                sim::cellOrderName(c.cellOrder) + " " + sim::gridBuildName(c.gridBuild)
                          : "") +
           (r.draw.empty() ? "" : " draw " + r.draw);
}

std::string progressText(const Bench& b, uint64_t f, const std::string& label) {
    const uint64_t frames = b.warmup + b.frames;
    const double done =
        (double(b.configurationsDone) + double(f) / double(frames)) / double(b.configurations);
    const std::string left = timeLeft(msSince(b.start) / 1000, done);
    return "configuration " + std::to_string(b.configurationsDone + 1) + "/" +
           std::to_string(b.configurations) + ", " + label + ": frame " + std::to_string(f) + "/" +
           std::to_string(frames) + (left.empty() ? "" : ", " + left);
}

std::vector<FrameRow> measureFrames(Bench& b, const BenchRun& r,
                                    const std::function<void(VkCommandBuffer, gpu::Profiler*)>& record) {
    const std::string label = runLabel(r);
    const std::string shadersHash = gpu::shaderOrigin(b.ctx).hash;
    std::vector<FrameRow> rows;
    Clock::time_point first{};
    for (uint64_t f = 0; f < b.warmup + b.frames; ++f) {
        progress(progressText(b, f, label));
        const Clock::time_point t0 = Clock::now();
        if (f == b.warmup) first = t0;
        std::vector<gpu::ScopeTime> times = runHeadlessFrame(b.ctx, b.headless, record);
        if (f < b.warmup) continue;
        FrameRow row{.frame = f - b.warmup,
                     .tMs = std::chrono::duration<double, std::milli>(t0 - first).count(),
                     .config = r.config,
                     .boids = r.boids,
                     .presentMode = b.o.render ? "offscreen" : "none",
                     .draw = r.draw,
                     .shadersHash = shadersHash};
        row.cpuFrameMs = msSince(t0);
        addScopeTimes(row, times);
        rows.push_back(row);
    }
    endProgress();
    return rows;
}

std::string tableLine(const BenchRun& r, const nlohmann::json& run,
                      const std::optional<sim::SearchCounts>& counted) {
    char text[512];
    const sim::Config& c = r.config;
    const bool grid = buildsGrid(r);
    const auto& cols = run["columns"];
    const double median = cols.contains("gpu_total_ms") ? double(cols["gpu_total_ms"]["median"]) : -1;
    const double p95 = cols.contains("gpu_total_ms") ? double(cols["gpu_total_ms"]["p95"]) : -1;
    std::snprintf(text, sizeof text, "%-10s %10u %5s %6s %8s %8s %11.4f %11.4f ", sim::modeName(c.mode),
                  r.boids, grid ? std::to_string(sim::labCells(c.cellWidth)).c_str() : "-",
                  grid ? sim::cellOrderName(c.cellOrder) : "-", grid ? sim::gridBuildName(c.gridBuild) : "-",
                  r.draw.empty() ? "-" : r.draw.c_str(), median, p95);
    std::string line = text;
    for (const std::string& pass : passNames())
        if (cols.contains(passColumn(pass))) {
            std::snprintf(text, sizeof text, " %s %.4f", pass.c_str(),
                          double(cols[passColumn(pass)]["median"]));
            line += text;
        }
    if (grid) line += "  (" + sim::describeRows(r.grid) + ")";
    if (counted) {
        std::snprintf(text, sizeof text, "  candidates %.1f neighbours %.1f", counted->candidates,
                      counted->neighbours);
        line += text;
        if (grid) {
            std::snprintf(text, sizeof text, " lane efficiency %.0f%% rule lanes %.0f%%",
                          100 * counted->laneEfficiency, 100 * counted->ruleLanes);
            line += text;
        }
    }
    return line;
}

// Opens the device and, where --render asks for one, the drawing target. Refuses a bench that has
// nothing to run or that asks for a drawing path the device lacks.
void startBench(Bench& b, const GlobalOptions& global) {
    const BenchOptions& o = b.o;
    if (!o.csv.empty()) io::checkOutputPath(o.csv, ".csv");
    if (!o.json.empty()) io::checkOutputPath(o.json, ".json");
    if (!o.csv.empty() && !o.json.empty()) io::checkDistinctOutputs({o.csv, o.json});
    b.ctx = gpu::createContext({.validation = global.validation,
                                .deviceIndex = global.device,
                                .pipelineStatistics = global.pipelineStats,
                                .shaderFolder = global.shaders,
                                .shaderModules = compileShaderSources(global, false)});
    b.headless = createHeadless(b.ctx);
    const BenchSweep sweep = benchSweep(b.ctx.isCpu, o.full);
    b.boids = o.boids.empty() ? sweep.boids : o.boids;
    b.frames = o.frames.value_or(sweep.frames);
    b.warmup = o.warmup.value_or(sweep.warmup);
    // The sweep's counts are checked too, before the first run, because a density may give one of them
    // an L out of bounds. The command line has already checked everything else.
    for (uint32_t n : b.boids) sim::configFor(o.configs.front(), n);
    const auto isNaive = [](const sim::Config& c) { return c.mode == sim::Mode::Naive; };
    const bool measureNaive = !o.naiveLimit && b.ctx.isCpu && std::ranges::any_of(o.configs, isNaive);
    b.naiveLimit = o.naiveLimit.value_or(defaultNaiveMax);
    if (measureNaive) {
        const uint32_t most = *std::ranges::max_element(b.boids);
        const NaiveTiming t = measureNaiveStep(b.ctx, most, sim::configFor(o.configs.front(), most).params);
        b.naiveLimit =
            t.seconds > 0 ? std::floor(t.boids * std::sqrt(cpuNaiveStepSeconds / t.seconds)) : most;
    }
    if (std::ranges::all_of(o.configs, isNaive) &&
        std::ranges::all_of(b.boids, [&](uint32_t n) { return n > b.naiveLimit; }))
        throw io::InputError("every configuration is naive above --naive-max " +
                             std::to_string(uint64_t(b.naiveLimit)) + " boids: nothing to run");
    for (render::DrawPath path : o.drawPaths)
        if (path == render::DrawPath::Compute && !render::computePathAvailable(b.ctx))
            throw io::InputError(std::string("--draw compute: ") + b.ctx.properties.deviceName +
                                 " lacks 64-bit atomics on storage buffers or format-free image stores");
    if (o.render) {
        b.renderer = render::createRenderer(b.ctx, VK_FORMAT_R8G8B8A8_UNORM, gpu::findDepthFormat(b.ctx),
                                            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        b.offscreen = render::createOffscreen(b.ctx, b.renderer, uint32_t(o.width), uint32_t(o.height));
    }
    std::printf("bench on %s (%s %s)\n", b.ctx.properties.deviceName, b.ctx.driverName.c_str(),
                b.ctx.driverInfo.c_str());
    printTimestampNote(b.headless.profiler.probe);
    const bool shortSweep = b.ctx.isCpu && !o.full;
    if (shortSweep && (o.boids.empty() || !o.frames || !o.warmup))
        std::printf("a CPU device: a short sweep (%s boids, %llu frames, %llu warm-up); --full runs the "
                    "full one\n",
                    countList(b.boids, ", ").c_str(), (unsigned long long)b.frames,
                    (unsigned long long)b.warmup);
    if (measureNaive)
        std::printf("a CPU device: naive runs only up to %.0f boids, where a step takes about %.2g s "
                    "(measured; --naive-max to change)\n",
                    b.naiveLimit, cpuNaiveStepSeconds);
}

} // namespace

BenchSweep benchSweep(bool cpuDevice, bool full) {
    if (cpuDevice && !full) return {{2000, 20000, 100000}, 30, 5};
    return {{100000, 1000000}, 300, 60};
}

namespace {

bool skipped(const Bench& b, const sim::Config& config, uint32_t n) {
    return config.mode == sim::Mode::Naive && n > b.naiveLimit;
}

void planBench(Bench& b) {
    const BenchOptions& o = b.o;
    for (uint32_t n : b.boids) sim::checkFlockFits(b.ctx, n); // a size that does not fit fails before any run
    b.paths = !o.render             ? std::vector<render::DrawPath>{render::DrawPath::Points}
              : o.drawPaths.empty() ? std::vector<render::DrawPath>{render::DrawPath::Auto}
                                    : o.drawPaths;
    for (uint32_t n : b.boids)
        for (const sim::Config& config : o.configs)
            if (!skipped(b, config, n)) b.configurations += b.paths.size();
    std::printf("%s of %s (%llu warm-up)\n", countOf(b.configurations, "configuration").c_str(),
                countOf(b.warmup + b.frames, "frame").c_str(), (unsigned long long)b.warmup);
    printTableHeader();
    b.start = Clock::now();
}

// Counts what the search did on the state the timed frames left, outside the timings, and adds it to
// each row. A naive step tests every boid.
std::optional<sim::SearchCounts> addSearchCounts(Bench& b, sim::Flock& flock, const BenchRun& r,
                                                 std::vector<FrameRow>& rows) {
    if (!b.o.countCandidates) return std::nullopt;
    sim::SearchCounts counted = sim::countSearch(b.ctx, flock, r.config.params, r.grid);
    if (!buildsGrid(r)) counted.candidates = r.boids;
    for (FrameRow& row : rows) {
        row.candidates = counted.candidates;
        row.neighbours = counted.neighbours;
        if (buildsGrid(r)) {
            row.laneEfficiency = counted.laneEfficiency;
            row.ruleLanes = counted.ruleLanes;
        }
    }
    return counted;
}

// Runs one configuration, with its L set, drawn by `chosen`. It first steps from `start` until the
// GPU's clock has risen from idle or a light load, then runs from the start state and records its
// rows, summary and table line.
void runConfiguration(Bench& b, sim::Flock& flock, const sim::State& start, const sim::Config& config,
                      render::DrawPath chosen) {
    const BenchOptions& o = b.o;
    const uint32_t n = flock.count;
    const render::DrawPath path =
        render::resolveDrawPath(chosen, n, render::computePathAvailable(b.ctx), b.ctx.isCpu);
    // Naive builds no grid, so its neighbours are counted on a grid of cells max(r) wide.
    sim::Config gridConfig = config;
    if (config.mode == sim::Mode::Naive) gridConfig.cellWidth = sim::CellWidth::Reach;
    const BenchRun r{config, n, o.render ? render::drawPathName(path) : "", sim::gridFor(gridConfig, n)};
    const sim::Params& params = config.params;
    sim::prepareGrid(b.ctx, flock, r.grid, config.mode, config.gridBuild);
    sim::uploadState(b.ctx, flock, start);
    keepBusy(o.warmupMs, [&] {
        runHeadlessFrame(b.ctx, b.headless, [&](VkCommandBuffer cmd, gpu::Profiler*) {
            sim::recordStep(cmd, flock, params, config.mode, r.grid, config.gridBuild, nullptr);
        });
    });
    sim::uploadState(b.ctx, flock, start);
    const auto record = [&](VkCommandBuffer cmd, gpu::Profiler* p) {
        sim::recordStep(cmd, flock, params, config.mode, r.grid, config.gridBuild, p);
        if (o.render) {
            gpu::Scope scope(p, cmd, "draw");
            render::recordOffscreenDraw(cmd, b.ctx, b.renderer, b.offscreen, flock.pos[flock.current],
                                        flock.vel[flock.current], flock.count,
                                        benchView(params, r.grid, n, b.offscreen, path, o.color));
        }
    };
    std::vector<FrameRow> rows = measureFrames(b, r, record);
    const std::optional<sim::SearchCounts> counted = addSearchCounts(b, flock, r, rows);
    for (const FrameRow& row : rows) b.csv += csvRow(row);
    const nlohmann::json run = summarizeRun({.config = r.config,
                                             .boids = n,
                                             .presentMode = o.render ? "offscreen" : "none",
                                             .draw = r.draw,
                                             .color = render::colorModeName(o.color),
                                             .seed = o.seed,
                                             .warmupFrames = b.warmup,
                                             .counted = counted},
                                            rows);
    b.runs.push_back(run);
    b.table.push_back(tableLine(r, run, counted));
    std::printf("%s\n", b.table.back().c_str());
    ++b.configurationsDone;
}

int endBench(Bench& b) {
    const BenchOptions& o = b.o;
    std::printf("\n");
    printTableHeader();
    for (const std::string& line : b.table) std::printf("%s\n", line.c_str());
    std::vector<std::pair<std::string, std::string>> files;
    if (!o.csv.empty()) files.push_back({o.csv, b.csv});
    if (!o.json.empty())
        files.push_back({o.json, captureJson(b.ctx, b.headless.profiler.probe, b.runs).dump(2) + "\n"});
    io::writeFilesAtomically(files);
    if (!files.empty())
        std::printf("wrote %s\n", files.size() == 1 ? files[0].first.c_str()
                                                    : (files[0].first + " and " + files[1].first).c_str());
    if (o.render) {
        render::destroyOffscreen(b.ctx, b.offscreen);
        render::destroyRenderer(b.ctx, b.renderer);
    }
    destroyHeadless(b.ctx, b.headless);
    gpu::destroyContext(b.ctx);
    return finish(exitOk);
}

} // namespace

int runBench(const GlobalOptions& global, const BenchOptions& o) {
    Bench b{.o = o, .csv = csvHeader()};
    startBench(b, global);
    planBench(b);
    // The rules, the domain and the density are the same in every configuration.
    for (uint32_t n : b.boids) {
        const sim::Params params = sim::configFor(o.configs.front(), n).params;
        const sim::State start = sim::randomState(n, o.seed, params.domainHalf, params.maxSpeed);
        sim::Flock flock = sim::createFlock(b.ctx, n);
        for (const sim::Config& config : o.configs) {
            if (skipped(b, config, n)) {
                std::printf("skipping naive with %u boids (above --naive-max)\n", n);
                continue;
            }
            for (render::DrawPath chosen : b.paths)
                runConfiguration(b, flock, start, sim::configFor(config, n), chosen);
        }
        sim::destroyFlock(b.ctx, flock);
    }
    return endBench(b);
}

} // namespace app
