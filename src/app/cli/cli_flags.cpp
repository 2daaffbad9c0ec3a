#include "app/cli/cli_flags.h"

#include "app/cli/cli_values.h"
#include "gpu/shaders.h"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace app {

using io::InputError;

// CLI11 reads "-1" into an unsigned integer as 2^64 - 1, and its own range check would print a bound
// of 300 digits.
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

// A float flag's text is checked before CLI11 converts it, because CLI11's own error ("Could not
// convert: --dt = abc") reads unlike every other flag's.
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

// An output given as '' would read as not given, and the run would then write nothing without a word.
const CLI::Validator nonEmptyPath(
    [](std::string& path) { return path.empty() ? std::string("the path is empty") : std::string(); }, "");

const char* const expertGroup = "Expert";

void addGlobalFlags(CLI::App* app, GlobalOptions& g, bool& listDevices) {
    app->add_flag("--validation", g.validation,
                  "Khronos validation (core and synchronization); any error makes the exit code 3");
    app->add_option("--device", g.device, "use device N (see --list-devices)")->check(wholeNumber(INT32_MAX));
    app->add_flag("--pipeline-stats", g.pipelineStats,
                  "print the driver's statistics (registers, shared memory, ...) of every compute pipeline");
    app->add_flag("--list-devices", listDevices, "list the Vulkan devices and exit");
    app->add_option_function<std::string>(
           "--shaders",
           [&g](const std::string& folder) {
               g.shaders = folder.empty() ? std::string(gpu::builtShaderFolder()) : folder;
               if (folder.empty() && !std::filesystem::is_directory(g.shaders))
                   throw InputError("--shaders: the source tree's shaders folder (" + g.shaders +
                                    ") is not here; give the folder: --shaders DIR");
           },
           "compile the GLSL shaders from DIR (without DIR, the source tree's shaders/) instead of using the "
           "built-in ones; the demo compiles them again whenever a file there is saved")
        ->expected(0, 1)
        ->type_name("[DIR]");
}

const RuleFlag ruleFlags[8] = {
    {sim::Param::CohesionRadius, &sim::Params::cohesionRadius, "r1: cohesion neighbourhood radius"},
    {sim::Param::SeparationRadius, &sim::Params::separationRadius, "r2: separation radius"},
    {sim::Param::AlignmentRadius, &sim::Params::alignmentRadius, "r3: alignment radius"},
    {sim::Param::CohesionScale, &sim::Params::cohesionScale, "s1: cohesion strength"},
    {sim::Param::SeparationScale, &sim::Params::separationScale, "s2: separation strength"},
    {sim::Param::AlignmentScale, &sim::Params::alignmentScale, "s3: alignment strength"},
    {sim::Param::MaxSpeed, &sim::Params::maxSpeed, "speed limit"},
    {sim::Param::Dt, &sim::Params::dt, "time step"}};

namespace {

void addParamFlags(CLI::App* app, sim::Params& p, ParamFlags& flags) {
    for (const RuleFlag& rule : ruleFlags)
        app->add_option(io::nameIn(paramFlags, rule.param), p.*rule.field, rule.help)
            ->check(floatNumber)
            ->capture_default_str();
    flags.domainHalf =
        app->add_option("--domain-half", p.domainHalf, "L: the domain is the periodic cube [-L, L)^3")
            ->check(floatNumber)
            ->capture_default_str();
    flags.densityOption = app->add_option(
        "--density", flags.density,
        "boids per unit^3: sets L from the boid count (the lab's is 0.125: 1M boids at L = 100)");
}

// The density given, or 0 where --density was not given. Throws where --domain-half is given too or
// the density is not a positive number.
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

const char* const rowsHelp =
    "the rows the search scans, each over its x window: auto (by density), cells (rows one cell high, "
    "windows in whole cells), or rows a full, half or quarter cell high and deep, windows in eighths";

const char* const gridBuildHelp =
    "how grid steps order boids by cell: radix (a radix sort of the keys) or counting (a deterministic "
    "counting sort)";
const char* const cellOrderHelp =
    "how the sort key numbers cells: linear (x + dim (y + dim z)) or morton (Z-order: x, y, z bits "
    "interleaved; rows one cell high)";

// The names --help shows for the values of the options that more than one command has, so that a
// count reads as N and a list as a list. A command names its own options' values (nameValues).
const std::map<std::string, std::string> valueNames = {
    {"--boids", "N"},         {"--frames", "N"},         {"--warmup", "N"},
    {"--warmup-ms", "MS"},    {"--mode", "MODE"},        {"--cell-width", "r|2r"},
    {"--load-state", "FILE"}, {"--csv", "FILE.csv"},     {"--density", "D"},
    {"--draw", "PATH"},       {"--rows", "ROWS"},        {"--seed", "S"},
    {"--device", "N"},        {"--grid-build", "BUILD"}, {"--cell-order", "linear|morton"},
    {"--color", "MODE"}};

} // namespace

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

