// The input script that drives the demo in tests (src/harness): its parser, its one-line errors
// naming the file and line, and the files it agrees to read.

#include "harness/input_script.h"
#include "io/input.h"
#include "output_test.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace {

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

TEST(InputScript, Parses) {
    using Type = harness::InputEvent::Type;
    const std::vector<harness::InputEvent> e = harness::parseInputScript("# a comment\n"
                                                                         "\n"
                                                                         "20 key F12\n"
                                                                         "10 key M   # mode\n"
                                                                         "11 char ?\n"
                                                                         "12 drag right 0.25 0.5 0.75 0.5 2\n"
                                                                         "30 press left\n"
                                                                         "31 move 0.1 0.9\n"
                                                                         "32 release left\n",
                                                                         "x");
    ASSERT_EQ(e.size(), 11u);
    EXPECT_EQ(e[0].frame, 10u);
    EXPECT_EQ(e[0].type, Type::Key);
    EXPECT_EQ(e[0].code, GLFW_KEY_M);
    EXPECT_EQ(e[1].type, Type::Char);
    EXPECT_EQ(e[1].code, '?');
    // The drag: to the start, press, two moves a frame apart, release at the end.
    EXPECT_EQ(e[2].type, Type::Move);
    EXPECT_EQ(e[2].frame, 12u);
    EXPECT_FLOAT_EQ(e[2].x, 0.25f);
    EXPECT_EQ(e[3].type, Type::Press);
    EXPECT_EQ(e[3].code, GLFW_MOUSE_BUTTON_RIGHT);
    EXPECT_EQ(e[4].frame, 13u);
    EXPECT_FLOAT_EQ(e[4].x, 0.5f);
    EXPECT_EQ(e[5].frame, 14u);
    EXPECT_FLOAT_EQ(e[5].x, 0.75f);
    EXPECT_EQ(e[6].type, Type::Release);
    EXPECT_EQ(e[6].frame, 14u);
    EXPECT_EQ(e[7].frame, 20u);
    EXPECT_EQ(e[7].code, GLFW_KEY_F12);
    EXPECT_EQ(e[8].code, GLFW_MOUSE_BUTTON_LEFT);
    EXPECT_FLOAT_EQ(e[9].y, 0.9f);
    EXPECT_EQ(e[10].type, Type::Release);
}

TEST(InputScript, SettingsAndTheLoop) {
    using Type = harness::InputEvent::Type;
    const std::vector<harness::InputEvent> e = harness::parseInputScript("3 set preset calm murmuration  \n"
                                                                         "1 set draw glyphs\n"
                                                                         "2 set window 900x640\n"
                                                                         "4 set boids 3e3\n"
                                                                         "9 loop\n",
                                                                         "x");
    ASSERT_EQ(e.size(), 5u);
    EXPECT_EQ(e[0].type, Type::Set);
    EXPECT_EQ(e[0].name, "draw");
    EXPECT_EQ(e[0].value, "glyphs");
    EXPECT_EQ(e[1].value, "900x640");
    EXPECT_EQ(e[2].name, "preset");
    EXPECT_EQ(e[2].value, "calm murmuration"); // a name with spaces, without the trailing ones
    EXPECT_EQ(e[3].value, "3e3");
    EXPECT_EQ(e[4].type, Type::Loop);
    EXPECT_EQ(e[4].frame, 9u);
}

TEST(InputScript, BadLinesNameTheFileAndLine) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"1 key\n", "s:1: '' is not a key"},
        {"\n1 key F13\n", "s:2: 'F13' is not a key"},
        {"x key M\n", "'x' is not a frame number"},
        {"-1 key M\n", "'-1' is not a frame number"},
        {"1 jump\n", "'jump' is not an action"},
        {"1 press thumb\n", "'thumb' is not a mouse button"},
        {"1 move 0.5\n", "X and Y must be numbers"},
        {"1 drag left 0 0 1 1 0\n", "drag takes a number of frames"},
        {"1 key M M\n", "unexpected 'M'"},
        {"1 char ab\n", "char takes one character"},
        {"1 set mode fast\n", "set mode: 'fast' must be naive, scattered or coherent"},
        {"1 set cell-width 9\n", "set cell-width: '9' must be r or 2r"},
        {"1 set cells 9\n", "set cells: '9' must be r or 2r"},
        {"1 set draw lines\n", "set draw: 'lines' must be"},
        {"1 set preset calm\n", "must be a preset's id"},
        {"1 set boids 0\n", "set boids: must be at least 1"},
        {"1 set window 100x100\n", "at least 800x600"},
        {"1 set speed 2\n", "'speed' is not a setting"},
        {"0 loop\n", "loop must come after frame 0"},
        {"5 loop\n6 key M\n", "s:1: loop must come after every other event"},
        {"5 loop\n5 key M\n", "s:1: loop must come after every other event"},
        {"1 drag left 0 0 1 1 9\n5 loop\n", "s:2: loop must come after every other event"},
        {"5 loop\n6 loop\n", "s:2: a second loop (the first is on line 1)"},
    };
    for (const auto& [text, expect] : cases) {
        try {
            harness::parseInputScript(text, "s");
            ADD_FAILURE() << text << ": accepted";
        } catch (const io::InputError& e) {
            EXPECT_NE(std::string(e.what()).find(expect), std::string::npos) << text << ": " << e.what();
        }
    }
    EXPECT_THROW(harness::loadInputScript("/nonexistent/script.txt"), io::InputError);
}

// A script file is read only whole and small: one longer than any script (a sparse file here) is
// refused by its size, and the device that reads zeros for ever without reading it, in one line
// naming the flag.
TEST(InputScript, OnlyASmallRegularFileIsRead) {
    const std::filesystem::path dir = test::freshTestDir("vkboids-script");
    const std::filesystem::path file = dir / "script.txt";
    std::ofstream(file) << "1 key SPACE\n";
    EXPECT_EQ(harness::loadInputScript(file.string()).size(), 1u);
    std::filesystem::resize_file(file, harness::maxInputScriptBytes + 1);
    const auto error = [](const std::string& path) {
        try {
            harness::loadInputScript(path);
        } catch (const io::InputError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(error(file.string()),
              "--input-script: cannot read '" + file.string() + "': it holds more than " +
                  std::to_string(harness::maxInputScriptBytes) + " bytes, the most an input script may have");
    std::filesystem::remove_all(dir);
#ifndef _WIN32
    EXPECT_EQ(error("/dev/zero"), "--input-script: cannot read '/dev/zero': it is a device, not a file");
#endif
}

} // namespace
