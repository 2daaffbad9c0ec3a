#pragma once
// The demo's ImGui panel: what it shows and what the user changed in it this frame.

#include "app/camera.h"
#include "app/presets.h"
#include "gpu/profiler.h"
#include "render/renderer.h"
#include "sim/config.h"
#include "sim/flock.h"
#include "sim/grid.h"
#include "sim/params.h"
#include "sim/sim_types.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace app {

// Recent GPU times per pass (and the frame total), and CPU frame times. A pass that has not run in the
// last `recentFrames` frames (the grid index runs only when the grid changes) keeps no history.
struct TimingHistory {
    static constexpr size_t window = 300;
    static constexpr uint64_t recentFrames = 60;
    std::map<std::string, std::deque<double>> gpuMs; // by scope name; "frame" is the total
    std::map<std::string, uint64_t> lastSeen;        // the frame of each pass's latest time
    uint64_t frames = 0;
    std::deque<double> cpuMs;
    bool timestampsAvailable = true;
    gpu::TimestampTrust trust = gpu::TimestampTrust::Direct; // what the profiler's probe found
};

void addFrameTimes(TimingHistory& history, const std::vector<gpu::ScopeTime>& scopes, double cpuMs);

struct PanelState {
    // Settings the panel edits.
    sim::Config sim; // L as set for the present flock (sim::configFor); keepDensity below is the panel's
    bool paused = false;
    render::DrawStyle draw;
    bool computeDrawAvailable = true; // the device has what the compute path needs
    bool keepDensity = false;         // a reset to a new count scales L to keep boids per unit^3
    int presentMode = 0;              // index into fifo, mailbox, immediate
    int boidInput = 20000;
    uint64_t seedInput = 1;
    int captureFrames = 300;
    char capturePath[256] = "vkboids-capture.csv";
    bool predatorPinned = false; // the predator stays where it was last placed (P)

    // Requests for this frame.
    bool stepOnce = false;
    bool reinitialize = false;  // new boid count or seed: a fresh random flock
    bool domainChanged = false; // L changed: positions are wrapped into the new domain
    bool presentModeChanged = false;
    bool captureRequested = false;
    bool resetCamera = false;
    bool naiveConfirmed = false; // Yes to naiveQuestion
    bool countRequested = false; // count the search's candidates and neighbours (sim::countSearch)

    // What the panel shows.
    std::string deviceName;
    bool cpuDevice = false;
    uint32_t boids = 0;
    sim::Grid grid;
    std::optional<sim::SearchCounts> counted; // the last count (of the grid of its time)
    bool haveGridStats = false;
    gpudata::GridStats gridStats{};
    bool predatorHeld = false;                         // the right button places the predator this frame
    render::DrawPath drawn = render::DrawPath::Points; // what the last frame drew the boids with
    std::string presentModeActual;
    std::string status;        // last message (capture written, errors)
    std::string naiveQuestion; // non-empty: switching to naive waits for Yes or No
    int captureRemaining = 0;
    TimingHistory timings;
    // Where the last frame drew the panel and the timings (pixels, y down; empty when not shown).
    PixelRect panelRect, timingsRect;
};

const char* const presentModeNames[3] = {"fifo", "mailbox", "immediate"};

void drawPanel(PanelState& state);
// Dear ImGui sizes a window to what it held the frame before, and a table's columns likewise: a frame
// whose contents just changed (the first timings) shows them half-arranged, and a window's first frame
// shows nothing. A frame that must look settled (a screenshot's) is laid out again: `draw`, which builds
// the frame's windows, runs again in fresh ImGui frames, called between ImGui::NewFrame and Render.
void settleLayout(const std::function<void()>& draw);
// The panel's "Play" section (play_panel.cpp): presets and the predator.
void drawPlaySection(PanelState& state);
// A preset chosen (play_panel.cpp): its rules, and its flock where it has one.
void selectPreset(PanelState& state, const Preset& preset);

} // namespace app
