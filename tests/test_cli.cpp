// Command-line parsing, and the binary's answers to bad input: one line, exit code 2, no output file.

#include "app/cli/cli.h"
#include "cli_test.h"

#include <gtest/gtest.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <pty.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

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

TEST(Cli, CommandsAndOptions) {
    app::CommandLine cl = parse({"step", "--boids", "1e5", "--steps", "100", "--mode", "coherent", "--cells",
                                 "8", "--cohesion-radius", "4", "--validation"});
    EXPECT_EQ(cl.command, app::Command::Step);
    EXPECT_EQ(cl.step.boids, 100000u);
    EXPECT_EQ(cl.step.steps, 100u);
    EXPECT_EQ(cl.step.mode, sim::Mode::Coherent);
    EXPECT_EQ(cl.step.cells, 8);
    EXPECT_FLOAT_EQ(cl.step.params.cohesionRadius, 4);
    EXPECT_TRUE(cl.global.validation);

    cl = parse({"--validation", "--boids", "5000", "--frames", "10", "--present-mode", "immediate"});
    EXPECT_EQ(cl.command, app::Command::Demo);
    EXPECT_EQ(cl.demo.rows, sim::Rows::Auto);
    EXPECT_EQ(cl.demo.boids, 5000u);
    EXPECT_EQ(cl.demo.frames, 10u);

    cl = parse({"bench", "--modes", "naive,coherent", "--boids", "1e5,1e6", "--cells", "27"});
    EXPECT_EQ(cl.command, app::Command::Bench);
    EXPECT_EQ(cl.bench.modes.size(), 2u);
    EXPECT_EQ(cl.bench.boids, (std::vector<uint32_t>{100000, 1000000}));
    EXPECT_FALSE(cl.bench.naiveLimit.has_value()); // resolved once the device is known
    EXPECT_EQ(parse({"bench", "--naive-max", "3e5"}).bench.naiveLimit, 3e5);

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
    EXPECT_EQ(cl.demo.rows, sim::Rows::Quarter);
    cl = parse({"bench", "--rows", "half"});
    EXPECT_EQ(cl.bench.rows, sim::Rows::Half);
    EXPECT_FALSE(cl.bench.countCandidates);
    cl = parse({"bench", "--count-candidates"});
    EXPECT_TRUE(cl.bench.countCandidates);
    cl = parse({"step", "--mode", "coherent", "--rows", "cells"});
    EXPECT_EQ(cl.step.rows, sim::Rows::Cells);
    EXPECT_EQ(cl.step.gridBuild, sim::GridBuild::Radix);
    EXPECT_EQ(parse({"step", "--mode", "coherent", "--grid-build", "counting"}).step.gridBuild,
              sim::GridBuild::Counting);
    EXPECT_EQ(parse({"--grid-build", "counting"}).demo.gridBuild, sim::GridBuild::Counting);
    EXPECT_EQ(parse({"bench"}).bench.gridBuilds, std::vector<sim::GridBuild>{sim::GridBuild::Radix});
    EXPECT_EQ(parse({"bench", "--grid-build", "counting,radix"}).bench.gridBuilds,
              (std::vector<sim::GridBuild>{sim::GridBuild::Counting, sim::GridBuild::Radix}));
    EXPECT_EQ(cl.step.cellOrder, sim::CellOrder::Linear);
    EXPECT_EQ(parse({"step", "--mode", "scattered", "--cell-order", "morton"}).step.cellOrder,
              sim::CellOrder::Morton);
    EXPECT_EQ(parse({"--cell-order", "morton"}).demo.cellOrder, sim::CellOrder::Morton);
    EXPECT_EQ(parse({}).demo.cellOrder, sim::CellOrder::Linear);
    EXPECT_EQ(parse({"bench"}).bench.cellOrders, std::vector<sim::CellOrder>{sim::CellOrder::Linear});
    EXPECT_EQ(parse({"bench", "--cell-order", "linear,morton"}).bench.cellOrders,
              (std::vector<sim::CellOrder>{sim::CellOrder::Linear, sim::CellOrder::Morton}));
}

