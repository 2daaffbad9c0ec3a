#pragma once
// What the demo takes from the command line (app/cli parses it), and the window's size rules it
// shares with the input script.

#include "gpu/swapchain.h"
#include "render/renderer.h"
#include "sim/config.h"

#include <cstdint>
#include <string>

namespace app {

// The smallest window the demo opens (--window) or resizes to: the panels and the domain beside
// them fit, nothing clipped.
constexpr int minWindowWidth = 800, minWindowHeight = 600;
// The largest window side asked for: X11 keeps a window's size in 16 bits and wraps larger ones (99999
// became 34463), and no device draws wider than this.
constexpr int maxWindowSide = 32767;
// The most steps --steps-before runs: a flock forms in about 2000.
constexpr uint64_t maxStepsBefore = 100000;

struct DemoOptions {
    uint32_t boids = 20000;
    uint64_t seed = 1;
    sim::Config sim;
    gpu::PresentMode presentMode = gpu::PresentMode::Fifo;
    uint64_t frames = 0; // 0: run until closed
    uint64_t warmup = 0;
    std::string capture;    // CSV path; a JSON summary goes beside it
    std::string screenshot; // PNG of the last frame
    std::string loadState;
    std::string preset;       // --preset: the panel's preset (its id) the run starts with; "" none
    bool paused = false;      // the first frames show the flock still (space resumes)
    uint64_t stepsBefore = 0; // steps run before the first frame: a formed flock
    bool formedStart = false; // no flock asked for: the formed flock of assets/ (app/formed_flock.h)
    int width = 1280, height = 800; // --window
    render::DrawPath drawPath = render::DrawPath::Auto;
    render::ColorMode color = render::ColorMode::Heading;
};

// "1280x800", at least minWindowWidth x minWindowHeight and at most maxWindowSide a side (--window, and the
// input script's "window"). Throws io::InputError.
void parseWindowSize(const std::string& text, int& width, int& height);

} // namespace app
