// Errors below the command line are data, and each caller words them: the command line names its
// flags, the panel its sliders. The density is held in sim::Config alone and turned into L in one place.

#include "app/cli/cli.h"
#include "app/cli/cli_values.h"
#include "app/demo/panel.h"
#include "gpu/context.h"
#include "sim/config.h"
#include "sim/flock.h"

#include <gtest/gtest.h>

#include <cmath>

namespace {

// sim names no flag: which parameter, the bound it broke and the bound's values are data, and each
// caller words them with its own names.
TEST(Errors, AParameterOutOfBoundsIsNamedByItsCaller) {
    sim::Params p;
    p.dt = 100;
    p.maxSpeed = 10;
    const std::optional<sim::ParamProblem> step = sim::validateParams(p);
    ASSERT_TRUE(step);
    EXPECT_EQ(step->bound, sim::Bound::StepWithinDomain);
    EXPECT_EQ(step->value, 1000);
    EXPECT_EQ(step->max, 100);
    EXPECT_EQ(
        sim::describeProblem(*step, app::paramFlags),
        "--dt times --max-speed must be at most --domain-half (no boid crosses half the domain in a step)");
    EXPECT_EQ(sim::describeProblem(*step, app::sliderNames),
              "dt times max speed must be at most domain half L (no boid crosses half the domain in a step)");

    p = sim::Params{};
    p.alignmentScale = 2000;
    const std::optional<sim::ParamProblem> scale = sim::validateParams(p);
    ASSERT_TRUE(scale);
    EXPECT_EQ(scale->param, sim::Param::AlignmentScale);
    EXPECT_EQ(scale->min, -1000);
    EXPECT_EQ(scale->max, 1000);
    EXPECT_EQ(sim::describeProblem(*scale, app::paramFlags),
              "--alignment-scale must be a number between -1000 and 1000");
    EXPECT_EQ(sim::describeProblem(*scale, app::sliderNames),
              "alignment scale must be a number between -1000 and 1000");

    p = sim::Params{};
    p.domainHalf = 2e6f;
    EXPECT_EQ(sim::describeProblem(*sim::validateParams(p), app::paramFlags),
              "--domain-half must be at most 1e6");
    p.domainHalf = -1;
    EXPECT_EQ(sim::describeProblem(*sim::validateParams(p), app::sliderNames),
              "domain half L must be a positive number");
}

// A flock too large and a refused device option say which value; the command line names its flag,
// the panel its field.
TEST(Errors, AFlockTooLargeAndARefusedOptionAreNamedByTheirCaller) {
    const sim::FlockTooLarge large(5000000, 1200,
                                   "needs 900 MiB of GPU memory; a GPU can hold about 1200 boids");
    EXPECT_EQ(app::errorText(large),
              "--boids 5000000 needs 900 MiB of GPU memory; a GPU can hold about 1200 boids");
    EXPECT_EQ(app::panelErrorText(large),
              "boids 5000000 needs 900 MiB of GPU memory; a GPU can hold about 1200 boids");
    const gpu::OptionRefused device(gpu::ContextOption::Device,
                                    "3: there are only 2 devices (devices count from 0)");
    EXPECT_EQ(app::errorText(device),
              "--device 3: there are only 2 devices (devices count from 0); see --list-devices");
    EXPECT_EQ(app::errorText(io::InputError("as it reads")), "as it reads");
}

// The checks that depend on L come last, so that a caller who does not know L yet sets aside only
// those: a density sets L once a state file's count is read, and the command line checks the rest
// before (checkParamsBeforeTheCount), with no stand-in L.
TEST(Errors, TheChecksThatDependOnLComeLast) {
    sim::Params p;
    p.domainHalf = -1;
    p.cohesionScale = 5000;
    ASSERT_TRUE(sim::validateParams(p));
    EXPECT_EQ(sim::validateParams(p)->param, sim::Param::CohesionScale);
    p.cohesionScale = 0;
    EXPECT_TRUE(sim::dependsOnDomain(*sim::validateParams(p)));
    p = sim::Params{};
    p.dt = 100;
    p.maxSpeed = 10;
    EXPECT_TRUE(sim::dependsOnDomain(*sim::validateParams(p)));
    p.predatorRadius = -1;
    EXPECT_FALSE(sim::dependsOnDomain(*sim::validateParams(p)));

    // L unknown until the state is read: a step that only a small L refuses waits for the count, any
    // other problem is refused at once.
    sim::Config config{.density = sim::labDensity};
    config.params.dt = 100;
    config.params.maxSpeed = 10;
    EXPECT_NO_THROW(app::checkParamsBeforeTheCount(config));
    config.params.alignmentScale = 2000;
    EXPECT_THROW(app::checkParamsBeforeTheCount(config), io::InputError);
    config.params.alignmentScale = 0.1f;
    config.density = 0;
    EXPECT_THROW(app::checkParamsBeforeTheCount(config), io::InputError) << "L given: checked now";
}

// The density is one value of sim::Config: configFor turns it into L for any count (domainHalfFor, the
// one function), keeps it for the next count, and a count whose L fails a check says so as data.
TEST(Density, HeldInTheConfigAndTurnedIntoLInOnePlace) {
    const sim::Config held{.density = sim::labDensity};
    const sim::Config million = sim::configFor(held, 1000000);
    EXPECT_NEAR(million.params.domainHalf, 100, 1e-3);
    EXPECT_EQ(million.density, sim::labDensity) << "a reset to a new count keeps it";
    EXPECT_NEAR(sim::configFor(million, 8000000).params.domainHalf, 200, 1e-3);
    EXPECT_NEAR(sim::densityOf(1000000, million.params.domainHalf), sim::labDensity, 1e-9);
    EXPECT_EQ(sim::configFor(sim::Config{}, 8000000).params.domainHalf, 100) << "no density: L as given";

    const sim::Config dense{.density = 1e6};
    try {
        sim::configFor(dense, 1);
        ADD_FAILURE() << "an L below dt x max speed was taken";
    } catch (const sim::DensityError& e) {
        EXPECT_EQ(e.boidCount, 1u);
        EXPECT_EQ(e.problem.bound, sim::Bound::StepWithinDomain);
        EXPECT_EQ(app::errorText(e),
                  "--density 1e+06 with 1 boid gives L = 0.005, but --dt times --max-speed must "
                  "be at most --domain-half (no boid crosses half the domain in a step)");
        EXPECT_EQ(app::panelErrorText(e).rfind(
                      "keeping the density 1e+06 with 1 boid gives L = 0.005, but dt times", 0),
                  0u);
    }
}

} // namespace