// step runs the demo's mode unless told: naive steps of the default 20,000 boids take 13 s each on
// lavapipe, and are asked for by name.
TEST(Cli, StepRunsTheDemosModeByDefault) {
    EXPECT_EQ(parse({"step"}).step.mode, sim::Mode::Coherent);
    EXPECT_EQ(parse({"step"}).step.mode, parse({}).demo.mode);
    EXPECT_EQ(parse({"step", "--cells", "8", "--rows", "full"}).step.cells, 8); // a grid without --mode
    EXPECT_EQ(parse({"step", "--mode", "naive"}).step.mode, sim::Mode::Naive);
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
    cl = parse({"--window", "320x240"});
    EXPECT_EQ(cl.demo.width, 320);
    EXPECT_EQ(parse({}).demo.width, 1280);
    EXPECT_EQ(parse({}).demo.height, 800);
    EXPECT_EQ(parse({"--capture", "x.csv", "--frames", "5", "--warmup", "3"}).demo.warmup, 3u);
}

TEST(Cli, BadInputIsOneLineNamingTheProblem) {
    const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
        {{"--bogus"}, "--bogus"},
        {{"step", "--bogus"}, "--bogus"},
        {{"frobnicate"}, "frobnicate"},
        {{"step", "--boids"}, "--boids"},
        {{"step", "--boids", "abc"}, "not a number"},
        {{"step", "--boids", "0"}, "at least 1"},
        {{"step", "--boids", "-3"}, "at least 1"},
        {{"step", "--steps", "0"}, "--steps"},
        {{"step", "--cohesion-radius", "0"}, "--cohesion-radius"},
        {{"step", "--separation-radius", "-1"}, "--separation-radius"},
        {{"step", "--dt", "nan"}, "--dt"},
        {{"step", "--domain-half", "inf"}, "--domain-half"},
        {{"step", "--mode", "fast"}, "not a mode"},
        {{"step", "--cells", "9"}, "8 or 27"},
        {{"step", "--rows", "octants"}, "auto, cells, full, half or quarter"},
        {{"--rows", "yes"}, "auto, cells, full, half or quarter"},
        {{"step", "--grid-build", "merge"}, "--grid-build: 'merge' must be radix or counting"},
        {{"--grid-build", "Counting"}, "must be radix or counting"},
        {{"bench", "--grid-build", "radix,"}, "must be radix or counting"},
        {{"bench", "--grid-build", ""}, "--grid-build"},
        {{"--cell-order", "hilbert"}, "--cell-order: 'hilbert' must be linear or morton"},
        {{"step", "--mode", "naive", "--grid-build", "counting"}, "--grid-build has no effect in naive mode"},
        {{"bench", "--modes", "naive", "--cell-order", "morton"}, "--cell-order has no effect in naive mode"},
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
        {{"bench", "--modes", "naive,,coherent"}, "not a mode"},
        {{"bench", "--cells", "8,64"}, "8 or 27"},
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
        {{"--window", "300x800"}, "at least 320x240"},
        {{"--window", "1280x200"}, "at least 320x240"},
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
        {{"bench", "--modes", ""}, "--modes: the value is empty"},
        {{"bench", "--cells", ""}, "--cells: the value is empty"},
        {{"bench", "--render", "--draw", ""}, "--draw: the value is empty"},
        {{"sort-bench", "--n", ""}, "--n: the value is empty"},
        // Options that would have no effect.
        {{"step", "--mode", "naive", "--cells", "8"}, "--cells has no effect in naive mode"},
        {{"step", "--mode", "naive", "--rows", "full"}, "--rows has no effect in naive mode"},
        {{"bench", "--modes", "naive", "--cells", "8"}, "--cells has no effect in naive mode"},
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

// ---- The binary ---------------------------------------------------------------------------------

struct Result {
    int code = -1;
    std::string err;
};

Result run(const std::string& args) {
    const std::string errFile =
        fs::temp_directory_path() / ("vkboids-cli-" + std::to_string(::getpid()) + ".err");
    const std::string command = std::string(VKBOIDS_BINARY) + " " + args + " >/dev/null 2>" + errFile;
    const int status = std::system(command.c_str());
    Result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::ifstream in(errFile);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("vkboids: note:", 0) != 0) r.err += line + "\n";
    fs::remove(errFile);
    return r;
}

