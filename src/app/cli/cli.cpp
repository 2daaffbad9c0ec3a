#include "app/cli/cli.h"

#include "app/cli/cli_values.h"
#include "app/formed_flock.h"
#include "app/presets.h"

#include "build_info.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>

namespace app {
namespace {

using io::InputError;

// CLI11 reads "-1" into an unsigned integer as 2^64 - 1, and its own range check prints a 300-digit bound.
CLI::Validator wholeNumber(uint64_t max) {
    return CLI::Validator(
        [max](std::string& text) {
            const bool digits = !text.empty() && std::all_of(text.begin(), text.end(),
                                                             [](char c) { return c >= '0' && c <= '9'; });
            errno = 0;
            const bool inRange = digits && std::strtoull(text.c_str(), nullptr, 10) <= max && errno != ERANGE;
            return inRange
                       ? std::string()
                       : "must be a whole number from 0 to " + std::to_string(max) + " (got '" + text + "')";
        },
        "");
}

const CLI::Validator seedRange = wholeNumber(UINT64_MAX);

// A float flag's text, checked before CLI11 converts it, whose own error ("Could not convert: --dt =
// abc") reads unlike every other flag's.
const CLI::Validator floatNumber(
    [](std::string& text) {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || std::isnan(v))
            return "'" + text + "' is not a number";
        if (std::fabs(v) > double(FLT_MAX)) return "'" + text + "' is beyond a float's range";
        return std::string();
    },
    "");

// Accepted before or after the command.
void addGlobalFlags(CLI::App* app, GlobalOptions& g, bool& listDevices) {
    app->add_flag("--validation", g.validation,
                  "Khronos validation (core and synchronization); any error makes the exit code 3");
    app->add_option("--device", g.device, "use device N (see --list-devices)")->check(wholeNumber(INT32_MAX));
    app->add_flag("--pipeline-stats", g.pipelineStats,
                  "print the driver's statistics (registers, shared memory, ...) of every compute pipeline");
    app->add_flag("--list-devices", listDevices, "list the Vulkan devices and exit");
}

// The rule flags a preset sets, unless given (--preset).
const std::pair<const char*, float sim::Params::*> presetFlags[] = {
    {"--cohesion-radius", &sim::Params::cohesionRadius},
    {"--separation-radius", &sim::Params::separationRadius},
    {"--alignment-radius", &sim::Params::alignmentRadius},
    {"--cohesion-scale", &sim::Params::cohesionScale},
    {"--separation-scale", &sim::Params::separationScale},
    {"--alignment-scale", &sim::Params::alignmentScale},
    {"--max-speed", &sim::Params::maxSpeed},
    {"--dt", &sim::Params::dt},
    {"--domain-half", &sim::Params::domainHalf}};

// --preset: the demo starts as choosing the preset in the panel's Play section right after starting
// would leave it (selectPreset), except that a flag given explicitly wins over the preset's value:
// a rule flag over its rule, --boids or --load-state over its flock, --domain-half over its L.
void startFromPreset(const CLI::App& app, DemoOptions& demo) {
    const Preset* preset = findPreset(demo.preset);
    if (!preset) throw InputError("--preset: '" + demo.preset + "' is not a preset (" + presetIds() + ")");
    demo.preset = preset->id;
    const sim::Params given = demo.sim.params;
    demo.sim.params = applyPreset(*preset, given);
    for (const auto& [flag, field] : presetFlags)
        if (app.get_option(flag)->count()) demo.sim.params.*field = given.*field;
    if (preset->boids && !app.get_option("--boids")->count() && demo.loadState.empty()) {
        // A fresh flock of the preset's count at the density it would have replaced.
        if (!app.get_option("--domain-half")->count() && demo.sim.density <= 0)
            demo.sim.density = sim::densityOf(demo.boids, demo.sim.params.domainHalf);
        demo.boids = preset->boids;
        demo.keepDensity = true;
    }
}

// The flags' texts that need parsing once the command is known.
struct ParamFlags {
    CLI::Option *domainHalf = nullptr, *densityOption = nullptr;
    std::string density;
};

void addParamFlags(CLI::App* app, sim::Params& p, ParamFlags& flags) {
    app->add_option("--cohesion-radius", p.cohesionRadius, "r1: cohesion neighbourhood radius")
        ->check(floatNumber)
        ->capture_default_str();
    app->add_option("--separation-radius", p.separationRadius, "r2: separation radius")
        ->check(floatNumber)
        ->capture_default_str();
    app->add_option("--alignment-radius", p.alignmentRadius, "r3: alignment radius")
        ->check(floatNumber)
        ->capture_default_str();
    app->add_option("--cohesion-scale", p.cohesionScale, "s1: cohesion strength")
        ->check(floatNumber)
        ->capture_default_str();
    app->add_option("--separation-scale", p.separationScale, "s2: separation strength")
        ->check(floatNumber)
        ->capture_default_str();
    app->add_option("--alignment-scale", p.alignmentScale, "s3: alignment strength")
        ->check(floatNumber)
        ->capture_default_str();
    app->add_option("--max-speed", p.maxSpeed, "speed limit")->check(floatNumber)->capture_default_str();
    app->add_option("--dt", p.dt, "time step")->check(floatNumber)->capture_default_str();
    flags.domainHalf =
        app->add_option("--domain-half", p.domainHalf, "L: the domain is the periodic cube [-L, L)^3")
            ->check(floatNumber)
            ->capture_default_str();
    flags.densityOption = app->add_option(
        "--density", flags.density,
        "boids per unit^3: sets L from the boid count (the lab's is 0.125: 1M boids at L = 100)");
}

// 0 where --density was not given. Throws where it conflicts with --domain-half or is not positive.
double densityFrom(const ParamFlags& flags) {
    if (!flags.densityOption->count()) return 0;
    if (flags.domainHalf->count())
        throw InputError(
            "give either --density or --domain-half, not both (--density sets L from the count)");
    char* end = nullptr;
    const double d = std::strtod(flags.density.c_str(), &end);
    if (end != flags.density.c_str() + flags.density.size() || !std::isfinite(d) || d <= 0)
        throw InputError("--density: '" + flags.density + "' must be a positive number (boids per unit^3)");
    return d;
}

// An output given as '' would read as not given, and the run would write nothing without a word.
const CLI::Validator nonEmptyPath(
    [](std::string& path) { return path.empty() ? std::string("the path is empty") : std::string(); }, "");

// A grid's shape, build or cell order given where no step builds a grid has no effect: refused.
void refuseGridOptionsWithoutGrid(const CLI::App* command, bool naiveOnly) {
    if (!naiveOnly) return;
    for (const char* flag : {"--cell-width", "--rows", "--grid-build", "--cell-order"})
        if (command->get_option(flag)->count())
            throw InputError(std::string(flag) + " has no effect in naive mode (it builds no grid)");
}

// An option of the demo given before a command would apply to nothing: CLI11 hands it to the root.
void refuseDemoOptionsBefore(const CLI::App* command, const std::vector<CLI::Option*>& demoOnly) {
    for (const CLI::Option* o : demoOnly) {
        if (!o->count()) continue;
        const std::string name = o->get_name(), commandName = command->get_name();
        if (command->get_option_no_throw(name))
            throw InputError(name + " before '" + commandName +
                             "' is an option of the demo: put it after the command (vkboids " + commandName +
                             " " + name + " ...)");
        throw InputError(name + " is an option of the demo; '" + commandName + "' has no " + name);
    }
}

const char* const rowsHelp =
    "the rows the search scans, each over its x window: auto (by density), cells (rows one cell high, "
    "windows in whole cells), or rows a full, half or quarter cell high and deep, windows in eighths";

const char* const gridBuildHelp =
    "how grid steps order boids by cell: radix (a radix sort of the keys) or counting (a deterministic "
    "counting sort)";
const char* const cellOrderHelp =
    "how the sort key numbers cells: linear (x + dim (y + dim z)) or morton (Z-order: x, y, z bits "
    "interleaved; rows one cell high)";

// Switches for experts and tests, listed apart from what users need in --help.
const char* const expertGroup = "Expert and testing";

// The flags of the simulation's configuration (sim::Config), declared alike on every command that
// steps a flock and kept as texts until the command is known. bench takes a list for each choice.
struct ConfigFlags {
    std::string mode = "coherent", cellWidth = "r", rows = "auto", gridBuild = "radix", cellOrder = "linear";
    ParamFlags params;
};

void addConfigFlags(CLI::App* app, sim::Config& config, ConfigFlags& flags, bool lists) {
    const std::string each = lists ? "; comma-separated, each run with each" : "";
    app->add_option("--mode", flags.mode,
                    "naive, scattered or coherent (naive: the exact all-pairs step, to check the others)" +
                        each)
        ->capture_default_str();
    app->add_option(
           "--cell-width,--cells", flags.cellWidth,
           "cells at least max(r) wide (r) or 2 max(r) wide (2r), of the largest radius: the CUDA lab's "
           "27 or 8 cells, also accepted" +
               each)
        ->capture_default_str();
    app->add_option("--rows", flags.rows, rowsHelp)->capture_default_str()->group(expertGroup);
    app->add_option("--grid-build", flags.gridBuild, gridBuildHelp + each)
        ->capture_default_str()
        ->group(expertGroup);
    app->add_option("--cell-order", flags.cellOrder, cellOrderHelp + each)
        ->capture_default_str()
        ->group(expertGroup);
    addParamFlags(app, config.params, flags.params);
}

// The one configuration the flags' texts give (the demo, step, and each of bench's).
sim::Config parseConfig(const ConfigFlags& flags, const sim::Config& base) {
    sim::Config c = base;
    c.mode = modeFromText(flags.mode, "--mode");
    c.cellWidth = cellWidthFromText(flags.cellWidth);
    c.rows = rowsFromText(flags.rows);
    c.gridBuild = gridBuildFromText(flags.gridBuild);
    c.cellOrder = cellOrderFromText(flags.cellOrder);
    refuseMortonThinRows({c.cellOrder}, c.rows);
    c.density = densityFrom(flags.params);
    return c;
}

// bench: every combination of the lists, modes outermost.
std::vector<sim::Config> parseConfigs(const ConfigFlags& flags, const sim::Config& base) {
    std::vector<sim::Config> configs;
    for (const std::string& mode : splitList(flags.mode))
        for (const std::string& width : splitList(flags.cellWidth))
            for (const std::string& order : splitList(flags.cellOrder))
                for (const std::string& build : splitList(flags.gridBuild)) {
                    sim::Config c = parseConfig({mode, width, flags.rows, build, order, flags.params}, base);
                    // A naive step builds no grid: one run, its grid choices the defaults, whatever the
                    // grid's lists hold.
                    if (c.mode == sim::Mode::Naive) {
                        if (!configs.empty() && configs.back().mode == sim::Mode::Naive) continue;
                        c.cellWidth = base.cellWidth;
                        c.cellOrder = base.cellOrder;
                        c.gridBuild = base.gridBuild;
                    }
                    configs.push_back(c);
                }
    return configs;
}

// CLI11 takes `--boids ""` as given, and an empty text would then read as "not given" or as an empty
// list: every value given must have something in it.
void refuseEmptyValues(const std::vector<const CLI::App*>& apps) {
    for (const CLI::App* a : apps)
        for (const CLI::Option* o : a->get_options())
            if (o->get_type_size_max() > 0)
                for (const std::string& value : o->results())
                    if (value.empty()) throw InputError(o->get_name() + ": the value is empty");
}

// CLI11's "The following arguments were not expected: 100 --boid" names the problem backwards and no
// fix: the first argument left over, and the command or option it most likely meant.
std::string unexpectedArgument(const CLI::App& app, const std::vector<const CLI::App*>& commands) {
    const std::vector<std::string> left = app.remaining(true);
    const std::string token = left.empty() ? "" : left.front();
    const std::vector<CLI::App*> parsed = app.get_subcommands();
    const CLI::App* command = parsed.empty() ? &app : parsed.front();
    std::vector<std::string> names;
    if (parsed.empty())
        for (const CLI::App* c : commands) names.push_back(c->get_name());
    for (const CLI::Option* o : command->get_options())
        for (const std::string& name : o->get_lnames()) names.push_back("--" + name);
    const std::string typed = token.substr(0, token.find('='));
    const std::string near = closestName(typed, names);
    const std::string in = parsed.empty() ? "" : " " + command->get_name();
    std::string message = token.rfind('-', 0) == 0 ? "unknown option '" + typed + "'"
                          : parsed.empty()         ? "unknown command '" + token + "'"
                                                   : "unexpected argument '" + token + "'";
    if (!parsed.empty()) message += " for" + in;
    if (!near.empty()) return message + ": did you mean " + near + "?";
    return message + " (vkboids" + in + " --help lists " +
           (parsed.empty() ? "the commands and options)" : "its options)");
}

} // namespace

