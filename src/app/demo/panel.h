#pragma once
// The demo's ImGui panel: what it shows and what the user changed in it this frame.

#include "app/camera.h"
#include "app/demo/live_shaders.h"
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

// Recent GPU times for each pass and for the whole frame, and recent CPU frame times. A pass that has
// not run in the last `recentFrames` frames keeps no history; the grid index, for example, runs only
// when the grid changes.
struct TimingHistory {
    static constexpr size_t window = 300;
    static constexpr uint64_t recentFrames = 60;
    std::map<std::string, std::deque<double>> gpuMs; // keyed by scope name; "frame" is the total
    std::map<std::string, uint64_t> lastSeen;        // the frame in which each pass last ran
    std::map<std::string, uint64_t> added;           // times added to each pass's history since it began
    uint64_t frames = 0;
    std::deque<double> cpuMs;
    bool timestampsAvailable = true;
    gpu::TimestampTrust trust = gpu::TimestampTrust::Direct; // what the profiler's probe found
};

void addFrameTimes(TimingHistory& history, const std::vector<gpu::ScopeTime>& scopes, double cpuMs);
// The summary the timings show for a history that has had `added` times so far. Its first time is
// left out while the history still holds it, because that frame created pipelines (or was the first
// of a pass that came back) and would skew the mean.
Summary settledSummary(const std::deque<double>& times, uint64_t added);

struct PanelState {
    sim::Config sim; // L is set for the present flock (sim::configFor); a reset keeps its density
    bool paused = false;
    render::DrawStyle draw;
    bool computeDrawAvailable = true; // the device has what the compute path needs
    int presentMode = 0;              // a gpu::PresentMode, as the index of the panel's list
    int boidInput = 20000;
    uint64_t seedInput = 1;
    int captureFrames = 300;
    char capturePath[256] = "vkboids-capture.csv";
    bool predatorPinned = false; // the predator stays where it was last placed (P)

    std::string presetWatched; // a preset just chosen, whose frame time is reported if it is slow
    int presetFrames = 0;      // frames stepped since presetWatched was chosen

    std::string deviceName;
    bool cpuDevice = false;
    uint32_t boids = 0;
    sim::Grid grid;
    std::optional<sim::SearchCounts> counted; // the last count, made on the grid of that time
    bool haveGridStats = false;
    gpudata::GridStats gridStats{};
    bool predatorHeld = false;                         // the right button places the predator this frame
    render::DrawPath drawn = render::DrawPath::Points; // what the last frame drew the boids with
    std::string presentModeActual;
    std::string status;        // the last message, such as a capture written or an error
    std::string naiveQuestion; // when not empty, switching to naive waits for Yes or No
    int captureRemaining = 0;
    TimingHistory timings;
    ShaderStatus shaders; // live editing with --shaders
    // Where the last frame drew the panel and the timings, in pixels with y down; empty when hidden.
    PixelRect panelRect, timingsRect;
};

// What the user asked for in one frame, by the panel, a key or the input script. Whoever heard the
// request returns it as a value, and the frame loop applies it once (applyRequest in demo.cpp).
struct PanelRequest {
    // Wrap means L changed, so the flock's positions are wrapped into the new domain. Fresh means a new
    // random flock of the panel's count and seed, which also covers a new L.
    enum class Flock { Keep, Wrap, Fresh };
    Flock flock = Flock::Keep;
    bool stepOnce = false;
    bool presentMode = false; // the present mode changed, so the swapchain must be made again
    bool capture = false;
    bool resetCamera = false;
    bool naiveConfirmed = false; // the user answered Yes to the panel's naiveQuestion
    bool count = false;          // count the search's candidates and neighbours (sim::countSearch)
    bool reloadShaders = false;  // compile every shader again from the --shaders folder

    // Merges another request into this one, so that a frame applies everything its panel, keys and
    // script asked for.
    void add(const PanelRequest& other);
};

PanelRequest drawPanel(PanelState& state);

// The slider names the panel uses when it reports a parameter out of its bounds.
constexpr sim::ParamNames sliderNames{{"cohesion radius", "separation radius", "alignment radius",
                                       "cohesion scale", "separation scale", "alignment scale", "max speed",
                                       "dt", "domain half L", "predator radius", "predator strength",
                                       "predator (right button)"}};
// Rewords an error for the panel: a flock that is too large names the boid count, and an L that a
// kept density gives names the checkbox that keeps it. Other errors are shown as they read.
std::string panelErrorText(const std::exception& error);
// Dear ImGui sizes a window, and a table's columns, to what they held the frame before. A frame whose
// contents just changed (such as the first timings) therefore shows them half-arranged, and a
// window's first frame shows nothing. For a frame that must look settled, such as a screenshot's, this
// runs `draw` (which builds the frame's windows) again in fresh ImGui frames. Call it between
// ImGui::NewFrame and Render.
void settleLayout(const std::function<void()>& draw);
// The panel's "Play" section (play_panel.cpp): presets and the predator.
void drawPlaySection(PanelState& state, PanelRequest& asked);
// Applies a chosen preset's rules, and asks for its flock where it has one (play_panel.cpp).
PanelRequest selectPreset(PanelState& state, const Preset& preset);

// The View section's "colour by" choices for boids stepped in `mode`, in render::ColorMode's order.
// Each label fits the combo box's width, colorComboWidth, in pixels.
std::array<const char*, 4> colorLabels(sim::Mode mode);
constexpr float colorComboWidth = 160;

// The M key moves to the next mode, in the order naive, scattered, coherent. While the panel is asking
// about naive, the key counts naive as reached: it drops the question and moves past naive rather
// than ask again.
void pressModeKey(PanelState& state);
// When the mode has just changed from `before` to naive and a naive step would take longer than
// slowNaiveStepSeconds, this sets the mode back to `before` and shows a question instead.
// `naiveSeconds` is called only when the mode changed to naive. The panel's Yes (`confirmed`) switches,
// and any other choice of mode drops the question. Returns whether it asked.
bool askBeforeNaive(PanelState& state, sim::Mode before, bool confirmed,
                    const std::function<double()>& naiveSeconds);

} // namespace app