void expectBadInput(const std::string& args, const std::string& mention) {
    const Result r = run(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": more than one line:\n" << r.err;
    EXPECT_LT(r.err.size(), 200u) << args << ": " << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << args << ": " << r.err;
}

TEST(Binary, BadInputExitsWithCodeTwoAndOneLine) {
    const fs::path dir = fs::temp_directory_path() / ("vkboids-bin-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    expectBadInput("--bogus", "--bogus");
    expectBadInput("step --boids 0", "--boids");
    expectBadInput("step --boids 12x", "not a number");
    expectBadInput("step --separation-radius 0", "--separation-radius");
    expectBadInput("step --boids 10 --mode coherent --grid-build heap", "--grid-build");
    expectBadInput("step --boids 10 --cell-order zorder", "must be linear or morton");
    expectBadInput("step --load-state " + (dir / "absent.npy").string(), "cannot read");
    {
        std::ofstream(dir / "truncated.npy") << "\x93NUMPY\x01";
        expectBadInput("step --load-state " + (dir / "truncated.npy").string(), "truncated");
    }
    expectBadInput("step --load-state " + dir.string(), "it is a directory");
    expectBadInput("--frames 1 --input-script " + dir.string(), "it is a directory");
    expectBadInput("bench --modes naive --boids 100 --naive-max 5", "--naive-max 5 boids: nothing to run");
    // Beyond what the device can hold: refused up front, no crash.
    expectBadInput("step --boids 4e9", "boids");
    expectBadInput("sort-bench --n 2e9 --bits 21", "--n");
    expectBadInput("sort-bench --runs 3", "--runs");
    expectBadInput("sort-bench --algorithm fastest", "--algorithm");
    // Requests the device cannot meet as asked.
    expectBadInput("step --device 7 --boids 10", "--device 7");
    expectBadInput("--device -1", "--device: must be a whole number");
    // An option of the demo before a command applies to nothing: refused, not dropped.
    expectBadInput("--mode coherent step --boids 10", "put it after the command");
    // An unwritable output: refused before any work, and nothing left behind.
    fs::create_directories(dir / "a-directory");
    expectBadInput("step --boids 10 --save-state " + (dir / "a-directory").string(), "is a directory");
    expectBadInput("--capture " + (dir / "a-directory").string() + " --frames 5", "is a directory");
    expectBadInput("step --boids 10 --save-state " + (dir / "no" / "such" / "dir.npy").string(),
                   "cannot write");
    EXPECT_FALSE(fs::exists(dir / "no"));
    // A path that names no output of the kind written, or none at all.
    expectBadInput("step --boids 10 --save-state " + (dir / "x.txt").string(), "must end in .npy");
    expectBadInput("step --boids 10 --save-state ''", "--save-state");
    expectBadInput("sort-bench --n 1e4 --csv " + (dir / "x.json").string(), "must end in .csv");
    expectBadInput("--frames 5 --screenshot " + (dir / "x.jpg").string(), "must end in .png");
    for (const char* name : {"x.txt", "x.json", "x.jpg"}) EXPECT_FALSE(fs::exists(dir / name)) << name;
    fs::remove_all(dir);
}

// A device node given as the output is written into, not replaced by a regular file.
TEST(Binary, StepWritesIntoADeviceAndLeavesItADevice) {
    const fs::path dir = fs::temp_directory_path() / ("vkboids-node-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path node = dir / "null-node";
    if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
        const int e = errno;
        fs::remove_all(dir);
        if (e == EPERM) GTEST_SKIP() << "mknod is not permitted here (not root)";
        FAIL() << "mknod: " << std::strerror(e);
    }
    const Result r = run("step --quiet --boids 100 --save-state " + node.string());
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::is_character_file(fs::symlink_status(node)));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
    fs::remove_all(dir);
}

// Piped, bench prints each line as it comes: its first arrives while the configuration's 3 s of
// warm-up still run, not with the rest at the end.
TEST(Binary, PipedBenchPrintsEachLineAsItComes) {
    const std::string command =
        std::string(VKBOIDS_BINARY) +
        " bench --modes coherent --boids 300 --frames 2 --warmup 1 --warmup-ms 3000 2>/dev/null";
    FILE* pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::array<char, 1024> line{};
    ASSERT_NE(std::fgets(line.data(), int(line.size()), pipe), nullptr);
    const auto first = std::chrono::steady_clock::now();
    EXPECT_EQ(std::string(line.data()).rfind("bench on ", 0), 0u) << line.data();
    while (std::fgets(line.data(), int(line.size()), pipe)) {}
    const double rest = std::chrono::duration<double>(std::chrono::steady_clock::now() - first).count();
    EXPECT_EQ(::pclose(pipe), 0);
    EXPECT_GT(rest, 2.0) << "the first line came with the last";
}

// On a terminal, a long step run shows its progress on one line of stderr (from 2 s on); killed once
// it has.
TEST(Binary, StepShowsItsProgressOnATerminal) {
    int terminal = -1;
    const pid_t child = ::forkpty(&terminal, nullptr, nullptr, nullptr);
    ASSERT_GE(child, 0) << std::strerror(errno);
    if (child == 0) {
        ::execl(VKBOIDS_BINARY, VKBOIDS_BINARY, "step", "--boids", "1000", "--steps", "1e9", nullptr);
        ::_exit(127);
    }
    std::string seen;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (seen.find("\rstep ") == std::string::npos && std::chrono::steady_clock::now() < until) {
        pollfd ready{terminal, POLLIN, 0};
        if (::poll(&ready, 1, 1000) <= 0) continue;
        std::array<char, 256> buffer{};
        const ssize_t n = ::read(terminal, buffer.data(), buffer.size());
        if (n <= 0) break; // the run ended
        seen.append(buffer.data(), size_t(n));
    }
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    ::close(terminal);
    EXPECT_NE(seen.find("coherent: 1000000000 steps of 1000 boids"), std::string::npos) << seen;
    EXPECT_NE(seen.find("\rstep "), std::string::npos) << seen;
}

// Where the driver reports pipeline statistics, one line a compute pipeline naming its shader and
// registers or similar; where it does not (lavapipe), one line saying so and exit code 2.
TEST(Binary, PipelineStatisticsOrAClearRefusal) {
    const Result r = run("step --pipeline-stats --boids 100 --steps 1 --mode coherent --quiet");
    if (r.code == 2) {
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find("--pipeline-stats"), std::string::npos) << r.err;
        return;
    }
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("vkboids: pipeline grid_search_coherent"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("vkboids: pipeline sort_onesweep"), std::string::npos) << r.err;
}

