#include "app/cli/cli_commands.h"

#include "app/cli/cli_values.h"

namespace app {

using io::InputError;

void addStepFlags(CLI::App* step, StepOptions& so, StepFlags& flags) {
    flags.app = step;
    step->add_option("--boids", flags.boids, "number of boids of a random start");
    step->add_option("--seed", so.seed, "seed of the random start")->capture_default_str()->check(seedRange);
    step->add_option("--load-state", so.loadState, "start from a state file (NumPy, as --save-state writes)");
    step->add_option("--save-state", so.saveState, "write the final state to FILE.npy")->check(nonEmptyPath);
    step->add_option("--steps", flags.steps, "number of steps")->capture_default_str();
    addConfigFlags(step, so.sim, flags.config, false);
    step->add_flag("--quiet", so.quiet, "print nothing on success");
    flags.predatorOption =
        step->add_option("--predator", flags.predator,
                         "a predator at X,Y,Z: boids within its radius flee (wrapped into the domain)");
    flags.predatorRadius =
        step->add_option("--predator-radius", so.sim.params.predatorRadius, "with --predator: its radius")
            ->check(floatNumber)
            ->capture_default_str();
    flags.predatorScale =
        step->add_option("--predator-scale", so.sim.params.predatorScale,
                         "with --predator: the push a step, S (1 - distance / radius), on boids within it")
            ->check(floatNumber)
            ->capture_default_str();
    nameValues(step, {{"--steps", "N"}, {"--save-state", "FILE.npy"}, {"--predator", "X,Y,Z"}});
}

void finishStep(const StepFlags& flags, StepOptions& so) {
    if (!flags.boids.empty()) so.boids = uint32_t(parseCount(flags.boids, "--boids", maxBoids));
    if (so.boids && !so.loadState.empty()) throw InputError("give either --boids or --load-state, not both");
    if (flags.app->get_option("--seed")->count() && !so.loadState.empty())
        throw InputError("--seed has no effect with --load-state (the state file is the start)");
    if (!so.boids && so.loadState.empty()) so.boids = 20000;
    so.steps = parseCount(flags.steps, "--steps", 1ull << 40);
    so.sim = parseConfig(flags.config, so.sim);
    refuseGridOptionsWithoutGrid(flags.app, so.sim.mode == sim::Mode::Naive);
    if (flags.predatorOption->count())
        parsePredator(flags.predator, so.sim.params);
    else if (flags.predatorRadius->count() || flags.predatorScale->count())
        throw InputError(
            std::string(flags.predatorRadius->count() ? "--predator-radius" : "--predator-scale") +
            " needs --predator X,Y,Z (without a predator it has no effect)");
    // With a state file the count is known only once the file is read, and step.cpp checks L then.
    if (so.loadState.empty()) so.sim = configForCount(so.sim, so.boids, true);
    checkParamsBeforeTheCount(so.sim);
}

} // namespace app
