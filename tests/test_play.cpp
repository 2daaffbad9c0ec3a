// The demo's play pieces without a window: the predator's flags, picking under the cursor, the
// presets and the input script's parser.

#include "app/camera.h"
#include "app/cli/cli.h"
#include "app/demo/panel.h"
#include "app/demo/picking.h"
#include "app/presets.h"
#include "cli_test.h"
#include "harness/input_script.h"
#include "output_test.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>

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

// ---- Picking ------------------------------------------------------------------------------------

glm::vec2 toPixel(const glm::mat4& viewProj, const glm::vec3& p, float width, float height) {
    const glm::vec4 clip = viewProj * glm::vec4(p, 1);
    return {(clip.x / clip.w * 0.5f + 0.5f) * width, (clip.y / clip.w * 0.5f + 0.5f) * height};
}

TEST(Picking, TheViewsCentreIsTheDomainsCentre) {
    const app::OrbitCamera camera = app::defaultCamera(100);
    const glm::mat4 vp = app::viewProjection(camera, 1280, 800, 100);
    const std::optional<glm::vec3> hit = app::pickOnPlane(vp, 640, 400, 1280, 800, glm::vec3(0));
    ASSERT_TRUE(hit);
    EXPECT_LT(glm::length(*hit), 1e-3f);
}

TEST(Picking, TheHitIsUnderTheCursorOnThePlaneFacingTheCamera) {
    for (const glm::vec3& centre : {glm::vec3(0), glm::vec3(10, -20, 5)})
        for (float yaw : {0.0f, 0.6f, 2.5f}) {
            app::OrbitCamera camera = app::defaultCamera(50);
            camera.yaw = yaw;
            camera.pitch = -0.3f;
            const glm::mat4 vp = app::viewProjection(camera, 1000, 600, 50);
            // The camera's eye looks at the origin: the plane's normal is the eye's direction.
            const glm::vec3 eye =
                camera.distance * glm::vec3(std::cos(camera.pitch) * std::sin(yaw), std::sin(camera.pitch),
                                            std::cos(camera.pitch) * std::cos(yaw));
            for (const glm::vec2 pixel : {glm::vec2(100, 50), glm::vec2(900, 580), glm::vec2(500, 300)}) {
                const std::optional<glm::vec3> hit =
                    app::pickOnPlane(vp, pixel.x, pixel.y, 1000, 600, centre);
                ASSERT_TRUE(hit);
                const glm::vec2 back = toPixel(vp, *hit, 1000, 600);
                EXPECT_NEAR(back.x, pixel.x, 0.1f);
                EXPECT_NEAR(back.y, pixel.y, 0.1f);
                EXPECT_NEAR(glm::dot(*hit - centre, glm::normalize(eye)), 0.0f, 1e-3f * camera.distance);
            }
        }
    // Top left of the view is up and to the left: y grows downwards in pixels.
    const app::OrbitCamera front{.yaw = 0, .pitch = 0, .distance = 100};
    const std::optional<glm::vec3> topLeft =
        app::pickOnPlane(app::viewProjection(front, 800, 800, 50), 0, 0, 800, 800, glm::vec3(0));
    ASSERT_TRUE(topLeft);
    EXPECT_LT(topLeft->x, 0);
    EXPECT_GT(topLeft->y, 0);
    EXPECT_NEAR(topLeft->z, 0, 1e-3f);
    EXPECT_FALSE(app::pickOnPlane(glm::mat4(0), 1, 1, 10, 10, glm::vec3(0)));
}

// The default view's domain, framed: every corner on the screen lies within the frame.
void expectDomainWithin(const app::PixelRect& frame, uint32_t width, uint32_t height) {
    app::OrbitCamera camera = app::defaultCamera(100.0f);
    camera.frame = frame;
    const glm::mat4 viewProj = app::viewProjection(camera, width, height, 100.0f);
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec4 c = viewProj * glm::vec4(corner & 1 ? 100 : -100, corner & 2 ? 100 : -100,
                                                 corner & 4 ? 100 : -100, 1);
        const float x = (c.x / c.w * 0.5f + 0.5f) * float(width),
                    y = (c.y / c.w * 0.5f + 0.5f) * float(height);
        EXPECT_TRUE(x >= frame.x0 && x <= frame.x1 && y >= frame.y0 && y <= frame.y1)
            << width << "x" << height << ": corner " << corner << " at " << x << ", " << y;
    }
}

