#pragma once
// What the commands' flag declarations (cli_*.cpp) share, known only to the command line: validators
// that check a value's text before CLI11 converts it, the global flags, the flags of the simulation's
// configuration, and the names that --help shows for values.

#include "app/run.h"
#include "sim/config.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace app {

// The largest boid count a flag accepts, because a flock counts its boids in 32 bits.
constexpr uint64_t maxBoids = 0xffffffffu;

// A whole number from 0 to max. It is checked before CLI11 converts it, because CLI11 would read "-1"
// as a huge unsigned number.
CLI::Validator wholeNumber(uint64_t max);
extern const CLI::Validator seedRange;    // any 64-bit number, for --seed
extern const CLI::Validator floatNumber;  // a number within a float's range
extern const CLI::Validator nonEmptyPath; // an output's path, which must not be empty

// The group in which --help lists the switches for experts, apart from what most users need.
extern const char* const expertGroup;

// The global flags, which are accepted both before and after the command's name.
void addGlobalFlags(CLI::App* app, GlobalOptions& g, bool& listDevices);

// The flocking rules' flags, one for each of these fields of sim::Params. The flag's name is the
// parameter's entry in paramFlags (cli_values.h), so that it is spelled once. The domain's size L
// (--domain-half) is declared apart, because --density may set it instead.
struct RuleFlag {
    sim::Param param;
    float sim::Params::*field;
    const char* help;
};
extern const RuleFlag ruleFlags[8];

// The flags that set the domain's size L. Their texts are read only once the command is known,
// because --density and --domain-half exclude each other.
struct ParamFlags {
    CLI::Option *domainHalf = nullptr, *densityOption = nullptr;
    std::string density;
};

// The flags of the simulation's configuration (sim::Config). Every command that steps a flock declares
// them alike and keeps their texts until the command is known, because bench takes a comma-separated
// list for each choice where the other commands take one value.
struct ConfigFlags {
    std::string mode = "coherent", cellWidth = "r", rows = "auto", gridBuild = "radix", cellOrder = "linear";
    ParamFlags params;
};

void addConfigFlags(CLI::App* app, sim::Config& config, ConfigFlags& flags, bool lists);
// The one configuration that the flags' texts give: the demo's, step's, or one of bench's.
sim::Config parseConfig(const ConfigFlags& flags, const sim::Config& base);
// For bench: a configuration for every combination of the lists, with the modes outermost.
std::vector<sim::Config> parseConfigs(const ConfigFlags& flags, const sim::Config& base);

// Refuses a grid's cell width, rows, build or cell order where no step builds a grid (naive mode
// only), because there the option would have no effect and the user should know.
void refuseGridOptionsWithoutGrid(const CLI::App* command, bool naiveOnly);

// Sets the names that --help shows for the values of the options of `app`, so that a count reads as
// N and a list as a list. `own` names the values of the command's own options, and bench's lists.
void nameValues(CLI::App* app, const std::map<std::string, std::string>& own = {});

} // namespace app
