// Statistics of a run's frame times on known inputs, and the time left that progress lines show.

#include "app/run.h"
#include "app/stats.h"

#include <gtest/gtest.h>

#include <vector>

TEST(Stats, PercentilesInterpolateLikeNumPy) {
    const std::vector<double> v = {4, 1, 3, 2};
    EXPECT_DOUBLE_EQ(app::percentile(v, 50), 2.5);
    EXPECT_DOUBLE_EQ(app::percentile(v, 95), 3.85);
    EXPECT_DOUBLE_EQ(app::percentile(v, 0), 1);
    EXPECT_DOUBLE_EQ(app::percentile(v, 100), 4);
    EXPECT_DOUBLE_EQ(app::percentile({7}, 99), 7);
    EXPECT_DOUBLE_EQ(app::percentile({}, 50), 0);
}

TEST(Stats, Summary) {
    const app::Summary s = app::summarize({2, 4, 4, 4, 5, 5, 7, 9});
    EXPECT_EQ(s.count, 8u);
    EXPECT_DOUBLE_EQ(s.mean, 5);
    EXPECT_DOUBLE_EQ(s.median, 4.5);
    EXPECT_DOUBLE_EQ(s.min, 2);
    EXPECT_DOUBLE_EQ(s.max, 9);
    EXPECT_DOUBLE_EQ(s.stddev, 2); // population standard deviation
}

// One first frame's spike lifts the mean of the rest above their p95; the settled summary leaves it out.
TEST(Stats, ASettledSummaryLeavesTheWarmUpOut) {
    std::vector<double> frames;
    for (int i = 0; i < 100; ++i) frames.push_back(10 + i % 3);
    frames[0] = 5000;
    const app::Summary all = app::summarize(frames);
    EXPECT_GT(all.mean, all.p95);
    const app::Summary settled = app::summarizeSettled(frames, 1);
    EXPECT_EQ(settled.count, 99u);
    EXPECT_LE(settled.mean, settled.p95);
    EXPECT_DOUBLE_EQ(settled.max, 12);
    EXPECT_EQ(app::summarizeSettled(frames, 0).count, 100u);
    EXPECT_DOUBLE_EQ(app::summarizeSettled({7}, 1).mean, 7); // nothing but the warm-up: kept
}

TEST(Stats, FpsAverageAndOnePercentLow) {
    std::vector<double> frames(200, 10.0); // 100 FPS
    frames[17] = 50;
    frames[93] = 30;
    EXPECT_NEAR(app::averageFps(frames), 200 * 1000.0 / (198 * 10 + 80), 1e-9);
    EXPECT_DOUBLE_EQ(app::onePercentLowFps(frames), 1000.0 / 40); // mean of the 2 slowest of 200
    EXPECT_DOUBLE_EQ(app::onePercentLowFps({20}), 50);
    EXPECT_DOUBLE_EQ(app::averageFps({}), 0);
}

TEST(Progress, TimeLeftFromTheShareDone) {
    EXPECT_EQ(app::timeLeft(10, 0), "");  // nothing done: no estimate
    EXPECT_EQ(app::timeLeft(0, 0.5), ""); // no time yet
    EXPECT_EQ(app::timeLeft(10, 0.5), "about 10 s left");
    EXPECT_EQ(app::timeLeft(60, 0.25), "about 3 min left");
    EXPECT_EQ(app::timeLeft(3600, 0.4), "about 1.5 h left");
    EXPECT_EQ(app::timeLeft(10, 1.0), "about 0 s left");
    EXPECT_EQ(app::timeLeft(10, 2.0), "about 0 s left"); // past the end counts as done
}
