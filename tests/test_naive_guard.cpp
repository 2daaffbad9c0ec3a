// The guard before a slow naive step: the time it estimates from a measured step, and the words
// the panel and the command line use to say so.

#include "app/naive_guard.h"

#include <gtest/gtest.h>

// The estimate is a measured step (measureNaiveStep times one on the device) scaled with the square
// of the count.
TEST(NaiveGuard, EstimateScalesTheMeasuredStep) {
    const app::NaiveTiming measured{10000, 0.5};
    EXPECT_NEAR(app::estimateNaiveStepSeconds(20000, measured), 2.0, 1e-12);
    EXPECT_NEAR(app::estimateNaiveStepSeconds(5000, measured), 0.125, 1e-12);
    EXPECT_NEAR(app::estimateNaiveStepSeconds(10000, measured), 0.5, 1e-12);
    EXPECT_EQ(app::estimateNaiveStepSeconds(0, measured), 0.0);
    EXPECT_EQ(app::estimateNaiveStepSeconds(100, app::NaiveTiming{0, 1.0}), 0.0); // nothing measured
}

TEST(NaiveGuard, QuestionNamesTheCountAndTime) {
    EXPECT_EQ(app::naiveQuestion(20000, 4.0),
              "naive with 20,000 boids: about 4 s a step on this device. Switch anyway?");
    EXPECT_EQ(app::naiveQuestion(1234567, 1.53),
              "naive with 1,234,567 boids: about 1.5 s a step on this device. Switch anyway?");
    EXPECT_EQ(app::naiveQuestion(100000, 99.6),
              "naive with 100,000 boids: about 100 s a step on this device. Switch anyway?");
}

// Started in naive mode from the command line: one line, and how to go on where the demo opens paused.
TEST(NaiveGuard, StartNoteNamesTheCountAndTime) {
    EXPECT_EQ(app::naiveStartNote(20000, 4.0, true),
              "naive with 20,000 boids: about 4 s a step on this device; opening paused (Space runs it, N "
              "steps once, M changes the mode)");
    EXPECT_EQ(app::naiveStartNote(50000, 25.2, false),
              "naive with 50,000 boids: about 25 s a step on this device");
}
