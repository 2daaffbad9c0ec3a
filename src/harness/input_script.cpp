#include "harness/input_script.h"

#include "app/demo/demo_options.h"
#include "app/presets.h"
#include "app/values.h"
#include "io/input.h"
#include "sim/params.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

namespace harness {
namespace {

int keyFromName(const std::string& name) {
    if (name.size() == 1 && name[0] >= 'A' && name[0] <= 'Z') return GLFW_KEY_A + (name[0] - 'A');
    if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') return GLFW_KEY_0 + (name[0] - '0');
    if (name.size() >= 2 && name.size() <= 3 && name[0] == 'F' &&
        std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        const int n = std::stoi(name.substr(1));
        if (n >= 1 && n <= 12) return GLFW_KEY_F1 + n - 1;
    }
    if (name == "SPACE") return GLFW_KEY_SPACE;
    if (name == "ESCAPE") return GLFW_KEY_ESCAPE;
    return -1;
}

int buttonFromName(const std::string& name) {
    if (name == "left") return GLFW_MOUSE_BUTTON_LEFT;
    if (name == "right") return GLFW_MOUSE_BUTTON_RIGHT;
    if (name == "middle") return GLFW_MOUSE_BUTTON_MIDDLE;
    return -1;
}

// Why `value` is not a value of setting `name`, or "" where it is.
std::string settingProblem(const std::string& name, const std::string& value) {
    const auto expect = [&](bool ok, const std::string& values) {
        return ok ? std::string() : "set " + name + ": '" + value + "' must be " + values;
    };
    const auto expectName = [&](const auto& table) {
        return expect(io::valueIn(table, value).has_value(), io::choiceList(table));
    };
    if (name == "mode") return expectName(sim::modeNames);
    if (name == "cell-width" || name == "cells") // cells: its old name, whose 8 and 27 still read
        return expect(sim::parseCellWidth(value).has_value(), io::choiceList(sim::cellWidthNames));
    if (name == "build") return expectName(sim::gridBuildNames);
    if (name == "order") return expectName(sim::cellOrderNames);
    if (name == "draw") return expectName(render::drawPathNames);
    if (name == "color") return expectName(render::colorModeNames);
    if (name == "preset")
        return expect(app::findPreset(value) != nullptr, "a preset's id (as --preset takes it) or its name");
    try {
        int width = 0, height = 0;
        if (name == "boids") app::parseCount(value, "set boids", 0x7fffffff);
        if (name == "window") app::parseWindowSize(value, width, height);
        if (name == "boids" || name == "window") return std::string();
    } catch (const io::InputError& e) {
        return e.what();
    }
    return "'" + name +
           "' is not a setting (mode, cell-width, build, order, draw, color, preset, boids, window)";
}

// A line of the script being read: its words, and where it is for messages.
struct ScriptLine {
    std::istringstream in;
    const std::string& source;
    int number = 0;

