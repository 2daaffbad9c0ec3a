// Command-line parsing: every command's options, and bad input refused in one line naming the problem.

#include "app/cli/cli.h"
#include "app/values.h"
#include "cli_test.h"

#include <gtest/gtest.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;

using test::parse;
using test::parseError;

TEST(Cli, Counts) {
    EXPECT_EQ(app::parseCount("100000", "--boids", 1ull << 32), 100000u);
    EXPECT_EQ(app::parseCount("1e6", "--boids", 1ull << 32), 1000000u);
    EXPECT_EQ(app::parseCount("2.5e5", "--boids", 1ull << 32), 250000u);
    EXPECT_THROW(app::parseCount("0", "--boids", 10), io::InputError);
    EXPECT_THROW(app::parseCount("-5", "--boids", 10), io::InputError);
    EXPECT_THROW(app::parseCount("1.5", "--boids", 10), io::InputError);
    EXPECT_THROW(app::parseCount("ten", "--boids", 10), io::InputError);
    EXPECT_THROW(app::parseCount("", "--boids", 10), io::InputError);
    EXPECT_THROW(app::parseCount("11", "--boids", 10), io::InputError);
    EXPECT_THROW(app::parseCount("nan", "--boids", 10), io::InputError);
    EXPECT_EQ(app::parseCountList("1e5,1e6", "--boids", 1ull << 32),
              (std::vector<uint32_t>{100000, 1000000}));
    EXPECT_THROW(app::parseCountList("1e5,,1e6", "--boids", 1ull << 32), io::InputError);
    EXPECT_THROW(app::parseCountList("1e5,", "--boids", 1ull << 32), io::InputError);
}

// One field of each of bench's configurations.
template <typename T> std::vector<T> benchField(const app::CommandLine& cl, T sim::Config::*field) {
    std::vector<T> values;
    for (const sim::Config& c : cl.bench.configs) values.push_back(c.*field);
    return values;
}