sim::Config parseConfig(const ConfigFlags& flags, const sim::Config& base) {
    sim::Config c = base;
    c.mode = modeFromText(flags.mode, "--mode");
    c.cellWidth = cellWidthFromText(flags.cellWidth);
    c.rows = valueFromText(sim::rowsNames, flags.rows, "--rows");
    c.gridBuild = valueFromText(sim::gridBuildNames, flags.gridBuild, "--grid-build");
    c.cellOrder = valueFromText(sim::cellOrderNames, flags.cellOrder, "--cell-order");
    refuseMortonThinRows({c.cellOrder}, c.rows);
    c.density = densityFrom(flags.params);
    return c;
}

namespace {

// Refuses a list flag that names one value twice, after turning each item into its value by `parse`,
// so that "1e6,1000000" counts as a repeat.
template <typename Parse>
void refuseRepeatedItems(const std::string& text, const std::string& flag, Parse parse) {
    const std::vector<std::string> items = splitList(text);
    std::vector<decltype(parse(text))> values;
    for (const std::string& item : items) values.push_back(parse(item));
    refuseRepeats(values, items, flag);
}

} // namespace

std::vector<sim::Config> parseConfigs(const ConfigFlags& flags, const sim::Config& base) {
    refuseRepeatedItems(flags.mode, "--mode", [](const std::string& t) { return modeFromText(t, "--mode"); });
    refuseRepeatedItems(flags.cellWidth, "--cell-width", cellWidthFromText);
    refuseRepeatedItems(flags.cellOrder, "--cell-order", [](const std::string& t) {
        return valueFromText(sim::cellOrderNames, t, "--cell-order");
    });
    refuseRepeatedItems(flags.gridBuild, "--grid-build", [](const std::string& t) {
        return valueFromText(sim::gridBuildNames, t, "--grid-build");
    });
    std::vector<sim::Config> configs;
    for (const std::string& mode : splitList(flags.mode))
        for (const std::string& width : splitList(flags.cellWidth))
            for (const std::string& order : splitList(flags.cellOrder))
                for (const std::string& build : splitList(flags.gridBuild)) {
                    sim::Config c = parseConfig({mode, width, flags.rows, build, order, flags.params}, base);
                    // A naive step builds no grid, so whatever the grid's lists hold it runs once, with
                    // the default grid choices recorded.
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

void refuseGridOptionsWithoutGrid(const CLI::App* command, bool naiveOnly) {
    if (!naiveOnly) return;
    for (const char* flag : {"--cell-width", "--rows", "--grid-build", "--cell-order"})
        if (command->get_option(flag)->count())
            throw InputError(std::string(flag) + " has no effect in naive mode (it builds no grid)");
}

void nameValues(CLI::App* app, const std::map<std::string, std::string>& own) {
    for (CLI::Option* o : app->get_options()) {
        const auto it = valueNames.find(o->get_name());
        if (it != valueNames.end()) o->type_name(it->second);
        const auto ownName = own.find(o->get_name());
        if (ownName != own.end()) o->type_name(ownName->second);
    }
}

} // namespace app
