// The profiler's verdict on the device's timestamps (gpu::judgeTimestamps), from probe readings
// taken on real devices, without a device.

#include "gpu/profiler.h"

#include <gtest/gtest.h>

TEST(TimestampTrust, TheProbesVerdict) {
    using gpu::TimestampTrust;
    // Plain timestamps that see the work (a GPU; noise either way): direct, one fill not measured.
    EXPECT_EQ(gpu::judgeTimestamps(0.021, 0.020, 0), TimestampTrust::Direct);
    EXPECT_EQ(gpu::judgeTimestamps(0.011, 0.020, 0), TimestampTrust::Direct);
    // lavapipe after a draw: the plain pair reads almost nothing, the pair behind barriers the four
    // fills, four times one.
    EXPECT_EQ(gpu::judgeTimestamps(0.014, 1.81, 0.49), TimestampTrust::Barriers);
    EXPECT_EQ(gpu::judgeTimestamps(0.009, 0.020, 0.010), TimestampTrust::Barriers);
    // Barriers that do not help: four fills read as one, or nothing at all.
    EXPECT_EQ(gpu::judgeTimestamps(0.014, 0.50, 0.49), TimestampTrust::Untrusted);
    EXPECT_EQ(gpu::judgeTimestamps(0.0, 0.0, 0.0), TimestampTrust::Untrusted);
    EXPECT_EQ(gpu::judgeTimestamps(0.001, 0.020, 0.0), TimestampTrust::Untrusted);
    EXPECT_TRUE(gpu::timesReported(TimestampTrust::Direct));
    EXPECT_TRUE(gpu::timesReported(TimestampTrust::Barriers));
    EXPECT_FALSE(gpu::timesReported(TimestampTrust::Untrusted));
    EXPECT_FALSE(gpu::timesReported(TimestampTrust::Unavailable));
}