CommandLine parseCommandLine(int argc, const char* const* argv) {
    CommandLine cl;
    CLI::App app{
        "vkboids: a Vulkan compute boids simulator. Without a command it runs the interactive demo."};
    app.set_version_flag("--version",
                         std::string("vkboids ") + VKBOIDS_VERSION + " (" + VKBOIDS_COMMIT + ")");
    app.require_subcommand(0, 1);
    bool listDevices = false;
    addGlobalFlags(&app, cl.global, listDevices);
    const size_t globalOptionCount = app.get_options().size();

    // The demo (no command).
    DemoOptions& demo = cl.demo;
    std::string demoBoids = "20000", demoFrames, demoWarmup = "0";
    CLI::Option* demoBoidsOption =
        app.add_option("--boids", demoBoids, "number of boids (re-initializes when changed in the panel)")
            ->capture_default_str();
    app.add_option("--seed", demo.seed, "seed of the random start")->capture_default_str()->check(seedRange);
    ConfigFlags demoConfig;
    addConfigFlags(&app, demo.sim, demoConfig, false);
    app.add_option("--present-mode", demo.presentMode, "fifo, mailbox or immediate")->capture_default_str();
    app.add_option("--frames", demoFrames, "quit after N frames");
    CLI::Option* demoWarmupOption =
        app.add_option("--warmup", demoWarmup, "frames before --capture starts recording")
            ->capture_default_str();
    app.add_option("--capture", demo.capture,
                   "write per-frame timings to FILE.csv and a summary to FILE.json beside it (with --frames)")
        ->check(nonEmptyPath);
    app.add_option("--screenshot", demo.screenshot, "write the last frame to FILE.png (with --frames)")
        ->check(nonEmptyPath);
    app.add_option("--load-state", demo.loadState,
                   "start from a state file (NumPy, as step --save-state writes)");
    app.add_option("--preset", demo.preset,
                   "start with a preset of the panel's Play section (" + presetIds() +
                       "): its rules, and its flock where it has one; flags given win over it");
    app.add_flag("--paused", demo.paused, "start paused (space resumes, N steps once)");
    bool randomStart = false;
    app.add_flag("--random-start", randomStart,
                 "start from boids scattered at random (--seed) rather than the formed flock the demo "
                 "opens on by default");
    std::string demoStepsBefore = "0";
    app.add_option("--steps-before", demoStepsBefore,
                   "run N steps before the first frame, to start from a formed flock (about 2000 at the "
                   "default 20000 boids)")
        ->capture_default_str();
    app.add_flag("--exercise-window", demo.exerciseWindow, "testing: resize, minimize and restore the window")
        ->group(expertGroup);
    app.add_option("--input-script", demo.inputScript,
                   "testing: play the input events of FILE (keys, mouse) through the window's callbacks")
        ->check(nonEmptyPath)
        ->group(expertGroup);
    app.add_flag("--report-layout", demo.reportLayout,
                 "testing: print where the panels and the domain lie in the window, once a second")
        ->group(expertGroup);
    app.add_flag("--report-memory", demo.reportMemory,
                 "testing: print the device memory that vkboids' buffers and images hold, once a second")
        ->group(expertGroup);
    std::string demoDraw = "auto";
    app.add_option("--draw", demoDraw,
                   "how boids are drawn: compute (a compute rasterizer), points (hardware points), glyphs "
                   "(arrowheads along each boid's heading) or auto (glyphs up to " +
                       std::to_string(render::glyphsUpTo) + " boids, else the fastest the device has)")
        ->capture_default_str();
    std::string demoColor = "heading";
    app.add_option("--color", demoColor,
                   "colour boids by speed, heading, cell (their grid cell) or order (their slot: in coherent "
                   "mode, their position in the sorted order)")
        ->capture_default_str();
    std::string demoWindow;
    app.add_option("--window", demoWindow, "the window's size, at least 800x600 (default 1280x800)");
    const std::vector<CLI::Option*> appOptions = app.get_options();
    const std::vector<CLI::Option*> demoOnly(appOptions.begin() + ptrdiff_t(globalOptionCount),
                                             appOptions.end());

    // step
    CLI::App* step = app.add_subcommand("step", "run K steps headless and write the state");
    addGlobalFlags(step, cl.global, listDevices);
    StepOptions& so = cl.step;
    std::string stepBoids, stepSteps = "1";
    step->add_option("--boids", stepBoids, "number of boids of a random start");
    step->add_option("--seed", so.seed, "seed of the random start")->capture_default_str()->check(seedRange);
    step->add_option("--load-state", so.loadState, "start from a state file (NumPy, as --save-state writes)");
    step->add_option("--save-state", so.saveState, "write the final state to FILE.npy")->check(nonEmptyPath);
    step->add_option("--steps", stepSteps, "number of steps")->capture_default_str();
    ConfigFlags stepConfig;
    addConfigFlags(step, so.sim, stepConfig, false);
    step->add_flag("--quiet", so.quiet, "print nothing on success");
    std::string stepPredator;
    CLI::Option* predatorOption =
        step->add_option("--predator", stepPredator,
                         "a predator at X,Y,Z: boids within its radius flee (wrapped into the domain)");
    CLI::Option* predatorRadius =
        step->add_option("--predator-radius", so.sim.params.predatorRadius, "with --predator: its radius")
            ->check(floatNumber)
            ->capture_default_str();
    CLI::Option* predatorScale =
        step->add_option("--predator-scale", so.sim.params.predatorScale,
                         "with --predator: the push a step, S (1 - distance / radius), on boids within it")
            ->check(floatNumber)
            ->capture_default_str();

    // sort-bench
    CLI::App* sortBench = app.add_subcommand("sort-bench", "check and time the GPU radix sort");
    addGlobalFlags(sortBench, cl.global, listDevices);
    std::string sbSizes = "1e6,4e6,16e6,64e6", sbBits = "21,32", sbRuns = "20", sbWarmupMs = "1000",
                sbAlgorithms = "auto";
    sortBench->add_option("--n", sbSizes, "pair counts, comma-separated")->capture_default_str();
    sortBench->add_option("--bits", sbBits, "key widths in bits, comma-separated")->capture_default_str();
    sortBench
        ->add_option(
            "--algorithm", sbAlgorithms,
            "sort algorithms, comma-separated: onesweep, reduce-then-scan, or auto (by the pair count "
            "and key width, as the simulation chooses)")
        ->capture_default_str();
    sortBench
        ->add_option("--warmup-ms", sbWarmupMs,
                     "untimed sorts, back to back, for this long before each configuration's timed runs, so "
                     "that the GPU's clock has risen from idle")
        ->capture_default_str();
    sortBench->add_option("--runs", sbRuns, "timed runs per configuration (at least 20)")
        ->capture_default_str();
    sortBench->add_option("--seed", cl.sortBench.seed, "seed of the random keys")
        ->capture_default_str()
        ->check(seedRange);
    sortBench->add_option("--csv", cl.sortBench.csv, "write the results to FILE.csv")->check(nonEmptyPath);

    // bench
    CLI::App* bench = app.add_subcommand("bench", "time the simulation headless over configurations");
    addGlobalFlags(bench, cl.global, listDevices);
    BenchOptions& bo = cl.bench;
    std::string bBoids = "1e5,1e6", bFrames = "300", bWarmup = "60", bNaiveMax, bWarmupMs = "1000";
    bench->add_option("--boids", bBoids, "boid counts, comma-separated")->capture_default_str();
    ConfigFlags benchConfig;
    benchConfig.mode = "naive,scattered,coherent";
    benchConfig.cellWidth = "r,2r";
    sim::Config benchBase;
    addConfigFlags(bench, benchBase, benchConfig, true);
    bench->add_option("--frames", bFrames, "measured frames per configuration")->capture_default_str();
    bench->add_option("--warmup", bWarmup, "frames before measuring")->capture_default_str();
    bench
        ->add_option("--warmup-ms", bWarmupMs,
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
    std::string bDraw = "auto";
    bench
        ->add_option(
            "--draw", bDraw,
            "with --render: drawing paths, comma-separated (compute, points, glyphs, auto: glyphs up "
            "to " +
                std::to_string(render::glyphsUpTo) + " boids, else the fastest the device has)")
        ->capture_default_str();
    std::string bColor = "heading";
    CLI::Option* bColorOption =
        bench->add_option("--color", bColor, "with --render: colour by speed, heading, cell or order")
            ->capture_default_str();
    bench->add_option("--naive-max", bNaiveMax,
                      "skip naive above this many boids [2e6, 5e4 on a CPU device]");

    // What --help shows for each option's value: counts as numbers, lists as lists.
    const std::map<std::string, std::string> valueNames = {{"--boids", "N"},
                                                           {"--frames", "N"},
                                                           {"--warmup", "N"},
                                                           {"--steps", "N"},
                                                           {"--runs", "N"},
                                                           {"--warmup-ms", "MS"},
                                                           {"--naive-max", "N"},
                                                           {"--n", "N,..."},
                                                           {"--bits", "BITS,..."},
                                                           {"--mode", "MODE"},
                                                           {"--cell-width", "r|2r"},
                                                           {"--capture", "FILE.csv"},
                                                           {"--screenshot", "FILE.png"},
                                                           {"--load-state", "FILE"},
                                                           {"--save-state", "FILE.npy"},
                                                           {"--csv", "FILE.csv"},
                                                           {"--json", "FILE.json"},
                                                           {"--density", "D"},
                                                           {"--preset", "NAME"},
                                                           {"--steps-before", "N"},
                                                           {"--draw", "PATH"},
                                                           {"--present-mode", "MODE"},
                                                           {"--rows", "ROWS"},
                                                           {"--seed", "S"},
                                                           {"--device", "N"},
                                                           {"--window", "WxH"},
                                                           {"--grid-build", "BUILD"},
                                                           {"--cell-order", "linear|morton"},
                                                           {"--predator", "X,Y,Z"},
                                                           {"--input-script", "FILE"},
                                                           {"--color", "MODE"},
                                                           {"--algorithm", "ALGORITHM,..."}};
    for (CLI::App* a : {&app, step, sortBench, bench})
        for (CLI::Option* o : a->get_options()) {
            const auto it = valueNames.find(o->get_name());
            if (it != valueNames.end()) o->type_name(it->second);
        }
    if (CLI::Option* o = bench->get_option_no_throw("--boids")) o->type_name("N,...");
    if (CLI::Option* o = bench->get_option_no_throw("--mode")) o->type_name("MODE,...");
    if (CLI::Option* o = bench->get_option_no_throw("--cell-width")) o->type_name("r|2r,...");
    if (CLI::Option* o = bench->get_option_no_throw("--draw")) o->type_name("PATH,...");
    if (CLI::Option* o = bench->get_option_no_throw("--grid-build")) o->type_name("BUILD,...");
    if (CLI::Option* o = bench->get_option_no_throw("--cell-order")) o->type_name("linear|morton,...");

    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) { // --help, --version
        cl.command = Command::Exit;
        cl.exitCode = app.exit(e);
        return cl;
    } catch (const CLI::ExtrasError&) {
        throw InputError(unexpectedArgument(app, {step, bench, sortBench}));
    } catch (const CLI::ParseError& e) {
        std::string what = e.what();
        for (char& ch : what)
            if (ch == '\n') ch = ' ';
        throw InputError(what);
    }
    const uint64_t maxBoids = 0xffffffffu;
    refuseEmptyValues({&app, step, sortBench, bench});
    for (const CLI::App* command : {step, sortBench, bench})
        if (command->parsed()) {
            refuseDemoOptionsBefore(command, demoOnly);
            if (app.get_option("--device")->count() && command->get_option("--device")->count())
                throw InputError("--device is given both before and after '" + command->get_name() +
                                 "': give it once");
        }
    if (listDevices) {
        cl.command = Command::ListDevices;
    } else if (step->parsed()) {
        cl.command = Command::Step;
        if (!stepBoids.empty()) so.boids = uint32_t(parseCount(stepBoids, "--boids", maxBoids));
        if (so.boids && !so.loadState.empty())
            throw InputError("give either --boids or --load-state, not both");
        if (step->get_option("--seed")->count() && !so.loadState.empty())
            throw InputError("--seed has no effect with --load-state (the state file is the start)");
        if (!so.boids && so.loadState.empty()) so.boids = 20000;
        so.steps = parseCount(stepSteps, "--steps", 1ull << 40);
        so.sim = parseConfig(stepConfig, so.sim);
        refuseGridOptionsWithoutGrid(step, so.sim.mode == sim::Mode::Naive);
        if (predatorOption->count())
            parsePredator(stepPredator, so.sim.params);
        else if (predatorRadius->count() || predatorScale->count())
            throw InputError(std::string(predatorRadius->count() ? "--predator-radius" : "--predator-scale") +
                             " needs --predator X,Y,Z (without a predator it has no effect)");
        // With a state file the count is known once it is read (commands.cpp checks L then).
        if (so.loadState.empty()) so.sim = sim::configFor(so.sim, so.boids);
        checkParamsBeforeTheCount(so.sim);
    } else if (sortBench->parsed()) {
        cl.command = Command::SortBench;
        cl.sortBench.sizes = parseCountList(sbSizes, "--n", 0xffffffffu);
        cl.sortBench.bits = parseCountList(sbBits, "--bits", 32);
        cl.sortBench.algorithms.clear();
        for (const std::string& a : splitList(sbAlgorithms))
            cl.sortBench.algorithms.push_back(algorithmFromText(a));
        cl.sortBench.runs = uint32_t(parseCount(sbRuns, "--runs", 100000));
        cl.sortBench.warmupMs = parseCountOrZero(sbWarmupMs, "--warmup-ms", 600000);
    } else if (bench->parsed()) {
        cl.command = Command::Bench;
        bo.configs = parseConfigs(benchConfig, benchBase);
        bo.boids = parseCountList(bBoids, "--boids", maxBoids);
        refuseGridOptionsWithoutGrid(bench, std::ranges::all_of(bo.configs, [](const sim::Config& c) {
                                         return c.mode == sim::Mode::Naive;
                                     }));
        bo.frames = parseCount(bFrames, "--frames", 1ull << 32);
        bo.warmup = parseCountOrZero(bWarmup, "--warmup", 1ull << 32);
        bo.warmupMs = parseCountOrZero(bWarmupMs, "--warmup-ms", 600000);
        if (!bNaiveMax.empty()) bo.naiveLimit = double(parseCount(bNaiveMax, "--naive-max", maxBoids));
        if (bDraw != "auto") {
            if (!bo.render) throw InputError("--draw needs --render (without it nothing is drawn)");
            for (const std::string& d : splitList(bDraw))
                bo.drawPaths.push_back(drawPathFromText(d, "--draw"));
        }
        if (bColorOption->count() && !bo.render)
            throw InputError("--color needs --render (without it nothing is drawn)");
        bo.color = colorModeFromText(bColor);
        for (uint32_t n : bo.boids) checkParams(sim::configFor(bo.configs.front(), n).params);
    } else {
        cl.command = Command::Demo;
        demo.boids = uint32_t(parseCount(demoBoids, "--boids", maxBoids));
        if (demoBoidsOption->count() && !demo.loadState.empty())
            throw InputError("give either --boids or --load-state, not both");
        demo.sim = parseConfig(demoConfig, demo.sim);
        if (!demo.preset.empty()) startFromPreset(app, demo);
        demo.stepsBefore = parseCountOrZero(demoStepsBefore, "--steps-before", 1ull << 40);
        if (!demoFrames.empty()) demo.frames = parseCount(demoFrames, "--frames", 1ull << 40);
        demo.warmup = parseCountOrZero(demoWarmup, "--warmup", 1ull << 40);
        if (demoWarmupOption->count() && demo.capture.empty())
            throw InputError("--warmup needs --capture (it counts the frames before the capture starts)");
        if (!demoWindow.empty()) parseWindowSize(demoWindow, demo.width, demo.height);
        if (demo.presentMode != "fifo" && demo.presentMode != "mailbox" && demo.presentMode != "immediate")
            throw InputError("--present-mode: '" + demo.presentMode + "' must be fifo, mailbox or immediate");
        if (!demo.capture.empty() && demo.frames == 0)
            throw InputError("--capture needs --frames N (the number of frames to record "
                             "after --warmup)");
        demo.drawPath = drawPathFromText(demoDraw, "--draw");
        demo.color = colorModeFromText(demoColor);
        if (demo.loadState.empty()) demo.sim = sim::configFor(demo.sim, demo.boids);
        checkParamsBeforeTheCount(demo.sim);
        if (randomStart && !demo.loadState.empty())
            throw InputError("--random-start has no effect with --load-state");
        // The formed flock where no other flock is asked for and it fits: its count, its L.
        demo.formedStart = !randomStart && demo.loadState.empty() && !demoBoidsOption->count() &&
                           !app.get_option("--seed")->count() && demo.boids == formedFlockBoids &&
                           demo.sim.params.domainHalf == sim::Params{}.domainHalf;
    }
    return cl;
}

} // namespace app
