// What the command line tells a learner: what each file option needs, and the name a typo meant.

#include "app/cli/cli.h"
#include "app/cli/cli_values.h"
#include "app/demo/demo_state.h"
#include "cli_test.h"
#include "harness/harness.h"

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

// The test harness's options are absent from --help, yet the demo accepts them, refuses an empty
// script path in one line that names the option, and a command refuses them by name.
TEST(Cli, TestingOptionsAreHiddenButAccepted) {
    testing::internal::CaptureStdout();
    parse({"--help"});
    const std::string help = testing::internal::GetCapturedStdout();
    for (const char* name : {"--exercise-window", "--input-script", "--report-layout", "--report-memory"})
        EXPECT_EQ(help.find(name), std::string::npos) << name << " is listed:\n" << help;
    EXPECT_EQ(help.find("testing"), std::string::npos) << help;
    EXPECT_NE(help.find("Expert:"), std::string::npos) << help; // the expert options still are
    const app::CommandLine cl =
        parse({"--input-script", "s.txt", "--exercise-window", "--report-layout", "--report-memory"});
    EXPECT_EQ(cl.command, app::Command::Demo);
    EXPECT_EQ(cl.harness.inputScript, "s.txt");
    EXPECT_TRUE(cl.harness.exerciseWindow && cl.harness.reportLayout && cl.harness.reportMemory);
    const harness::Options none = parse({}).harness;
    EXPECT_FALSE(none.exerciseWindow || none.reportLayout || none.reportMemory || !none.inputScript.empty());
    EXPECT_EQ(test::parseError({"--input-script", ""}), "--input-script: the path is empty");
    EXPECT_EQ(test::parseError({"--report-memory", "step"}),
              "--report-memory is an option of the demo; 'step' has no --report-memory");
    // Without options the harness does nothing; with a script, it reads it before the demo starts.
    app::Demo demo;
    const app::PanelRequest asked = harness::createHarness({}).frame(demo);
    EXPECT_EQ(asked.flock, app::PanelRequest::Flock::Keep);
    EXPECT_FALSE(asked.stepOnce);
    EXPECT_THROW(harness::createHarness({.inputScript = "/nonexistent/script.txt"}), io::InputError);
}

} // namespace