TEST(Camera, FramesTheDomainBesideThePanels) {
    // A wide window: between the panel and the timings; a small one: below the timings.
    const app::PixelRect wide = app::freeFrame(1280, 800, {10, 10, 350, 740}, {964, 10, 1270, 296});
    EXPECT_EQ(wide.x0, 350);
    EXPECT_EQ(wide.x1, 964);
    EXPECT_EQ(wide.y0, 0);
    expectDomainWithin(wide, 1280, 800);
    const app::PixelRect small = app::freeFrame(800, 600, {10, 10, 350, 590}, {484, 10, 790, 296});
    EXPECT_EQ(small.x0, 350);
    EXPECT_EQ(small.x1, 800);
    EXPECT_EQ(small.y0, 296);
    expectDomainWithin(small, 800, 600);
    EXPECT_LT(app::frameScale(small, 600), app::frameScale(wide, 800));
    // On a scaled display the same layout in pixels frames the same view.
    const app::PixelRect doubled = app::freeFrame(2560, 1600, {20, 20, 700, 1480}, {1928, 20, 2540, 592});
    EXPECT_EQ(doubled.x0, 2 * wide.x0);
    EXPECT_EQ(doubled.x1, 2 * wide.x1);
    EXPECT_FLOAT_EQ(app::frameScale(doubled, 1600), app::frameScale(wide, 800));
    // No panels: the whole window, unscaled.
    const app::PixelRect whole = app::freeFrame(1280, 800, {}, {});
    EXPECT_EQ(whole.x1, 1280);
    EXPECT_EQ(whole.y1, 800);
    EXPECT_EQ(app::frameScale({}, 800), 1.0f);
    expectDomainWithin(whole, 1280, 800);
}

TEST(Picking, ClampsIntoTheDomain) {
    EXPECT_EQ(app::clampToDomain(glm::vec3(150, -3, -400), 100), glm::vec3(100, -3, -100));
}

// ---- Presets ------------------------------------------------------------------------------------

TEST(Presets, EveryPresetIsValidAndDistinct) {
    ASSERT_GE(app::presets().size(), 4u);
    std::set<std::string> names;
    for (const app::Preset& p : app::presets()) {
        EXPECT_FALSE(sim::validateParams(p.params)) << p.name;
        EXPECT_TRUE(names.insert(p.name).second) << p.name;
    }
    EXPECT_EQ(app::presets().front().params.cohesionRadius, sim::Params{}.cohesionRadius); // the lab's
    EXPECT_TRUE(std::any_of(app::presets().begin(), app::presets().end(),
                            [](const app::Preset& p) { return p.boids > 0; })); // the large flock
}

TEST(Presets, KeepThePredatorAndTheDomain) {
    sim::Params current;
    current.domainHalf = 40;
    current.predator = true;
    current.predatorPos[2] = 7;
    current.predatorRadius = 9;
    current.predatorScale = 2;
    for (const app::Preset& preset : app::presets()) {
        const sim::Params p = app::applyPreset(preset, current);
        EXPECT_FALSE(sim::validateParams(p)) << preset.name;
        EXPECT_EQ(p.domainHalf, preset.setsDomain ? preset.params.domainHalf : 40.0f) << preset.name;
        EXPECT_EQ(p.cohesionRadius, preset.params.cohesionRadius);
        EXPECT_TRUE(p.predator);
        EXPECT_EQ(p.predatorPos[2], 7);
        EXPECT_EQ(p.predatorRadius, 9);
        EXPECT_EQ(p.predatorScale, 2);
    }
}

// The demo starts as choosing the preset in the panel would leave it (selectPreset), its flock
// included; a flag given explicitly wins over the preset's value.
TEST(Presets, StartTheDemoAsThePanelDoes) {
    for (const app::Preset& preset : app::presets()) {
        const app::DemoOptions demo = parse({"--preset", preset.id}).demo;
        app::PanelState panel;
        panel.sim.params = parse({}).demo.sim.params;
        panel.boids = 20000; // the flock the demo starts with
        app::selectPreset(panel, preset);
        EXPECT_EQ(demo.preset, preset.id);
        const sim::Params &a = demo.sim.params, &b = panel.sim.params;
        EXPECT_EQ(std::tie(a.cohesionRadius, a.separationRadius, a.alignmentRadius, a.cohesionScale,
                           a.separationScale, a.alignmentScale, a.maxSpeed, a.dt, a.predator),
                  std::tie(b.cohesionRadius, b.separationRadius, b.alignmentRadius, b.cohesionScale,
                           b.separationScale, b.alignmentScale, b.maxSpeed, b.dt, b.predator))
            << preset.id;
        // The panel scales L when it makes the preset's flock (demo.cpp rebuildFlock).
        const double scale = preset.boids ? std::cbrt(preset.boids / 2e4) : 1;
        EXPECT_NEAR(a.domainHalf, b.domainHalf * scale, 1e-3) << preset.id;
        EXPECT_EQ(demo.boids, preset.boids ? preset.boids : 20000u) << preset.id;
        // Both hold the density a later count keeps (the panel's in its checkbox), or none.
        EXPECT_NEAR(demo.sim.density, panel.sim.density, 1e-12) << preset.id;
        EXPECT_EQ(demo.sim.density > 0, preset.boids > 0) << preset.id;
    }
    EXPECT_EQ(parse({"--preset", "calm murmuration"}).demo.preset, "calm-murmuration"); // the panel's name
    const app::DemoOptions large = parse({"--preset", "large-flock"}).demo;
    EXPECT_NEAR(large.sim.params.domainHalf, 100 * std::cbrt(1e6 / 2e4), 1e-3); // the density kept
    const app::Preset& schools = *app::findPreset("tight-schools");
    const sim::Params given =
        parse({"--preset", "tight-schools", "--max-speed", "2", "--domain-half", "50"}).demo.sim.params;
    EXPECT_EQ(given.maxSpeed, 2);
    EXPECT_EQ(given.domainHalf, 50);
    EXPECT_EQ(given.cohesionRadius, schools.params.cohesionRadius);
    const app::DemoOptions counted = parse({"--preset", "large-flock", "--boids", "5000"}).demo;
    EXPECT_EQ(counted.boids, 5000u);
    EXPECT_EQ(counted.sim.params.domainHalf, 100);
    EXPECT_EQ(counted.sim.density, 0) << "the count given: no density kept";
    EXPECT_EQ(parse({"--preset", "large-flock", "--density", "0.125"}).demo.sim.params.domainHalf, 100);
    EXPECT_EQ(parse({}).demo.preset, "");
}

