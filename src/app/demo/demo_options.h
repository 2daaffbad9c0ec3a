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
    uint64_t frames = 0; // 0 means run until the window is closed
    uint64_t warmup = 0;
    std::string capture;    // the CSV's path; a JSON summary is written beside it
    std::string screenshot; // PNG of the last frame
    std::string loadState;
    std::string preset;             // --preset: the id of the panel's preset the run starts with, or empty
    bool paused = false;            // the first frames show the flock still (space resumes)
    uint64_t stepsBefore = 0;       // steps run before the first frame, so that the flock has formed
    bool formedStart = false;       // no flock was asked for: start from assets/' formed flock
    int width = 1280, height = 800; // --window
    render::DrawPath drawPath = render::DrawPath::Auto;
    render::ColorMode color = render::ColorMode::Heading;
};

// "1280x800", at least minWindowWidth x minWindowHeight and at most maxWindowSide a side (--window, and the
// input script's "window"). Throws io::InputError.
void parseWindowSize(const std::string& text, int& width, int& height);

} // namespace app
