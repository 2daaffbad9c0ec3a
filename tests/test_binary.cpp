// The binary itself, run as a user would from a POSIX shell: bad input is one line and exit code 2,
// outputs land where they should, progress shows on a terminal.

#include "sort/radix_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
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

struct Result {
    int code = -1;
    std::string err;
};

// `prefix` is shell words before the binary's name (limits, a timeout).
Result run(const std::string& args, const std::string& prefix = "") {
    const std::string errFile =
        fs::temp_directory_path() / ("vkboids-cli-" + std::to_string(::getpid()) + ".err");
    const std::string command = prefix + VKBOIDS_BINARY + " " + args + " >/dev/null 2>" + errFile;
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

void expectBadInput(const std::string& args, const std::string& mention, const std::string& prefix = "") {
    const Result r = run(args, prefix);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": more than one line:\n" << r.err;
    EXPECT_LT(r.err.size(), 200u) << args << ": " << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << args << ": " << r.err;
}

TEST(Binary, BadInputExitsWithCodeTwoAndOneLine) {
    const fs::path dir = fs::temp_directory_path() / ("vkboids-bin-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    expectBadInput("--bogus", "--bogus");
    expectBadInput("--boid 100", "vkboids: error: unknown option '--boid': did you mean --boids?");
    expectBadInput("stp --boids 10", "unknown command 'stp': did you mean step?");
    expectBadInput("help", "unknown command 'help': did you mean --help?");
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
    expectBadInput("bench --mode naive --boids 100 --naive-max 5", "--naive-max 5 boids: nothing to run");
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
    // The capture's summary, a file not named, is never written through a link, before a window opens.
    fs::create_symlink("elsewhere.json", dir / "cap.json");
    expectBadInput("--frames 5 --capture " + (dir / "cap.csv").string(), "cap.json' beside");
    EXPECT_TRUE(fs::is_symlink(dir / "cap.json"));
    EXPECT_FALSE(fs::exists(dir / "elsewhere.json"));
    fs::remove_all(dir);
}

// Inputs that are no files, or far longer than their format allows, are refused at once in one line
// within a gigabyte of address space: a device that reads zeros for ever (a user's grew to 24 GB
// before the kernel ended it), a FIFO that nobody writes (which must not wait), a state file far
// longer than its header says (sparse, 8 GiB). A run that waits is ended after 60 s, and fails.
TEST(Binary, InputsThatAreNoFilesAreRefusedInOneLineWithinBoundedMemory) {
    const fs::path dir = fs::temp_directory_path() / ("vkboids-inputs-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::path zeros = dir / "zeros";
    if (::mknod(zeros.c_str(), S_IFCHR | 0666, makedev(1, 5)) != 0) zeros = "/dev/zero"; // not root
    const fs::path fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    const fs::path longer = dir / "longer.npy";
    {
        std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (10, 6), }";
        dict.append(64 - (10 + dict.size() + 1) % 64, ' ');
        dict += '\n';
        std::ofstream out(longer, std::ios::binary);
        out << std::string("\x93NUMPY\x01\x00", 8) << char(dict.size()) << char(0) << dict
            << std::string(240, '\0');
    }
    fs::resize_file(longer, 8ull << 30);
    const std::string bounded = "ulimit -v 1048576; timeout 60 ";
    expectBadInput("step --load-state " + zeros.string(), "it is a device, not a file", bounded);
    expectBadInput("step --load-state " + fifo.string(), "it is a FIFO, not a file", bounded);
    expectBadInput("step --load-state " + longer.string(), "unexpected bytes after the data", bounded);
    expectBadInput("--frames 1 --input-script " + zeros.string(), "--input-script: cannot read", bounded);
    expectBadInput("--frames 1 --input-script " + fifo.string(), "it is a FIFO, not a file", bounded);
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
        " bench --mode coherent --boids 300 --frames 2 --warmup 1 --warmup-ms 3000 2>/dev/null";
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

TEST(Predator, TheBinaryRefusesBadValuesInOneLineAndRunsGoodOnes) {
    for (const char* args :
         {"step --boids 10 --predator 1,2", "step --boids 10 --predator-scale 3",
          "step --boids 10 --predator 0,0,0 --predator-radius -2", "--input-script /nonexistent/input.txt"}) {
        const auto [code, err] = run(args);
        EXPECT_EQ(code, 2) << args << ": " << err;
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << args << ": " << err;
    }
    const auto [code, err] = run("step --boids 300 --steps 2 --quiet --predator 10,-99.5,3 "
                                 "--predator-radius 30 --predator-scale 2");
    EXPECT_EQ(code, 0) << err;
}

} // namespace
