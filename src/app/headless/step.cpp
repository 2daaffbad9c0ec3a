#include "app/headless/step.h"

#include "app/exit_codes.h"
#include "app/naive_guard.h"
#include "app/stats.h"
#include "io/output.h"
#include "io/platform.h"
#include "sim/flock.h"
#include "sim/npy.h"

#include <chrono>
#include <cmath>
#include <cstdio>

namespace app {
namespace {

// Each pass's step times, in the order the passes run.
using PassTimes = std::vector<std::pair<std::string, std::vector<double>>>;

std::vector<double>& timesOf(PassTimes& passes, const std::string& name) {
    for (auto& [pass, times] : passes)
        if (pass == name) return times;
    return passes.emplace_back(name, std::vector<double>{}).second;
}

void printStepHeader(const sim::Config& config, uint64_t steps, const gpu::Context& ctx, uint32_t count,
                     const sim::Grid& grid) {
    std::printf("%s: %s of %s on %s (%s %s), vkboids %s", sim::modeName(config.mode),
                countOf(steps, "step").c_str(), countOf(count, "boid").c_str(), ctx.properties.deviceName,
                ctx.driverName.c_str(), ctx.driverInfo.c_str(), buildCommit().c_str());
    if (config.mode != sim::Mode::Naive)
        std::printf(", %u^3 cells of %.3g (cell width %s) in %s order, %s, %s build", grid.dim,
                    grid.cellWidth, sim::cellWidthName(config.cellWidth), sim::cellOrderName(grid.cellOrder),
                    sim::describeRows(grid).c_str(), sim::gridBuildName(config.gridBuild));
    std::printf(", L = %.4g\n", config.params.domainHalf);
}

void stepProgress(uint64_t s, uint64_t steps, double elapsed) {
    char text[96];
    if (s == 0)
        std::snprintf(text, sizeof text, "step 1 of %llu", (unsigned long long)steps);
    else
        std::snprintf(text, sizeof text, "step %llu of %llu, %.3g s a step, %.0f s to go",
                      (unsigned long long)s + 1, (unsigned long long)steps, elapsed / double(s),
                      elapsed / double(s) * double(steps - s));
    progress(text);
}

// Runs the steps, submitting each and waiting on it, and returns each step's GPU times, as a whole and
// per pass.
void runSteps(const StepOptions& o, const sim::Config& config, const gpu::Context& ctx, Headless& headless,
              sim::Flock& flock, const sim::Grid& grid, std::vector<double>& stepMs, PassTimes& passMs) {
    // A run the user waits on shows progress on a terminal: from the start where naive steps are
    // expected to take seconds, otherwise once the run has taken 2 s.
    const double naiveSeconds =
        !o.quiet && config.mode == sim::Mode::Naive
            ? estimateNaiveStepSeconds(flock.count, measureNaiveStep(ctx, flock.count, config.params))
            : 0;
    const auto start = std::chrono::steady_clock::now();
    for (uint64_t s = 0; s < o.steps; ++s) {
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!o.quiet && (elapsed >= 2 || naiveSeconds * double(o.steps) >= 2))
            stepProgress(s, o.steps, elapsed);
        std::vector<gpu::ScopeTime> times =
            runHeadlessFrame(ctx, headless, [&](VkCommandBuffer cmd, gpu::Profiler* p) {
                sim::recordStep(cmd, flock, config.params, config.mode, grid, config.gridBuild, p);
            });
        for (const gpu::ScopeTime& t : times) {
            if (!t.valid) continue;
            if (t.name == "frame")
                stepMs.push_back(t.ms);
            else
                timesOf(passMs, t.name).push_back(t.ms);
        }
    }
    if (!o.quiet) endProgress();
}

// The medians of the steps and of each pass, or why there are none.
void printStepTimes(const std::vector<double>& stepMs, const PassTimes& passMs,
                    const gpu::TimestampProbe& probe) {
    if (stepMs.empty()) {
        std::printf("GPU timestamps are %s on this queue\n", gpu::timestampTrustName(probe.trust));
        return;
    }
    // When there is more than one step, the first is left out because it creates the pipelines.
    auto settled = [](std::vector<double> v) {
        if (v.size() > 1) v.erase(v.begin());
        return v;
    };
    const Summary s = summarize(settled(stepMs));
    std::printf("GPU time per step: median %.4f ms, p95 %.4f ms, min %.4f ms (%s)\n", s.median, s.p95, s.min,
                countOf(s.count, "step").c_str());
    for (const auto& [name, v] : passMs)
        std::printf("  %-24s median %.4f ms\n", name.c_str(), summarize(settled(v)).median);
}

} // namespace

int runStep(const GlobalOptions& global, const StepOptions& o) {
    if (!o.saveState.empty()) io::checkOutputPath(o.saveState, ".npy");
    sim::State state;
    if (!o.loadState.empty()) state = sim::loadNpy(o.loadState);
    const sim::Config config = sim::configFor(o.sim, o.loadState.empty() ? o.boids : state.count());
    const sim::Params& params = config.params;
    gpu::Context ctx = gpu::createContext({.validation = global.validation,
                                           .deviceIndex = global.device,
                                           .quietDeviceNote = o.quiet,
                                           .pipelineStatistics = global.pipelineStats,
                                           .shaderFolder = global.shaders,
                                           .shaderModules = compileShaderSources(global, o.quiet)});
    // A count the device cannot hold is refused before the flock is generated on the CPU, so that
    // the error comes at once.
    sim::checkFlockFits(ctx, o.loadState.empty() ? o.boids : state.count());
    if (o.loadState.empty()) state = sim::randomState(o.boids, o.seed, params.domainHalf, params.maxSpeed);
    sim::wrapPositions(state, params.domainHalf);
    sim::Flock flock = sim::createFlock(ctx, state.count());
    sim::uploadState(ctx, flock, state);
    const sim::Grid grid = sim::gridFor(config, flock.count);
    sim::prepareGrid(ctx, flock, grid, config.mode, config.gridBuild);
    if (!o.quiet) printStepHeader(config, o.steps, ctx, flock.count, grid);

    Headless headless = createHeadless(ctx);
    if (!o.quiet) printTimestampNote(headless.profiler.probe);
    std::vector<double> stepMs;
    PassTimes passMs;
    runSteps(o, config, ctx, headless, flock, grid, stepMs, passMs);
    const sim::State result = sim::downloadState(ctx, flock);
    for (float x : result.data)
        if (!std::isfinite(x)) throw gpu::Error("the flock's state became non-finite; nothing was written");
    if (!o.saveState.empty()) sim::saveNpy(o.saveState, result);

    if (!o.quiet) {
        printStepTimes(stepMs, passMs, headless.profiler.probe);
        if (!o.saveState.empty()) std::printf("wrote %s\n", o.saveState.c_str());
    }
    destroyHeadless(ctx, headless);
    sim::destroyFlock(ctx, flock);
    gpu::destroyContext(ctx);
    return finish(exitOk);
}

} // namespace app