TEST(Cli, CommandsAndOptions) {
    app::CommandLine cl = parse({"step", "--boids", "1e5", "--steps", "100", "--mode", "coherent",
                                 "--cell-width", "2r", "--cohesion-radius", "4", "--validation"});
    EXPECT_EQ(cl.command, app::Command::Step);
    EXPECT_EQ(cl.step.boids, 100000u);
    EXPECT_EQ(cl.step.steps, 100u);
    EXPECT_EQ(cl.step.sim.mode, sim::Mode::Coherent);
    EXPECT_EQ(cl.step.sim.cellWidth, sim::CellWidth::TwoReach);
    EXPECT_FLOAT_EQ(cl.step.sim.params.cohesionRadius, 4);
    EXPECT_TRUE(cl.global.validation);

    cl = parse({"--validation", "--boids", "5000", "--frames", "10", "--present-mode", "immediate"});
    EXPECT_EQ(cl.command, app::Command::Demo);
    EXPECT_EQ(cl.demo.sim.rows, sim::Rows::Auto);
    EXPECT_EQ(cl.demo.boids, 5000u);
    EXPECT_EQ(cl.demo.frames, 10u);

    cl = parse({"bench", "--mode", "naive,coherent", "--boids", "1e5,1e6", "--cell-width", "r"});
    EXPECT_EQ(cl.command, app::Command::Bench);
    ASSERT_EQ(cl.bench.configs.size(), 2u); // naive once, coherent with cells max(r) wide
    EXPECT_EQ(cl.bench.configs[0].mode, sim::Mode::Naive);
    EXPECT_EQ(cl.bench.configs[1].mode, sim::Mode::Coherent);
    EXPECT_EQ(cl.bench.configs[1].cellWidth, sim::CellWidth::Reach);
    EXPECT_EQ(cl.bench.boids, (std::vector<uint32_t>{100000, 1000000}));
    EXPECT_FALSE(cl.bench.naiveLimit.has_value()); // resolved once the device is known
    EXPECT_EQ(parse({"bench", "--naive-max", "3e5"}).bench.naiveLimit, 3e5);
    // Without --boids, --frames or --warmup, the sweep's, chosen once the device is known.
    cl = parse({"bench"});
    EXPECT_TRUE(cl.bench.boids.empty());
    EXPECT_FALSE(cl.bench.frames.has_value());
    EXPECT_FALSE(cl.bench.warmup.has_value());
    EXPECT_FALSE(cl.bench.full);
    cl = parse({"bench", "--full", "--frames", "7", "--warmup", "0"});
    EXPECT_TRUE(cl.bench.full);
    EXPECT_EQ(cl.bench.frames, 7u);
    EXPECT_EQ(cl.bench.warmup, 0u);
    EXPECT_TRUE(parse({"sort-bench"}).sortBench.sizes.empty());
    EXPECT_TRUE(parse({"sort-bench", "--full"}).sortBench.full);
    EXPECT_NE(parseError({"sort-bench", "--full", "--n", "1e6"}).find("give either --n or --full"),
              std::string::npos);

    cl = parse({"sort-bench", "--n", "1e6,16e6", "--bits", "21"});
    EXPECT_EQ(cl.command, app::Command::SortBench);
    EXPECT_EQ(cl.sortBench.sizes, (std::vector<uint32_t>{1000000, 16000000}));
    EXPECT_EQ(cl.sortBench.algorithms, std::vector<sort::SortAlgorithm>{sort::SortAlgorithm::Auto});
    cl = parse({"sort-bench", "--algorithm", "onesweep,reduce-then-scan,auto"});
    EXPECT_EQ(cl.sortBench.algorithms, (std::vector<sort::SortAlgorithm>{sort::SortAlgorithm::Onesweep,
                                                                         sort::SortAlgorithm::ReduceThenScan,
                                                                         sort::SortAlgorithm::Auto}));
    EXPECT_EQ(parse({"sort-bench", "--algorithm", "reduce-then-scan"}).sortBench.algorithms,
              std::vector<sort::SortAlgorithm>{sort::SortAlgorithm::ReduceThenScan});
    EXPECT_EQ(parse({"--list-devices"}).command, app::Command::ListDevices);
    cl = parse({"--rows", "quarter", "--cells", "8"});
    EXPECT_EQ(cl.demo.sim.rows, sim::Rows::FourPerCell);
    cl = parse({"bench", "--rows", "half"});
    for (const sim::Config& c : cl.bench.configs) EXPECT_EQ(c.rows, sim::Rows::TwoPerCell);
    EXPECT_FALSE(cl.bench.countCandidates);
    cl = parse({"bench", "--count-candidates"});
    EXPECT_TRUE(cl.bench.countCandidates);
    cl = parse({"step", "--mode", "coherent", "--rows", "cells"});
    EXPECT_EQ(cl.step.sim.rows, sim::Rows::Cells);
    EXPECT_EQ(cl.step.sim.gridBuild, sim::GridBuild::Radix);
    EXPECT_EQ(parse({"step", "--mode", "coherent", "--grid-build", "counting"}).step.sim.gridBuild,
              sim::GridBuild::Counting);
    EXPECT_EQ(parse({"--grid-build", "counting"}).demo.sim.gridBuild, sim::GridBuild::Counting);
    EXPECT_EQ(benchField(parse({"bench", "--mode", "coherent", "--cells", "27"}), &sim::Config::gridBuild),
              std::vector<sim::GridBuild>{sim::GridBuild::Radix});
    EXPECT_EQ(
        benchField(parse({"bench", "--mode", "coherent", "--cells", "27", "--grid-build", "counting,radix"}),
                   &sim::Config::gridBuild),
        (std::vector<sim::GridBuild>{sim::GridBuild::Counting, sim::GridBuild::Radix}));
    EXPECT_EQ(cl.step.sim.cellOrder, sim::CellOrder::Linear);
    EXPECT_EQ(parse({"step", "--mode", "scattered", "--cell-order", "morton"}).step.sim.cellOrder,
              sim::CellOrder::Morton);
    EXPECT_EQ(parse({"--cell-order", "morton"}).demo.sim.cellOrder, sim::CellOrder::Morton);
    EXPECT_EQ(parse({}).demo.sim.cellOrder, sim::CellOrder::Linear);
    EXPECT_EQ(benchField(parse({"bench", "--mode", "scattered", "--cells", "8"}), &sim::Config::cellOrder),
              std::vector<sim::CellOrder>{sim::CellOrder::Linear});
    EXPECT_EQ(
        benchField(parse({"bench", "--mode", "scattered", "--cells", "8", "--cell-order", "linear,morton"}),
                   &sim::Config::cellOrder),
        (std::vector<sim::CellOrder>{sim::CellOrder::Linear, sim::CellOrder::Morton}));
}

