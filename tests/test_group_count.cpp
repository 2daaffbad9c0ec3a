// The group count that every dispatch rounds up to (gpu::groupCount), without a device.

#include "gpu/commands.h"

#include <gtest/gtest.h>

TEST(GroupCount, RoundsUp) {
    EXPECT_EQ(gpu::groupCount(0, 256), 0u);
    EXPECT_EQ(gpu::groupCount(1, 256), 1u);
    EXPECT_EQ(gpu::groupCount(256, 256), 1u);
    EXPECT_EQ(gpu::groupCount(257, 256), 2u);
    EXPECT_EQ(gpu::groupCount(10240000, 256), 40000u);
    EXPECT_EQ(gpu::groupCount(0xffffffffull, 64), 67108864u);
}