std::string fileBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The counting build gives the same bits every run, and the radix build's: crowded cells, whose
// boids the scatter's atomics place in any order.
TEST(Binary, CountingBuildStepsAreDeterministic) {
    const fs::path dir = fs::temp_directory_path() / ("vkboids-count-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const char* mode : {"coherent", "scattered"}) {
        const std::string common =
            std::string("step --validation --quiet --boids 3000 --steps 3 --domain-half "
                        "10 --mode ") +
            mode + " --save-state ";
        std::vector<std::string> files;
        for (const char* build : {"counting", "counting", "radix"}) {
            const std::string path =
                (dir / (std::string(build) + std::to_string(files.size()) + ".npy")).string();
            const Result r = run(common + path + " --grid-build " + build);
            EXPECT_EQ(r.code, 0) << r.err;
            files.push_back(fileBytes(path));
        }
        ASSERT_GT(files[0].size(), 3000u * 6 * 4);
        EXPECT_TRUE(files[0] == files[1]) << mode << ": two counting runs differ";
        EXPECT_TRUE(files[0] == files[2]) << mode << ": the counting and radix builds differ";
    }
    fs::remove_all(dir);
}

// Both algorithms and auto in one run, each checked against the CPU (exit code 4 otherwise), a CSV
// row for each naming what ran.
TEST(Binary, SortBenchComparesAlgorithms) {
    const fs::path dir = fs::temp_directory_path() / ("vkboids-sortbench-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string csv = (dir / "sort.csv").string();
    const Result r = run("sort-bench --validation --n 5003,20011 --bits 8,21 --runs 20 --warmup-ms 0 "
                         "--algorithm onesweep,reduce-then-scan,auto --csv " +
                         csv);
    EXPECT_EQ(r.code, 0) << r.err;
    std::ifstream in(csv);
    std::string header, line;
    std::getline(in, header);
    EXPECT_EQ(header.rfind("pairs,key_bits,algorithm,passes,", 0), 0u) << header;
    EXPECT_NE(header.find(",upsweep_us,spine_us,downsweep_us,"), std::string::npos) << header;
    std::vector<std::string> expected, got;
    for (uint32_t n : {5003u, 20011u})
        for (uint32_t bits : {8u, 21u})
            for (const std::string& name :
                 {std::string("onesweep"), std::string("reduce-then-scan"),
                  "auto:" + std::string(sort::algorithmName(sort::chooseAlgorithm(n, bits)))})
                expected.push_back(std::to_string(n) + "," + std::to_string(bits) + "," + name + ",");
    while (std::getline(in, line)) {
        const size_t third = line.find(',', line.find(',', line.find(',') + 1) + 1);
        got.push_back(line.substr(0, third + 1));
    }
    EXPECT_EQ(got, expected);
    fs::remove_all(dir);
}

TEST(Binary, StepWritesAStateThatLoadsBack) {
    const fs::path dir = fs::temp_directory_path() / ("vkboids-step-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string a = (dir / "a.npy").string(), b = (dir / "b.npy").string();
    Result r = run("step --validation --quiet --boids 300 --steps 3 --mode coherent --save-state " + a);
    EXPECT_EQ(r.code, 0) << r.err;
    r = run("step --validation --quiet --load-state " + a + " --steps 2 --mode scattered --save-state " + b);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(b));
    EXPECT_EQ(fs::file_size(a), fs::file_size(b));
    fs::remove_all(dir);
}

} // namespace

