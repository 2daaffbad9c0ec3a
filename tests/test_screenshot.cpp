// The names the demo gives its screenshots: a timestamp, and a suffix where a file of that name
// already exists.

#include "app/demo/screenshot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
#include <string>
#include <vector>

TEST(ScreenshotName, TimestampedWithASuffixWhereTaken) {
    std::tm t{};
    t.tm_year = 2025 - 1900;
    t.tm_mon = 2;
    t.tm_mday = 7;
    t.tm_hour = 9;
    t.tm_min = 5;
    t.tm_sec = 3;
    EXPECT_EQ(app::timestampedScreenshotName(t, [](const std::string&) { return false; }),
              "vkboids-20250307-090503.png");
    const std::vector<std::string> existing = {"vkboids-20250307-090503.png",
                                               "vkboids-20250307-090503-2.png"};
    EXPECT_EQ(app::timestampedScreenshotName(t,
                                             [&](const std::string& name) {
                                                 return std::find(existing.begin(), existing.end(), name) !=
                                                        existing.end();
                                             }),
              "vkboids-20250307-090503-3.png");
}