// bench runs every combination of its lists, modes outermost, cells, then cell orders, then builds;
// naive once.
TEST(Cli, BenchRunsEveryCombination) {
    const app::CommandLine cl = parse({"bench", "--mode", "naive,scattered,coherent", "--cells", "8,27",
                                       "--cell-order", "linear,morton", "--grid-build", "radix,counting"});
    ASSERT_EQ(cl.bench.configs.size(), 1u + 2 * 2 * 2 * 2);
    EXPECT_EQ(cl.bench.configs[0].mode, sim::Mode::Naive);
    const sim::Config& second = cl.bench.configs[2];
    EXPECT_EQ(second.mode, sim::Mode::Scattered);
    EXPECT_EQ(second.cellWidth, sim::CellWidth::TwoReach);
    EXPECT_EQ(second.cellOrder, sim::CellOrder::Linear);
    EXPECT_EQ(second.gridBuild, sim::GridBuild::Counting);
    const sim::Config& last = cl.bench.configs.back();
    EXPECT_EQ(last.mode, sim::Mode::Coherent);
    EXPECT_EQ(last.cellWidth, sim::CellWidth::Reach);
    EXPECT_EQ(last.cellOrder, sim::CellOrder::Morton);
    EXPECT_EQ(last.gridBuild, sim::GridBuild::Counting);
    // The default: the three modes, cells max(r) and 2 max(r) wide.
    EXPECT_EQ(parse({"bench"}).bench.configs.size(), 5u);
}

// step runs the demo's mode unless told: naive steps of the default 20,000 boids take 13 s each on
// lavapipe, and are asked for by name.
TEST(Cli, StepRunsTheDemosModeByDefault) {
    EXPECT_EQ(parse({"step"}).step.sim.mode, sim::Mode::Coherent);
    EXPECT_EQ(parse({"step"}).step.sim.mode, parse({}).demo.sim.mode);
    EXPECT_EQ(parse({"step", "--cell-width", "2r", "--rows", "full"}).step.sim.cellWidth,
              sim::CellWidth::TwoReach); // no --mode
    EXPECT_EQ(parse({"step", "--mode", "naive"}).step.sim.mode, sim::Mode::Naive);
}

TEST(Cli, GlobalOptionsGoBeforeOrAfterTheCommand) {
    app::CommandLine cl =
        parse({"--validation", "--device", "0", "--pipeline-stats", "step", "--boids", "10"});
    EXPECT_EQ(cl.command, app::Command::Step);
    EXPECT_TRUE(cl.global.validation);
    EXPECT_EQ(cl.global.device, 0);
    EXPECT_TRUE(cl.global.pipelineStats);
    cl = parse({"bench", "--device", "1", "--validation"});
    EXPECT_EQ(cl.global.device, 1);
    EXPECT_EQ(parse({"--list-devices", "step"}).command, app::Command::ListDevices);
}

TEST(Cli, SeedsAndWindowSizes) {
    EXPECT_EQ(parse({"--seed", "18446744073709551615"}).demo.seed, 18446744073709551615ull);
    EXPECT_EQ(parse({"step", "--seed", "0"}).step.seed, 0u);
    app::CommandLine cl = parse({"--window", "800x600"});
    EXPECT_EQ(cl.demo.width, 800);
    EXPECT_EQ(cl.demo.height, 600);
    EXPECT_EQ(parse({"--window", "1920x1080"}).demo.width, 1920);
    EXPECT_EQ(parse({}).demo.width, 1280);
    EXPECT_EQ(parse({}).demo.height, 800);
    EXPECT_EQ(parse({"--capture", "x.csv", "--frames", "5", "--warmup", "3"}).demo.warmup, 3u);
}

