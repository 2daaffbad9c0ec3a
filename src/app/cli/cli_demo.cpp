#include "app/cli/cli_commands.h"

#include "app/cli/cli_values.h"
#include "app/formed_flock.h"
#include "app/presets.h"

#include <algorithm>
#include <memory>

namespace app {
namespace {

using io::InputError;

// --preset starts the demo as choosing the preset in the panel's Play section right after starting
// would leave it (selectPreset), so that the command line and the panel agree. A flag given
// explicitly wins over the preset's value: a rule's flag over that rule, --boids or --load-state over
// the preset's flock, and --domain-half over its L.
void startFromPreset(const CLI::App& app, DemoOptions& demo) {
    const Preset* preset = findPreset(demo.preset);
    if (!preset) throw InputError("--preset: '" + demo.preset + "' is not a preset (" + presetIds() + ")");
    demo.preset = preset->id;
    const sim::Params given = demo.sim.params;
    demo.sim.params = applyPreset(*preset, given);
    for (const RuleFlag& rule : ruleFlags)
        if (app.get_option(io::nameIn(paramFlags, rule.param))->count())
            demo.sim.params.*rule.field = given.*rule.field;
    if (app.get_option("--domain-half")->count()) demo.sim.params.domainHalf = given.domainHalf;
    if (preset->boids && !app.get_option("--boids")->count() && demo.loadState.empty()) {
        // A fresh flock of the preset's count, at the density of the flock it replaces (or of the L
        // given with it). Later counts chosen in the panel keep that density, as the panel's preset
        // does.
        const uint32_t countOfL = app.get_option("--domain-half")->count() ? preset->boids : demo.boids;
        if (demo.sim.density <= 0) demo.sim.density = sim::densityOf(countOfL, demo.sim.params.domainHalf);
        demo.boids = preset->boids;
    }
}

// The flags that say what the run starts from, how long it runs and what it writes.
void addDemoRunFlags(CLI::App* app, DemoOptions& demo, DemoFlags& flags) {
    flags.boidsOption =
        app->add_option("--boids", flags.boids, "number of boids (re-initializes when changed in the panel)")
            ->capture_default_str();
    app->add_option("--seed", demo.seed, "seed of the random start")->capture_default_str()->check(seedRange);
    addConfigFlags(app, demo.sim, flags.config, false);
    app->add_option("--present-mode", flags.presentMode, io::choiceList(gpu::presentModeNames))
        ->capture_default_str();
    app->add_option("--frames", flags.frames, "quit after N frames");
    flags.warmupOption = app->add_option("--warmup", flags.warmup, "frames before --capture starts recording")
                             ->capture_default_str();
    app->add_option(
           "--capture", demo.capture,
           "write per-frame timings to FILE.csv and a summary to FILE.json beside it (with --frames)")
        ->check(nonEmptyPath);
    app->add_option("--screenshot", demo.screenshot, "write the last frame to FILE.png (with --frames)")
        ->check(nonEmptyPath);
    app->add_option("--load-state", demo.loadState,
                    "start from a state file (NumPy, as step --save-state writes)");
    app->add_option("--preset", demo.preset,
                    "start with a preset of the panel's Play section (" + presetIds() +
                        "): its rules, and its flock where it has one; flags given win over it");
    app->add_flag("--paused", demo.paused, "start paused (space resumes, N steps once)");
    app->add_flag("--random-start", flags.randomStart,
                  "start from boids scattered at random (--seed) rather than the formed flock the demo "
                  "opens on by default");
    app->add_option("--steps-before", flags.stepsBefore,
                    "run N steps before the first frame, to start from a formed flock (about 2000 at the "
                    "default 20000 boids)")
        ->capture_default_str();
}

// CLI11's help without the options it is given. CLI11's own way to hide an option, an empty group,
// would also empty the option's name in the errors about it.
struct HidingFormatter : CLI::Formatter {
    std::vector<const CLI::Option*> hidden;
    std::string make_option(const CLI::Option* o, bool positional) const override {
        return std::ranges::count(hidden, o) ? "" : CLI::Formatter::make_option(o, positional);
    }
};

// The test harness's options (docs/TESTING.md). They are taken and checked like any other option,
// but --help does not list them, because they exist only for tests.
void addDemoTestingFlags(CLI::App* app, harness::Options& harness) {
    const auto formatter = std::make_shared<HidingFormatter>();
    formatter->hidden = {app->add_flag("--exercise-window", harness.exerciseWindow),
                         app->add_option("--input-script", harness.inputScript)->check(nonEmptyPath),
                         app->add_flag("--report-layout", harness.reportLayout),
                         app->add_flag("--report-memory", harness.reportMemory)};
    app->formatter(formatter);
}

// The flags for how the flock is drawn, and for the window.
void addDemoViewFlags(CLI::App* app, DemoFlags& flags) {
    app->add_option("--draw", flags.draw,
                    "how boids are drawn: compute (a compute rasterizer), points (hardware points), glyphs "
                    "(arrowheads along each boid's heading) or auto (glyphs up to " +
                        std::to_string(render::glyphsUpTo) + " boids, else the fastest the device has)")
        ->capture_default_str();
    app->add_option(
           "--color", flags.color,
           "colour boids by speed, heading, cell (their grid cell) or order (their slot: in coherent "
           "mode, their position in the sorted order)")
        ->capture_default_str();
    app->add_option("--window", flags.window, "the window's size, at least 800x600 (default 1280x800)");
}

// Settles the flock the demo starts with from the counts, the state file and the preset.
void finishDemoFlock(const DemoFlags& flags, DemoOptions& demo) {
    const CLI::App& app = *flags.app;
    demo.boids = uint32_t(parseCount(flags.boids, "--boids", maxBoids));
    if (flags.boidsOption->count() && !demo.loadState.empty())
        throw InputError("give either --boids or --load-state, not both");
    demo.sim = parseConfig(flags.config, demo.sim);
    if (!demo.preset.empty()) startFromPreset(app, demo);
    demo.stepsBefore = parseCountOrZero(flags.stepsBefore, "--steps-before", maxStepsBefore);
}

} // namespace

void addDemoFlags(CLI::App* app, DemoOptions& demo, harness::Options& harness, DemoFlags& flags) {
    flags.app = app;
    const size_t globalOptionCount = app->get_options().size();
    addDemoRunFlags(app, demo, flags);
    addDemoViewFlags(app, flags);
    addDemoTestingFlags(app, harness);
    const std::vector<CLI::Option*> options = app->get_options();
    flags.only.assign(options.begin() + ptrdiff_t(globalOptionCount), options.end());
    nameValues(app, {{"--capture", "FILE.csv"},
                     {"--screenshot", "FILE.png"},
                     {"--preset", "NAME"},
                     {"--steps-before", "N"},
                     {"--present-mode", "MODE"},
                     {"--window", "WxH"}});
}

void finishDemo(const DemoFlags& flags, DemoOptions& demo) {
    finishDemoFlock(flags, demo);
    if (!flags.frames.empty()) demo.frames = parseCount(flags.frames, "--frames", 1ull << 40);
    demo.warmup = parseCountOrZero(flags.warmup, "--warmup", 1ull << 40);
    if (flags.warmupOption->count() && demo.capture.empty())
        throw InputError("--warmup needs --capture (it counts the frames before the capture starts)");
    if (!flags.window.empty()) parseWindowSize(flags.window, demo.width, demo.height);
    demo.presentMode = valueFromText(gpu::presentModeNames, flags.presentMode, "--present-mode");
    if (!demo.capture.empty() && demo.frames == 0)
        throw InputError("--capture needs --frames N (the number of frames to record "
                         "after --warmup)");
    demo.drawPath = valueFromText(render::drawPathNames, flags.draw, "--draw");
    demo.color = valueFromText(render::colorModeNames, flags.color, "--color");
    if (demo.loadState.empty())
        demo.sim = configForCount(demo.sim, demo.boids, flags.config.params.densityOption->count() > 0);
    checkParamsBeforeTheCount(demo.sim);
    if (flags.randomStart && !demo.loadState.empty())
        throw InputError("--random-start has no effect with --load-state");
    // The demo opens on the formed flock (app/formed_flock.h) where no other flock is asked for and the
    // formed one fits: the count and the L are its own.
    demo.formedStart = !flags.randomStart && demo.loadState.empty() && !flags.boidsOption->count() &&
                       !flags.app->get_option("--seed")->count() && demo.boids == formedFlockBoids &&
                       demo.sim.params.domainHalf == sim::Params{}.domainHalf;
}

} // namespace app
