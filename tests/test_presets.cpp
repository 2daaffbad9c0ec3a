// The presets: each is valid, keeps the predator and the domain, starts the demo as the panel's
// choice does, and the demo's flags that go with them (--paused, --steps-before).

#include "app/demo/panel.h"
#include "app/presets.h"
#include "cli_test.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using test::parse;
using test::parseError;

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

} // namespace