// A preset that crawls on the device says so with its measured frame time.
TEST(Presets, SlowNoteNamesThePresetAndItsFrameTime) {
    EXPECT_EQ(app::slowPresetNote("large-flock", 5.04),
              "large-flock: about 5 s a frame on this device (measured); fewer boids run faster");
    EXPECT_EQ(app::slowPresetNote("large-flock", 0.314),
              "large-flock: about 0.31 s a frame on this device (measured); fewer boids run faster");
    EXPECT_EQ(app::slowPresetNote("tight-schools", 12.6),
              "tight-schools: about 13 s a frame on this device (measured); fewer boids run faster");
}

// Choosing a preset in the panel has the demo watch its frame time.
TEST(Presets, ChoosingOneWatchesItsSpeed) {
    app::PanelState st;
    app::selectPreset(st, *app::findPreset("large-flock"));
    EXPECT_EQ(st.presetWatched, "large-flock");
}

// Choosing a preset returns what the frame must do to the flock, as a value: a fresh flock for a
// preset that has one, the flock wrapped into a domain that a preset changes, nothing otherwise.
// Requests heard in one frame add up, a fresh flock covering a wrapped one.
TEST(Presets, ChoosingOneReturnsTheFlocksRequest) {
    using Flock = app::PanelRequest::Flock;
    app::PanelState st;
    const app::PanelRequest large = app::selectPreset(st, *app::findPreset("large-flock"));
    EXPECT_EQ(large.flock, Flock::Fresh);
    EXPECT_EQ(st.boidInput, int(app::findPreset("large-flock")->boids));
    EXPECT_EQ(app::selectPreset(st, *app::findPreset("calm-murmuration")).flock, Flock::Keep);
    app::Preset smaller = *app::findPreset("calm-murmuration");
    smaller.setsDomain = true;
    smaller.params.domainHalf = st.sim.params.domainHalf / 2;
    app::PanelRequest asked = app::selectPreset(st, smaller);
    EXPECT_EQ(asked.flock, Flock::Wrap);
    EXPECT_EQ(app::selectPreset(st, smaller).flock, Flock::Keep); // L is already the preset's
    asked.add({.stepOnce = true});
    asked.add(large);
    EXPECT_EQ(asked.flock, Flock::Fresh);
    EXPECT_TRUE(asked.stepOnce);
    asked.add({});
    EXPECT_EQ(asked.flock, Flock::Fresh);
    EXPECT_TRUE(asked.stepOnce);
    EXPECT_FALSE(asked.capture || asked.count || asked.resetCamera || asked.presentMode);
}

TEST(Presets, PausedAndStepsBefore) {
    EXPECT_FALSE(parse({}).demo.paused);
    EXPECT_TRUE(parse({"--paused"}).demo.paused);
    EXPECT_EQ(parse({}).demo.stepsBefore, 0u);
    EXPECT_EQ(parse({"--steps-before", "2e3"}).demo.stepsBefore, 2000u);
    EXPECT_EQ(parse({"--steps-before", "0"}).demo.stepsBefore, 0u);
    EXPECT_EQ(parse({"--steps-before", "1e5"}).demo.stepsBefore, 100000u);
    const std::vector<std::pair<std::vector<const char*>, std::string>> cases = {
        {{"--preset", "calm"},
         "--preset: 'calm' is not a preset (lab-defaults, calm-murmuration, tight-schools, large-flock)"},
        {{"--preset", ""}, "--preset: the value is empty"},
        {{"--steps-before", "-1"}, "--steps-before: must be 0 or more"},
        {{"--steps-before", "1.5"}, "--steps-before: '1.5' is not a whole number"},
        {{"--steps-before", "many"}, "--steps-before: 'many' is not a number"},
        {{"--steps-before", "1e12"}, "--steps-before: '1e12' is too large (at most 100000)"},
        {{"--preset", "tight-schools", "step"}, "'step' has no --preset"},
        {{"step", "--preset", "tight-schools"}, "unknown option '--preset' for step"},
        {{"--paused", "bench"}, "'bench' has no --paused"},
        {{"--preset", "tight-schools", "--max-speed", "0"}, "--max-speed"},
    };
    for (const auto& [args, expect] : cases) {
        const std::string message = parseError(args);
        EXPECT_NE(message.find(expect), std::string::npos) << args[0] << ": '" << message << "'";
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

// ---- The input script ---------------------------------------------------------------------------

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
