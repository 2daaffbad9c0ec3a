#pragma once
// What the commands' flags share (cli_*.cpp), inside the command line only: checks of values as
// CLI11 reads them, the global flags, the simulation's configuration flags, and the names --help
// shows for values.

#include "app/run.h"
#include "sim/config.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace app {

// The most boids a count flag takes.
constexpr uint64_t maxBoids = 0xffffffffu;

// A whole number from 0 to max, checked before CLI11 converts it.
CLI::Validator wholeNumber(uint64_t max);
extern const CLI::Validator seedRange;    // --seed: any 64-bit number
extern const CLI::Validator floatNumber;  // a float flag's text: a number within a float's range
extern const CLI::Validator nonEmptyPath; // an output's path

// Switches for experts, listed apart from what users need in --help.
extern const char* const expertGroup;

// Accepted before or after the command.
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

// The flags' texts that need parsing once the command is known.
struct ParamFlags {
    CLI::Option *domainHalf = nullptr, *densityOption = nullptr;
    std::string density;
};

// The flags of the simulation's configuration (sim::Config), declared alike on every command that
// steps a flock and kept as texts until the command is known. bench takes a list for each choice.
struct ConfigFlags {
    std::string mode = "coherent", cellWidth = "r", rows = "auto", gridBuild = "radix", cellOrder = "linear";
    ParamFlags params;
};

void addConfigFlags(CLI::App* app, sim::Config& config, ConfigFlags& flags, bool lists);
// The one configuration the flags' texts give (the demo, step, and each of bench's).
sim::Config parseConfig(const ConfigFlags& flags, const sim::Config& base);
// bench: every combination of the lists, modes outermost.
std::vector<sim::Config> parseConfigs(const ConfigFlags& flags, const sim::Config& base);

// A grid's cell width, rows, build or cell order given where no step builds a grid has no effect:
// refused.
void refuseGridOptionsWithoutGrid(const CLI::App* command, bool naiveOnly);

// What --help shows for each option's value of `app`: counts as numbers, lists as lists; `own`
// names the command's own options' values, and bench's lists.
void nameValues(CLI::App* app, const std::map<std::string, std::string>& own = {});

} // namespace app
