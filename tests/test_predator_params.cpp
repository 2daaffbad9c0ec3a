// The predator's parameters without a GPU: its flags, their one-line errors, and its checks beside
// the other parameters. test_predator.cpp steps the predator on the GPU.

#include "cli_test.h"
#include "sim/params.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace {

using test::parse;
using test::parseError;

TEST(Predator, Flags) {
    const sim::Params off = parse({"step"}).step.sim.params;
    EXPECT_FALSE(off.predator);
    const sim::Params p =
        parse({"step", "--predator", "10,-2.5,3e1", "--predator-radius", "12", "--predator-scale", "-0.25"})
            .step.sim.params;
    EXPECT_TRUE(p.predator);
    EXPECT_FLOAT_EQ(p.predatorPos[0], 10);
    EXPECT_FLOAT_EQ(p.predatorPos[1], -2.5f);
    EXPECT_FLOAT_EQ(p.predatorPos[2], 30);
    EXPECT_FLOAT_EQ(p.predatorRadius, 12);
    EXPECT_FLOAT_EQ(p.predatorScale, -0.25f);
    EXPECT_TRUE(parse({"step", "--predator", "0,0,0", "--predator-radius", "0"}).step.sim.params.predator);
}

TEST(Predator, BadFlagsAreOneLineNamingTheProblem) {
    const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
        {{"step", "--predator", "1,2"}, "--predator: '1,2' must be X,Y,Z"},
        {{"step", "--predator", "1,2,3,4"}, "must be X,Y,Z"},
        {{"step", "--predator", "1,,3"}, "must be X,Y,Z"},
        {{"step", "--predator", "a,b,c"}, "must be X,Y,Z"},
        {{"step", "--predator", "1,2,nan"}, "must be X,Y,Z"},
        {{"step", "--predator", "1,2,1e40"}, "must be X,Y,Z"},
        {{"step", "--predator", ""}, "--predator: the value is empty"},
        {{"step", "--predator", "301,0,0"}, "--predator must be X,Y,Z within three times --domain-half"},
        {{"step", "--predator", "0,0,0", "--predator-radius", "-1"}, "--predator-radius"},
        {{"step", "--predator", "0,0,0", "--predator-radius", "inf"}, "--predator-radius"},
        {{"step", "--predator", "0,0,0", "--predator-scale", "2000"}, "--predator-scale"},
        {{"step", "--predator-radius", "5"}, "--predator-radius needs --predator"},
        {{"step", "--predator-scale", "5"}, "--predator-scale needs --predator"},
        {{"--predator", "0,0,0"}, "--predator"}, // the demo places it with the mouse
    };
    for (const auto& [args, expect] : cases) {
        const std::string message = parseError(args);
        EXPECT_NE(message.find(expect), std::string::npos) << args[1] << ": '" << message << "'";
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

TEST(Predator, ValidatedWithTheOtherParameters) {
    sim::Params p;
    EXPECT_FALSE(sim::validateParams(p));
    p.predatorRadius = -0.5f;
    EXPECT_EQ(sim::validateParams(p)->param, sim::Param::PredatorRadius);
    p = sim::Params{};
    p.predatorScale = -1001;
    EXPECT_EQ(sim::validateParams(p)->param, sim::Param::PredatorScale);
    p = sim::Params{};
    p.predatorPos[1] = -300.5f;
    EXPECT_FALSE(sim::validateParams(p)) << "a predator that is off keeps any last position";
    p.predator = true;
    const std::optional<sim::ParamProblem> far = sim::validateParams(p);
    ASSERT_TRUE(far);
    EXPECT_EQ(far->param, sim::Param::PredatorPos);
    EXPECT_EQ(far->bound, sim::Bound::NearDomain);
    EXPECT_EQ(far->value, -300.5);
    EXPECT_EQ(far->min, -300);
    EXPECT_EQ(far->max, 300);
    p.predatorPos[1] = -299;
    EXPECT_FALSE(sim::validateParams(p));
}

} // namespace
