#include "app/cli/cli.h"

#include "app/cli/cli_commands.h"
#include "app/cli/cli_values.h"
#include "app/run.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace app {
namespace {

using io::InputError;

// CLI11 hands an option given before the command's name to the root, that is the demo, which does
// not run when a command does. Such an option is refused, so that it is not silently ignored.
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

// CLI11 counts `--boids ""` as given, but the empty text would later read as "not given" or as an
// empty list. Every value given must therefore have something in it, but for an option whose value may
// be left out (--shaders), where CLI11 gives an empty value for one left out.
void refuseEmptyValues(const std::vector<const CLI::App*>& apps) {
    for (const CLI::App* a : apps)
        for (const CLI::Option* o : a->get_options())
            if (o->get_type_size_max() > 0 && o->get_expected_min() > 0)
                for (const std::string& value : o->results())
                    if (value.empty()) throw InputError(o->get_name() + ": the value is empty");
}

// CLI11's own message ("The following arguments were not expected: 100 --boid") lists what is left
// over, last first, and offers no fix. This one names the first argument left over and the command
// or option it most likely meant.
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

// Adds a command with the global flags, which a command accepts as the root does.
CLI::App* addCommand(CLI::App& app, const char* name, const char* description, GlobalOptions& global,
                     bool& listDevices) {
    CLI::App* command = app.add_subcommand(name, description);
    addGlobalFlags(command, global, listDevices);
    return command;
}

// Runs CLI11's parse. It returns the exit code where --help or --version has answered, and nothing
// otherwise. CLI11's errors become an InputError of one line, as every other bad input does.
std::optional<int> parse(CLI::App& app, int argc, const char* const* argv,
                         const std::vector<const CLI::App*>& commands) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) { // --help or --version has printed
        return app.exit(e);
    } catch (const CLI::ExtrasError&) {
        throw InputError(unexpectedArgument(app, commands));
    } catch (const CLI::ParseError& e) {
        std::string what = e.what();
        for (char& ch : what)
            if (ch == '\n') ch = ' ';
        throw InputError(what);
    }
    return std::nullopt;
}

// The checks that no single command can make: empty values, the demo's options given before a
// command, and --device given twice.
void refuseMisplacedFlags(const CLI::App& app, const DemoFlags& demo,
                          const std::vector<const CLI::App*>& commands) {
    std::vector<const CLI::App*> apps = {&app};
    apps.insert(apps.end(), commands.begin(), commands.end());
    refuseEmptyValues(apps);
    for (const CLI::App* command : commands)
        if (command->parsed()) {
            refuseDemoOptionsBefore(command, demo.only);
            if (app.get_option("--device")->count() && command->get_option("--device")->count())
                throw InputError("--device is given both before and after '" + command->get_name() +
                                 "': give it once");
        }
}

} // namespace

CommandLine parseCommandLine(int argc, const char* const* argv) {
    CommandLine cl;
    CLI::App app{
        "vkboids: a Vulkan compute boids simulator. Without a command it runs the interactive demo."};
    app.set_version_flag("--version", std::string("vkboids ") + VKBOIDS_VERSION + " (" + buildCommit() + ")");
    app.require_subcommand(0, 1);
    bool listDevices = false;
    addGlobalFlags(&app, cl.global, listDevices);
    DemoFlags demo;
    addDemoFlags(&app, cl.demo, cl.harness, demo);
    StepFlags step;
    addStepFlags(addCommand(app, "step", "run K steps headless and write the state", cl.global, listDevices),
                 cl.step, step);
    SortBenchFlags sortBench;
    addSortBenchFlags(
        addCommand(app, "sort-bench", "check and time the GPU radix sort", cl.global, listDevices),
        cl.sortBench, sortBench);
    BenchFlags bench;
    addBenchFlags(
        addCommand(app, "bench", "time the simulation headless over configurations", cl.global, listDevices),
        cl.bench, bench);

    // A mistyped command is compared with the commands in this order, and of equally close ones the
    // first wins.
    if (const std::optional<int> exitCode = parse(app, argc, argv, {step.app, bench.app, sortBench.app})) {
        cl.command = Command::Exit;
        cl.exitCode = *exitCode;
        return cl;
    }
    refuseMisplacedFlags(app, demo, {step.app, sortBench.app, bench.app});
    if (listDevices) {
        cl.command = Command::ListDevices;
    } else if (step.app->parsed()) {
        cl.command = Command::Step;
        finishStep(step, cl.step);
    } else if (sortBench.app->parsed()) {
        cl.command = Command::SortBench;
        finishSortBench(sortBench, cl.sortBench);
    } else if (bench.app->parsed()) {
        cl.command = Command::Bench;
        finishBench(bench, cl.bench);
    } else {
        cl.command = Command::Demo;
        finishDemo(demo, cl.demo);
    }
    return cl;
}

} // namespace app
