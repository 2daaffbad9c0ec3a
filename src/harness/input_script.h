#pragma once
// The test harness's input script (--input-script FILE, a hidden option): input events at given
// frames, which the harness hands to the window's own GLFW callbacks (ImGui's, chained to the demo's),
// as GLFW does with the display's events. Under Xvfb, keys sent with xdotool were often lost to focus;
// these never are.
//
// One event a line, '#' starts a comment; X and Y are fractions of the window's size:
//   FRAME key NAME                  press and release: A-Z, 0-9, F1-F12, SPACE, ESCAPE
//   FRAME char C                    a typed character (e.g. ?)
//   FRAME move X Y                  the cursor
//   FRAME press|release BUTTON      left, right or middle
//   FRAME drag BUTTON X0 Y0 X1 Y1 N press at (X0, Y0), move a step a frame to (X1, Y1) over N frames,
//                                   release
//   FRAME set NAME VALUE            a setting changed as the panel changes it: mode, cell-width, build,
//                                   order, draw, color (the command line's values), preset (its name,
//                                   as the panel lists it), boids (a fresh flock of N boids), window
//                                   (WxH)
//   FRAME loop                      play the script again from its start, its frames counted from here
//                                   (the last event, after every other)

#include <cstdint>
#include <string>
#include <vector>

namespace harness {

struct InputEvent {
    enum class Type { Key, Char, Move, Press, Release, Set, Loop };
    uint64_t frame = 0;
    Type type = Type::Key;
    int code = 0;            // GLFW key or mouse button, or the character
    float x = 0, y = 0;      // Move: fractions of the window
    std::string name, value; // Set: the setting and its value, checked when the script is read
};

// Events in frame order. Throws io::InputError naming `source` and the line.
std::vector<InputEvent> parseInputScript(const std::string& text, const std::string& source);

// The most an input script may hold: far more than any hand-written or recorded script, and little
// memory.
constexpr uint64_t maxInputScriptBytes = 16ull << 20;

// Reads and parses the script file at `path`: a regular file of at most maxInputScriptBytes. Throws
// io::InputError in one line.
std::vector<InputEvent> loadInputScript(const std::string& path);

} // namespace harness
