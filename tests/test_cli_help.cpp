// What the command line tells a learner: what each file option needs, and the name a typo meant.

#include "app/cli/cli.h"
#include "app/cli/cli_values.h"
#include "cli_test.h"

#include <gtest/gtest.h>

namespace {

using test::parse;

TEST(Cli, ClosestNameCatchesTyposOnly) {
    const std::vector<std::string> names = {"step",   "bench", "sort-bench", "--boids",
                                            "--seed", "--n",   "--help"};
    EXPECT_EQ(app::closestName("stp", names), "step");
    EXPECT_EQ(app::closestName("bnech", names), "bench"); // two letters swapped: one edit
    EXPECT_EQ(app::closestName("sortbench", names), "sort-bench");
    EXPECT_EQ(app::closestName("--boid", names), "--boids");
    EXPECT_EQ(app::closestName("-boids", names), "--boids");
    EXPECT_EQ(app::closestName("--Boids", names), "--boids");
    EXPECT_EQ(app::closestName("help", names), "--help");
    EXPECT_EQ(app::closestName("--x", names), ""); // one letter: any other is as near
    EXPECT_EQ(app::closestName("--bogus", names), "");
    EXPECT_EQ(app::closestName("frobnicate", names), "");
    EXPECT_EQ(app::closestName("", names), "");
    EXPECT_EQ(app::closestName("stp", {}), "");
}

// Every option that names a file says what the file's name must end in, as checkOutputPath requires.
TEST(Cli, HelpSaysWhatEachFileNeeds) {
    auto help = [](std::vector<const char*> args) {
        args.push_back("--help");
        testing::internal::CaptureStdout();
        parse(args);
        return testing::internal::GetCapturedStdout();
    };
    const std::string demo = help({}), step = help({"step"}), bench = help({"bench"}),
                      sort = help({"sort-bench"});
    EXPECT_NE(demo.find("--capture FILE.csv"), std::string::npos) << demo;
    EXPECT_NE(demo.find("a summary to FILE.json beside it"), std::string::npos) << demo;
    EXPECT_NE(demo.find("--screenshot FILE.png"), std::string::npos);
    EXPECT_NE(step.find("--save-state FILE.npy"), std::string::npos) << step;
    EXPECT_NE(bench.find("--csv FILE.csv"), std::string::npos) << bench;
    EXPECT_NE(bench.find("--json FILE.json"), std::string::npos);
    EXPECT_NE(sort.find("--csv FILE.csv"), std::string::npos) << sort;
    EXPECT_NE(demo.find("--preset NAME"), std::string::npos);
}

} // namespace