namespace {

TEST(Cli, DensitySetsTheDomainFromTheCount) {
    // The lab's density: 1M boids at L = 100; 16M at the same density fill L = 252.
    EXPECT_NEAR(sim::domainHalfForDensity(1000000, sim::labDensity), 100.0, 1e-3);
    EXPECT_NEAR(sim::domainHalfForDensity(16000000, sim::labDensity), 251.98, 1e-2);
    EXPECT_NEAR(sim::domainHalfForDensity(64000000, sim::labDensity), 400.0, 1e-3);

    app::CommandLine cl = parse({"--boids", "1e6", "--density", "0.125"});
    EXPECT_NEAR(cl.demo.params.domainHalf, 100.0, 1e-3);
    EXPECT_DOUBLE_EQ(cl.demo.density, 0.125);
    cl = parse({"step", "--boids", "8000", "--density", "1"});
    EXPECT_NEAR(cl.step.params.domainHalf, 10.0, 1e-4);
    // With a state file the count comes from the file: L is set once it is read.
    cl = parse({"step", "--load-state", "x.npy", "--density", "1"});
    EXPECT_DOUBLE_EQ(cl.step.density, 1.0);
    cl = parse({"bench", "--boids", "1e6,16e6", "--density", "0.125"});
    EXPECT_DOUBLE_EQ(cl.bench.density, 0.125);
    EXPECT_FLOAT_EQ(cl.bench.params.domainHalf, 100.0f); // per count when it runs

    EXPECT_EQ(parse({"--boids", "1000"}).demo.density, 0.0); // L = 100 stays the default
    EXPECT_FLOAT_EQ(parse({"--boids", "1000"}).demo.params.domainHalf, 100.0f);
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

} // namespace