TEST(Cli, BadInputIsOneLineNamingTheProblem) {
    const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
        {{"--bogus"}, "--bogus"},
        {{"step", "--bogus"}, "--bogus"},
        {{"frobnicate"}, "unknown command 'frobnicate' (vkboids --help lists the commands and options)"},
        {{"stp"}, "unknown command 'stp': did you mean step?"},
        {{"help"}, "unknown command 'help': did you mean --help?"},
        {{"--boid", "100"}, "unknown option '--boid': did you mean --boids?"},
        {{"step", "--stesp=3"}, "unknown option '--stesp' for step: did you mean --steps?"},
        {{"step", "100"}, "unexpected argument '100' for step (vkboids step --help lists its options)"},
        {{"bench", "--modes", "naive"}, "unknown option '--modes' for bench: did you mean --mode?"},
        {{"step", "--boids"}, "--boids"},
        {{"step", "--boids", "abc"}, "not a number"},
        {{"step", "--boids", "0"}, "at least 1"},
        {{"step", "--boids", "-3"}, "at least 1"},
        {{"step", "--steps", "0"}, "--steps"},
        {{"step", "--cohesion-radius", "0"}, "--cohesion-radius"},
        {{"step", "--separation-radius", "-1"}, "--separation-radius"},
        {{"step", "--dt", "nan"}, "--dt"},
        {{"bench", "--max-speed", "-1"}, "--max-speed"}, // the default sweep, whose counts the device picks
        {{"--dt", "abc"}, "--dt: 'abc' is not a number"},
        {{"step", "--predator", "0,0,0", "--predator-radius", "x"}, "--predator-radius: 'x' is not a number"},
        {{"step", "--max-speed", "1e99"}, "--max-speed: '1e99' is beyond a float's range"},
        {{"step", "--domain-half", "inf"}, "--domain-half"},
        {{"step", "--mode", "fast"}, "not a mode"},
        {{"step", "--cell-width", "9"}, "--cell-width: '9' must be r or 2r (or the lab's 27 or 8 cells)"},
        {{"step", "--rows", "octants"}, "auto, cells, full, half or quarter"},
        {{"--rows", "yes"}, "auto, cells, full, half or quarter"},
        {{"step", "--grid-build", "merge"}, "--grid-build: 'merge' must be radix or counting"},
        {{"--grid-build", "Counting"}, "must be radix or counting"},
        {{"bench", "--grid-build", "radix,"}, "must be radix or counting"},
        {{"bench", "--grid-build", ""}, "--grid-build"},
        {{"--cell-order", "hilbert"}, "--cell-order: 'hilbert' must be linear or morton"},
        {{"step", "--mode", "naive", "--grid-build", "counting"}, "--grid-build has no effect in naive mode"},
        {{"bench", "--mode", "naive", "--cell-order", "morton"}, "--cell-order has no effect in naive mode"},
        {{"step", "--mode", "coherent", "--cell-order", "morton", "--rows", "quarter"},
         "--rows quarter needs --cell-order linear"},
        {{"--cell-order", "morton", "--rows", "half"}, "--rows half needs --cell-order linear"},
        {{"step", "--cell-order", "z"}, "--cell-order: 'z' must be linear or morton"},
        {{"bench", "--cell-order", "linear,"}, "--cell-order: '' must be linear or morton"},
        {{"bench", "--x-slices", "16"}, "--x-slices"},
        {{"step", "--naive-boids", "4"}, "--naive-boids"},
        {{"step", "--cohesion-scale", "1e38"}, "--cohesion-scale"},
        {{"step", "--separation-scale", "-2000"}, "--separation-scale"},
        {{"step", "--dt", "1e30"}, "--dt times --max-speed"},
        {{"step", "--boids", "10", "--load-state", "x.npy"}, "either"},
        {{"--present-mode", "vsync"}, "--present-mode"},
        {{"--capture", "x.csv"}, "--frames"},
        {{"step", "--save-state", ""}, "--save-state: the path is empty"},
        {{"--screenshot", ""}, "--screenshot: the path is empty"},
        {{"bench", "--json", ""}, "--json: the path is empty"},
        {{"sort-bench", "--bits", "33"}, "--bits"},
        {{"sort-bench", "--runs", "5"}, ""}, // accepted by the parser; the command refuses it
        {{"sort-bench", "--algorithm", "radix"},
         "--algorithm: 'radix' must be onesweep, reduce-then-scan or auto"},
        {{"sort-bench", "--algorithm", "onesweep,"}, "--algorithm: '' must be"},
        {{"sort-bench", "--algorithm", ""}, "--algorithm: the value is empty"},
        {{"sort-bench", "--algorithm", "Onesweep"}, "--algorithm"},
        {{"bench", "--mode", "naive,,coherent"}, "not a mode"},
        {{"bench", "--cells", "8,64"}, "must be r or 2r"},
        {{"--mode", "coherent", "step"}, "--mode before 'step' is an option of the demo: put it after"},
        {{"--boids", "10", "bench"}, "--boids before 'bench'"},
        {{"--frames", "5", "step"}, "'step' has no --frames"},
        {{"--seed", "3", "sort-bench"}, "--seed before 'sort-bench'"},
        {{"--seed", "-1"}, "--seed: must be a whole number from 0 to 18446744073709551615"},
        {{"step", "--seed", "-1"}, "--seed: must be a whole number"},
        {{"bench", "--seed", "1.5"}, "--seed: must be a whole number"},
        {{"sort-bench", "--seed", "-2"}, "--seed: must be a whole number"},
        {{"--seed", "18446744073709551616"}, "--seed: must be a whole number"},
        {{"--device", "2147483648"}, "--device: must be a whole number from 0 to 2147483647"},
        {{"--device", "-1"}, "--device: must be a whole number"},
        {{"step", "--device", "x"}, "--device: must be a whole number"},
        {{"--warmup", "10"}, "--warmup needs --capture"},
        {{"--boids", "10", "--load-state", "x.npy"}, "either"},
        {{"--window", "1280"}, "--window: '1280' must be WIDTHxHEIGHT"},
        {{"--window", "799x800"}, "at least 800x600"},
        {{"--window", "1280x599"}, "at least 800x600"},
        {{"--window", "99999x99999"},
         "--window: '99999x99999' is larger than a window can be (at most 32767x32767)"},
        {{"--window", "1280x32768"}, "at most 32767x32767"},
        {{"--window", "1280x800x2"}, "--window"},
        {{"--window", "-640x480"}, "--window"},
        {{"--window", "x"}, "--window"},
        // An empty value is refused, not read as "not given" or as an empty list.
        {{"step", "--boids", ""}, "--boids: the value is empty"},
        {{"step", "--load-state", ""}, "--load-state: the value is empty"},
        {{"--load-state", ""}, "--load-state: the value is empty"},
        {{"--frames", ""}, "--frames: the value is empty"},
        {{"--window", ""}, "--window: the value is empty"},
        {{"bench", "--naive-max", ""}, "--naive-max: the value is empty"},
        {{"bench", "--mode", ""}, "--mode: the value is empty"},
        {{"bench", "--cell-width", ""}, "--cell-width: the value is empty"},
        {{"bench", "--render", "--draw", ""}, "--draw: the value is empty"},
        {{"sort-bench", "--n", ""}, "--n: the value is empty"},
        // A list's item given twice would run twice.
        {{"bench", "--mode", "coherent,coherent"}, "--mode: 'coherent' is listed twice"},
        {{"bench", "--boids", "1e6,1000000"}, "--boids: '1000000' is '1e6' again"},
        {{"bench", "--cell-width", "2r,r,2r"}, "--cell-width: '2r' is listed twice"},
        {{"bench", "--cell-order", "morton,linear,morton"}, "--cell-order: 'morton' is listed twice"},
        {{"bench", "--grid-build", "radix,radix"}, "--grid-build: 'radix' is listed twice"},
        {{"bench", "--render", "--draw", "points,points"}, "--draw: 'points' is listed twice"},
        {{"sort-bench", "--n", "1e6,1e6"}, "--n: '1e6' is listed twice"},
        {{"sort-bench", "--bits", "21,32,21"}, "--bits: '21' is listed twice"},
        {{"sort-bench", "--algorithm", "onesweep,onesweep"}, "--algorithm: 'onesweep' is listed twice"},
        // Options that would have no effect.
        {{"step", "--mode", "naive", "--cell-width", "2r"}, "--cell-width has no effect in naive mode"},
        {{"step", "--mode", "naive", "--rows", "full"}, "--rows has no effect in naive mode"},
        {{"bench", "--mode", "naive", "--cells", "8"}, "--cell-width has no effect in naive mode"},
        {{"step", "--seed", "3", "--load-state", "x.npy"}, "--seed has no effect with --load-state"},
        {{"--device", "0", "step", "--device", "0"}, "--device is given both before and after 'step'"},
        {{"bench", "--warmup-ms", "-1"}, "--warmup-ms: must be 0 or more"},
        {{"bench", "--warmup", "-2"}, "--warmup: must be 0 or more"},
        {{"step", "--density", "1e-30"}, "--density 1e-30 with 20000 boids gives L = "},
    };
    for (const auto& [args, expect] : cases) {
        const std::string message = parseError(args);
        if (expect.empty()) continue;
        EXPECT_NE(message.find(expect), std::string::npos) << args[0] << ": '" << message << "'";
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

// A preset's flock keeps the density it replaces; a check L then fails names the flags the user
// gave, not a --density they did not.
TEST(Cli, APresetsFlockIsCheckedByTheFlagsGiven) {
    EXPECT_EQ(
        parseError({"--preset", "large-flock", "--dt", "100", "--max-speed", "10"}),
        "--dt times --max-speed must be at most --domain-half (no boid crosses half the domain in a step)");
}

TEST(Cli, DensitySetsTheDomainFromTheCount) {
    // The lab's density: 1M boids at L = 100; 16M at the same density fill L = 252.
    const sim::Config lab{.density = sim::labDensity};
    EXPECT_NEAR(sim::domainHalfFor(lab, 1000000), 100.0, 1e-3);
    EXPECT_NEAR(sim::domainHalfFor(lab, 16000000), 251.98, 1e-2);
    EXPECT_NEAR(sim::domainHalfFor(lab, 64000000), 400.0, 1e-3);
    EXPECT_EQ(sim::domainHalfFor(sim::Config{}, 64000000), 100.0f) << "no density: L as given";

    app::CommandLine cl = parse({"--boids", "1e6", "--density", "0.125"});
    EXPECT_NEAR(cl.demo.sim.params.domainHalf, 100.0, 1e-3);
    EXPECT_DOUBLE_EQ(cl.demo.sim.density, 0.125);
    cl = parse({"step", "--boids", "8000", "--density", "1"});
    EXPECT_NEAR(cl.step.sim.params.domainHalf, 10.0, 1e-4);
    // With a state file the count comes from the file: L is set once it is read.
    cl = parse({"step", "--load-state", "x.npy", "--density", "1"});
    EXPECT_DOUBLE_EQ(cl.step.sim.density, 1.0);
    // So are the checks that depend on L: dt x max speed = 200 fits a large flock's L, not L = 100's.
    EXPECT_NO_THROW(
        parse({"step", "--load-state", "x.npy", "--density", "1e-4", "--dt", "10", "--max-speed", "20"}));
    EXPECT_THROW(parse({"step", "--load-state", "x.npy", "--dt", "10", "--max-speed", "20"}), io::InputError);
    cl = parse({"bench", "--boids", "1e6,16e6", "--density", "0.125"});
    EXPECT_DOUBLE_EQ(cl.bench.configs.front().density, 0.125);
    EXPECT_FLOAT_EQ(cl.bench.configs.front().params.domainHalf, 100.0f); // per count when it runs

    EXPECT_EQ(parse({"--boids", "1000"}).demo.sim.density, 0.0); // L = 100 stays the default
    EXPECT_FLOAT_EQ(parse({"--boids", "1000"}).demo.sim.params.domainHalf, 100.0f);
}

// A CPU device runs a short sweep unless --full; the full sweep stops at the device's limit of pairs.
TEST(Cli, SweepsByTheDevice) {
    const app::BenchSweep full = app::benchSweep(false, false);
    EXPECT_EQ(full.boids, (std::vector<uint32_t>{100000, 1000000}));
    EXPECT_EQ(full.frames, 300u);
    EXPECT_EQ(full.warmup, 60u);
    EXPECT_EQ(app::benchSweep(true, true).boids, full.boids);
    const app::BenchSweep cpu = app::benchSweep(true, false);
    EXPECT_LT(cpu.boids.back(), full.boids.back());
    EXPECT_LT(cpu.frames, full.frames);
    EXPECT_EQ(app::sortBenchSizes(false, false, 1u << 30),
              (std::vector<uint32_t>{1000000, 4000000, 16000000, 64000000}));
    EXPECT_EQ(app::sortBenchSizes(true, true, 33554432), (std::vector<uint32_t>{1000000, 4000000, 16000000}));
    EXPECT_EQ(app::sortBenchSizes(true, false, 33554432), (std::vector<uint32_t>{100000, 500000}));
}

TEST(Cli, DensityIsRefusedWithTheDomainOrOutOfRange) {
    for (const char* command : {"", "step", "bench"}) {
        std::vector<const char*> args;
        if (*command) args.push_back(command);
        for (const char* a : {"--density", "0.1", "--domain-half", "50"}) args.push_back(a);
        EXPECT_NE(parseError(args).find("either --density or --domain-half"), std::string::npos) << command;
    }
    for (const char* bad : {"0", "-1", "abc", "nan", "inf", ""})
        EXPECT_NE(parseError({"step", "--density", bad}).find("--density"), std::string::npos) << bad;
    // A density that puts L past its bound, or below dt x max speed, names the bound.
    EXPECT_NE(parseError({"step", "--boids", "1", "--density", "1e6"}).find("--dt times --max-speed"),
              std::string::npos);
    EXPECT_NE(
        parseError({"bench", "--boids", "1e6", "--density", "1e-15"}).find("--domain-half must be at most"),
        std::string::npos);
}

TEST(Cli, DrawPaths) {
    EXPECT_EQ(parse({}).demo.drawPath, render::DrawPath::Auto); // glyphs or the fastest the device has
    EXPECT_EQ(parse({"--draw", "points"}).demo.drawPath, render::DrawPath::Points);
    EXPECT_EQ(parse({"--draw", "compute"}).demo.drawPath, render::DrawPath::Compute);
    EXPECT_EQ(parse({"--draw", "glyphs"}).demo.drawPath, render::DrawPath::Glyphs);
    EXPECT_EQ(parse({"--draw", "auto"}).demo.drawPath, render::DrawPath::Auto);
    EXPECT_NE(parseError({"--draw", "lines"}).find("--draw: 'lines' must be compute, points, glyphs or auto"),
              std::string::npos);
    app::CommandLine cl = parse({"bench", "--render", "--draw", "compute,points,glyphs,auto"});
    EXPECT_EQ(cl.bench.drawPaths,
              (std::vector<render::DrawPath>{render::DrawPath::Compute, render::DrawPath::Points,
                                             render::DrawPath::Glyphs, render::DrawPath::Auto}));
    EXPECT_TRUE(parse({"bench", "--render"}).bench.drawPaths.empty());
    EXPECT_NE(parseError({"bench", "--draw", "points"}).find("--draw needs --render"), std::string::npos);
    EXPECT_NE(parseError({"bench", "--render", "--draw", "compute,"}).find("--draw"), std::string::npos);
}

TEST(Cli, ColorModes) {
    EXPECT_EQ(parse({}).demo.color, render::ColorMode::Heading);
    EXPECT_EQ(parse({"--color", "speed"}).demo.color, render::ColorMode::Speed);
    EXPECT_EQ(parse({"--color", "heading"}).demo.color, render::ColorMode::Heading);
    EXPECT_EQ(parse({"--color", "cell"}).demo.color, render::ColorMode::Cell);
    EXPECT_EQ(parse({"--color", "order"}).demo.color, render::ColorMode::Order);
    EXPECT_EQ(parseError({"--color", ""}), "--color: the value is empty");
    for (const char* bad : {"Cell", "cells", "rainbow"})
        EXPECT_NE(parseError({"--color", bad}).find("must be speed, heading, cell or order"),
                  std::string::npos)
            << bad;
    EXPECT_NE(parseError({"step", "--color", "cell"}).find("--color"), std::string::npos);
    EXPECT_EQ(parse({"bench", "--render", "--color", "order"}).bench.color, render::ColorMode::Order);
    EXPECT_NE(parseError({"bench", "--color", "cell"}).find("--color needs --render"), std::string::npos);
    EXPECT_NE(parseError({"bench", "--render", "--color", "x"}).find("must be speed"), std::string::npos);
}

// The demo opens on the formed flock of assets/ unless the command line asks for another flock or
// domain; --random-start is the random start of --seed.
TEST(Cli, TheDemoOpensOnTheFormedFlockUnlessAnotherIsAsked) {
    EXPECT_TRUE(parse({}).demo.formedStart);
    EXPECT_TRUE(parse({"--mode", "scattered", "--steps-before", "10", "--max-speed", "2"}).demo.formedStart);
    const std::vector<std::vector<const char*>> others = {
        {"--random-start"},   {"--boids", "20000"},        {"--seed", "2"},          {"--domain-half", "50"},
        {"--density", "0.1"}, {"--preset", "large-flock"}, {"--load-state", "x.npy"}};
    for (const auto& args : others) EXPECT_FALSE(parse(args).demo.formedStart) << args[0];
    EXPECT_EQ(parseError({"--random-start", "--load-state", "x.npy"}),
              "--random-start has no effect with --load-state");
}

} // namespace
