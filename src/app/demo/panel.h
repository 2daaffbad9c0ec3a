#pragma once
// The demo's ImGui panel: what it shows and what the user changed in it this frame.

#include "app/camera.h"
#include "app/presets.h"
#include "app/stats.h"
#include "app/values.h"
#include "gpu/profiler.h"
#include "render/renderer.h"
#include "sim/config.h"
#include "sim/flock.h"
#include "sim/grid.h"
#include "sim/params.h"
#include "sim/sim_types.h"

#include <array>
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
    std::map<std::string, uint64_t> added;           // times added to each pass's history since it began
    uint64_t frames = 0;
    std::deque<double> cpuMs; // as many as `frames`
    bool timestampsAvailable = true;
    gpu::TimestampTrust trust = gpu::TimestampTrust::Direct; // what the profiler's probe found
};

void addFrameTimes(TimingHistory& history, const std::vector<gpu::ScopeTime>& scopes, double cpuMs);
// What the timings show of a history that has had `added` times so far: its first time (the frame that
// created pipelines, or the first of a pass that comes back) left out while the history holds it.
Summary settledSummary(const std::deque<double>& times, uint64_t added);

struct PanelState {
    // Settings the panel edits.
    sim::Config sim; // L as set for the present flock (sim::configFor); a density it holds a reset keeps
    bool paused = false;
    render::DrawStyle draw;
    bool computeDrawAvailable = true; // the device has what the compute path needs
    int presentMode = 0;              // a gpu::PresentMode, as the index of the panel's list
    int boidInput = 20000;
    uint64_t seedInput = 1;
    int captureFrames = 300;
    char capturePath[256] = "vkboids-capture.csv";
    bool predatorPinned = false; // the predator stays where it was last placed (P)

    std::string presetWatched; // a preset just chosen: its frame time is said where it crawls
    int presetFrames = 0;      // frames stepped since presetWatched was chosen

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

// What the user asked for in one frame, by the panel, a key or the input script: returned as a value
// by whoever heard it, and applied once by the frame loop (demo.cpp, applyRequest).
struct PanelRequest {
    // Wrap: L changed, so the flock's positions are wrapped into the new domain. Fresh: a new random
    // flock of the panel's count and seed, which also covers a new L.
    enum class Flock { Keep, Wrap, Fresh };
    Flock flock = Flock::Keep;
    bool stepOnce = false;
    bool presentMode = false; // the present mode changed: the swapchain is made again
    bool capture = false;
    bool resetCamera = false;
    bool naiveConfirmed = false; // Yes to the panel's naiveQuestion
    bool count = false;          // count the search's candidates and neighbours (sim::countSearch)

    // Both requests: a frame applies everything its panel, keys and script asked for.
    void add(const PanelRequest& other);
};

PanelRequest drawPanel(PanelState& state);

// Each parameter's slider, by which the panel names a parameter out of its bounds.
constexpr ParamNames sliderNames{{"cohesion radius", "separation radius", "alignment radius",
                                  "cohesion scale", "separation scale", "alignment scale", "max speed", "dt",
                                  "domain half L", "predator radius", "predator strength",
                                  "predator (right button)"}};
// An error in the panel's words: a flock too large names the boid count, a density's L the checkbox
// that keeps it; any other as it reads.
std::string panelErrorText(const std::exception& error);
// Dear ImGui sizes a window to what it held the frame before, and a table's columns likewise: a frame
// whose contents just changed (the first timings) shows them half-arranged, and a window's first frame
// shows nothing. A frame that must look settled (a screenshot's) is laid out again: `draw`, which builds
// the frame's windows, runs again in fresh ImGui frames, called between ImGui::NewFrame and Render.
void settleLayout(const std::function<void()>& draw);
// The panel's "Play" section (play_panel.cpp): presets and the predator.
void drawPlaySection(PanelState& state, PanelRequest& asked);
// A preset chosen (play_panel.cpp): its rules, and its flock where it has one.
PanelRequest selectPreset(PanelState& state, const Preset& preset);

// The View section's "colour by" choices, in render::ColorMode's order, for boids stepped in `mode`;
// each fits the combo box's width (colorComboWidth, in pixels).
std::array<const char*, 4> colorLabels(sim::Mode mode);
constexpr float colorComboWidth = 160;

// The M key: the next mode, in the order naive, scattered, coherent. While the panel asks about naive,
// naive is the mode the key last reached: the key drops the question and moves on past naive rather
// than ask again.
void pressModeKey(PanelState& state);
// Switching away from `before` to naive, where a step would take longer than slowNaiveStepSeconds
// (`naiveSeconds`, called only then), asks first: the mode stays `before` and the question is shown.
// The panel's Yes (`confirmed`) switches; any other choice of mode drops the question. Returns
// whether it asked.
bool askBeforeNaive(PanelState& state, sim::Mode before, bool confirmed,
                    const std::function<double()>& naiveSeconds);

} // namespace app