    [[noreturn]] void fail(std::string why) const {
        // A binary file's bytes would garble the terminal: the message stays one printable line.
        for (char& c : why)
            if (uint8_t(c) < 0x20 || uint8_t(c) >= 0x7f) c = '?';
        if (why.size() > 160) why = why.substr(0, 160) + "...";
        throw io::InputError("--input-script " + source + ":" + std::to_string(number) + ": " + why);
    }
    // X or Y, a fraction of the window.
    void fraction(float& v) {
        if (!(in >> v) || !std::isfinite(v)) fail("X and Y must be numbers (fractions of the window)");
    }
};

// FRAME drag BUTTON X0 Y0 X1 Y1 N, its button read into `e`: a press, a move a frame, a release.
void parseDrag(ScriptLine& line, const InputEvent& e, std::vector<InputEvent>& events) {
    float x0, y0, x1, y1;
    uint64_t frames = 0;
    line.fraction(x0);
    line.fraction(y0);
    line.fraction(x1);
    line.fraction(y1);
    if (!(line.in >> frames) || frames < 1 || frames > 100000)
        line.fail("drag takes a number of frames, 1 or more");
    for (uint64_t f = 0; f <= frames; ++f) {
        const float t = float(f) / float(frames);
        InputEvent move{e.frame + f, InputEvent::Type::Move, 0, x0 + t * (x1 - x0), y0 + t * (y1 - y0)};
        events.push_back(move);
        if (f == 0) events.push_back({e.frame, InputEvent::Type::Press, e.code});
    }
    events.push_back({e.frame + frames, InputEvent::Type::Release, e.code});
}

// The line's action, after its frame (in `e`); a loop's line is kept in `loopLine`.
void parseAction(ScriptLine& line, const std::string& action, InputEvent e, int& loopLine,
                 std::vector<InputEvent>& events) {
    std::istringstream& in = line.in;
    std::string arg;
    if (action == "key") {
        in >> arg;
        e.code = keyFromName(arg);
        if (e.code < 0) line.fail("'" + arg + "' is not a key (A-Z, 0-9, F1-F12, SPACE, ESCAPE)");
        events.push_back(e);
    } else if (action == "char") {
        in >> arg;
        if (arg.size() != 1) line.fail("char takes one character");
        e.type = InputEvent::Type::Char;
        e.code = static_cast<unsigned char>(arg[0]);
        events.push_back(e);
    } else if (action == "move") {
        e.type = InputEvent::Type::Move;
        line.fraction(e.x);
        line.fraction(e.y);
        events.push_back(e);
    } else if (action == "press" || action == "release" || action == "drag") {
        in >> arg;
        e.code = buttonFromName(arg);
        if (e.code < 0) line.fail("'" + arg + "' is not a mouse button (left, right, middle)");
        if (action == "drag") return parseDrag(line, e, events);
        e.type = action == "press" ? InputEvent::Type::Press : InputEvent::Type::Release;
        events.push_back(e);
    } else if (action == "set") {
        e.type = InputEvent::Type::Set;
        in >> e.name;
        std::getline(in >> std::ws, e.value); // a preset's name has spaces
        while (!e.value.empty() && std::isspace(uint8_t(e.value.back()))) e.value.pop_back();
        if (const std::string problem = settingProblem(e.name, e.value); !problem.empty()) line.fail(problem);
        events.push_back(e);
    } else if (action == "loop") {
        if (loopLine) line.fail("a second loop (the first is on line " + std::to_string(loopLine) + ")");
        if (e.frame == 0) line.fail("loop must come after frame 0");
        e.type = InputEvent::Type::Loop;
        loopLine = line.number;
        events.push_back(e);
    } else {
        line.fail("'" + action + "' is not an action (key, char, move, press, release, drag, set, loop)");
    }
}

} // namespace

std::vector<InputEvent> parseInputScript(const std::string& text, const std::string& source) {
    std::vector<InputEvent> events;
    std::istringstream lines(text);
    std::string textLine;
    int loopLine = 0;
    for (int number = 1; std::getline(lines, textLine); ++number) {
        ScriptLine line{std::istringstream(textLine.substr(0, textLine.find('#'))), source, number};
        std::string frameText, action;
        if (!(line.in >> frameText)) continue; // a blank line
        if (frameText.empty() ||
            !std::all_of(frameText.begin(), frameText.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
            frameText.size() > 12)
            line.fail("'" + frameText + "' is not a frame number");
        InputEvent e;
        e.frame = std::stoull(frameText);
        line.in >> action;
        parseAction(line, action, e, loopLine, events);
        if (std::string arg; line.in >> arg) line.fail("unexpected '" + arg + "'");
    }
    std::stable_sort(events.begin(), events.end(),
                     [](const InputEvent& a, const InputEvent& b) { return a.frame < b.frame; });
    // The loop restarts the script: every other event (a drag's last step too) comes before it.
    const auto loop = std::ranges::find(events, InputEvent::Type::Loop, &InputEvent::type);
    if (loop != events.end() &&
        (loop + 1 != events.end() || (loop != events.begin() && (loop - 1)->frame >= loop->frame)))
        throw io::InputError("--input-script " + source + ":" + std::to_string(loopLine) +
                             ": loop must come after every other event");
    return events;
}

std::vector<InputEvent> loadInputScript(const std::string& path) {
    std::string text;
    try {
        text = io::readFile(path, maxInputScriptBytes, "an input script");
    } catch (const io::InputError& e) {
        throw io::InputError(std::string("--input-script: ") + e.what());
    }
    return parseInputScript(text, path);
}

} // namespace harness
