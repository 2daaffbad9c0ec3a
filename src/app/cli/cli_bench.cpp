#include "app/cli/cli_commands.h"

#include "app/cli/cli_values.h"

#include <algorithm>

namespace app {

using io::InputError;

void addBenchFlags(CLI::App* bench, BenchOptions& bo, BenchFlags& flags) {
    flags.app = bench;
    bench->add_option("--boids", flags.boids,
                      "boid counts, comma-separated [1e5,1e6; on a CPU device 2e3,2e4,1e5 unless --full]");
    flags.config.mode = "naive,scattered,coherent";
    flags.config.cellWidth = "2r,r";
    addConfigFlags(bench, flags.base, flags.config, true);
    bench->add_option("--frames", flags.frames,
                      "measured frames per configuration [300; on a CPU device 30 unless --full]");
    bench->add_option("--warmup", flags.warmup,
                      "frames before measuring [60; on a CPU device 5 unless --full]");
    bench->add_flag(
        "--full", bo.full,
        "on a CPU device too, the full sweep's counts and frames (a CPU device runs a short sweep "
        "by default)");
    bench
        ->add_option("--warmup-ms", flags.warmupMs,
                     "untimed steps for this long before each run (the run then restarts from its start "
                     "state), so that the GPU's clock has risen from idle")
        ->capture_default_str();
    bench->add_option("--seed", bo.seed, "seed of the random start")->capture_default_str()->check(seedRange);
    bench->add_option("--csv", bo.csv, "write per-frame rows to FILE.csv")->check(nonEmptyPath);
    bench->add_option("--json", bo.json, "write one summary per configuration to FILE.json")
        ->check(nonEmptyPath);
    bench->add_flag("--render", bo.render, "also draw every frame into an offscreen 1280x800 image");
    bench->add_flag("--count-candidates", bo.countCandidates,
                    "after each run, count the boids each boid's search tests (candidates) and finds within "
                    "max(r) (neighbours), and its lane efficiency and rule lanes, into the CSV and JSON "
                    "(outside the timings)");
    bench
        ->add_option(
            "--draw", flags.draw,
            "with --render: drawing paths, comma-separated (compute, points, glyphs, auto: glyphs up "
            "to " +
                std::to_string(render::glyphsUpTo) + " boids, else the fastest the device has)")
        ->capture_default_str();
    flags.colorOption =
        bench->add_option("--color", flags.color, "with --render: colour by speed, heading, cell or order")
            ->capture_default_str();
    bench->add_option(
        "--naive-max", flags.naiveMax,
        "skip naive above this many boids [2e6; on a CPU device, where a step takes 0.25 s, measured]");
    nameValues(bench, {{"--naive-max", "N"},
                       {"--json", "FILE.json"},
                       {"--boids", "N,..."},
                       {"--mode", "MODE,..."},
                       {"--cell-width", "r|2r,..."},
                       {"--draw", "PATH,..."},
                       {"--grid-build", "BUILD,..."},
                       {"--cell-order", "linear|morton,..."}});
}

void finishBench(const BenchFlags& flags, BenchOptions& bo) {
    bo.configs = parseConfigs(flags.config, flags.base);
    if (!flags.boids.empty()) bo.boids = parseCountList(flags.boids, "--boids", maxBoids);
    refuseGridOptionsWithoutGrid(flags.app, std::ranges::all_of(bo.configs, [](const sim::Config& c) {
                                     return c.mode == sim::Mode::Naive;
                                 }));
    if (!flags.frames.empty()) bo.frames = parseCount(flags.frames, "--frames", 1ull << 32);
    if (!flags.warmup.empty()) bo.warmup = parseCountOrZero(flags.warmup, "--warmup", 1ull << 32);
    bo.warmupMs = parseCountOrZero(flags.warmupMs, "--warmup-ms", 600000);
    if (!flags.naiveMax.empty()) bo.naiveLimit = double(parseCount(flags.naiveMax, "--naive-max", maxBoids));
    if (flags.draw != "auto") {
        if (!bo.render) throw InputError("--draw needs --render (without it nothing is drawn)");
        for (const std::string& d : splitList(flags.draw))
            bo.drawPaths.push_back(valueFromText(render::drawPathNames, d, "--draw"));
        refuseRepeats(bo.drawPaths, splitList(flags.draw), "--draw");
    }
    if (flags.colorOption->count() && !bo.render)
        throw InputError("--color needs --render (without it nothing is drawn)");
    bo.color = valueFromText(render::colorModeNames, flags.color, "--color");
    for (uint32_t n : bo.boids) checkParams(configForCount(bo.configs.front(), n, true).params);
    // The default sweep's counts depend on the device: its parameters are checked before the count.
    if (bo.boids.empty()) checkParamsBeforeTheCount(bo.configs.front());
}

} // namespace app
