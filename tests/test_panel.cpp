// The panel's layout, read from ImGui's own window rectangles (no backend, no pixels), and its timing
// history.

#include "app/capture.h"
#include "app/demo/demo_options.h"
#include "app/demo/help.h"
#include "app/demo/panel.h"
#include "app/naive_guard.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>

namespace {

// Every pass, and the frame total, with a full history.
app::TimingHistory fullHistory() {
    app::TimingHistory h;
    std::vector<gpu::ScopeTime> scopes;
    for (const std::string& name : app::passNames())
        scopes.push_back({.name = name, .ms = 0.125, .valid = true});
    scopes.push_back({.name = "frame", .ms = 1.5, .valid = true});
    for (size_t i = 0; i < app::TimingHistory::window; ++i) app::addFrameTimes(h, scopes, 16.7);
    return h;
}

struct Layout {
    ImRect timings, panel;
    float timingsScroll = 0, panelScroll = 0;
    float panelOverflow = 0;    // how much wider than the panel its widest line is
    float timingsOverflow = 0;  // the same for the timings
    float helpOverflow = 0;     // and the help, where shown
    float columnOverflow = 0;   // how much wider than its column the timings' widest cell is
    std::vector<float> columns; // the timings' column widths
    bool shown = false;         // both windows drawn (a window's first frame is not)
    bool found = false;
};

// What the demo shows on a CPU driver once its first frames are in: every line the panel can show.
app::PanelState fullState() {
    app::PanelState state;
    state.deviceName = "llvmpipe (LLVM 15.0.6, 256 bits)";
    state.cpuDevice = true;
    state.boids = 20000;
    state.grid.dim = 40;
    state.grid.cellCount = 64000;
    state.grid.cellWidth = 5;
    state.grid.keyBits = 19;
    state.grid.slicesPerCell = 8;
    state.grid.cellOrder = sim::CellOrder::Morton;
    state.counted = sim::SearchCounts{1234.5, 678.9, 0.715, 0.482, 64};
    state.grid.keyCells = 229888;
    state.haveGridStats = true;
    state.gridStats.occupiedCells = 16000;
    state.gridStats.largestCell = 5;
    state.presentModeActual = "fifo";
    state.status = "wrote vkboids-capture.csv and vkboids-capture.json";
    state.timings = fullHistory();
    return state;
}

// fullState with the drawing controls at their tallest and widest: auto's line, the glyph size, the
// order colours' note.
app::PanelState fullDrawingState(sim::Mode mode) {
    app::PanelState state = fullState();
    state.sim.mode = mode;
    state.draw.path = render::DrawPath::Auto;
    state.drawn = render::DrawPath::Glyphs;
    state.draw.colorMode = render::ColorMode::Order;
    return state;
}

// A context with a display of width x height, without a backend.
void createContext(float width, float height) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(width, height);
    io.DeltaTime = 1.0f / 60;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    io.Fonts->SetTexID(ImTextureID(1));
    ImGui::StyleColorsDark();
}

// How much wider than the window's visible width (less its scrollbar) its widest line is.
float overflow(const ImGuiWindow* window) {
    return window->ContentSize.x - window->ContentRegionRect.GetWidth();
}

std::vector<float> corners(const ImRect& r) {
    return {r.Min.x, r.Min.y, r.Max.x, r.Max.y};
}

// The panels as the last frame laid them out.
Layout readLayout() {
    Layout l;
    const ImGuiWindow* timings = ImGui::FindWindowByName("Timings (ms)");
    const ImGuiWindow* panel = ImGui::FindWindowByName("vkboids");
    if (timings && panel) {
        l.found = true;
        l.timings = timings->Rect();
        l.panel = panel->Rect();
        l.timingsScroll = timings->ScrollMax.y;
        l.panelScroll = panel->ScrollMax.y;
        l.panelOverflow = overflow(panel);
        l.shown = !timings->Hidden && !panel->Hidden;
        l.timingsOverflow = overflow(timings);
        if (const ImGuiTable* table = ImGui::TableFindByID(ImHashStr("timings", 0, timings->ID)))
            for (int i = 0; i < table->ColumnsCount; ++i) {
                const ImGuiTableColumn& c = table->Columns[i];
                l.columns.push_back(c.WidthGiven);
                l.columnOverflow =
                    std::max(l.columnOverflow, c.ContentMaxXUnfrozen - c.WorkMinX - c.WidthGiven);
            }
    }
    if (const ImGuiWindow* help = ImGui::FindWindowByName("Help"); help && help->Active)
        l.helpOverflow = overflow(help);
    return l;
}

// The first frame as the demo's (no timings or statistics yet), then a few full ones: windows sized
// once by their first frame, or auto-sized ones that take a frame or two to settle, show here. With
// `everything`, every section of the panel is opened, the timings too, and the help is shown.
Layout layoutAt(float width, float height, app::PanelState& state, bool everything = false) {
    createContext(width, height);
    app::PanelState first;
    bool help = everything;
    for (int frame = 0; frame < 4; ++frame) {
        ImGui::NewFrame();
        app::drawPanel(frame == 0 ? first : state);
        if (help) app::drawHelp(&help);
        ImGui::Render();
        if (frame == 0 && everything) {
            ImGuiWindow* panel = ImGui::FindWindowByName("vkboids");
            for (const char* section : {"Simulation", "Grid", "Rules", "Play", "View", "Capture"})
                panel->StateStorage.SetInt(ImHashStr(section, 0, panel->ID), 1);
            ImGui::SetWindowCollapsed("Timings (ms)", false);
        }
    }
    const Layout l = readLayout();
    ImGui::DestroyContext();
    return l;
}

TEST(Panel, EveryTimingFitsAt1280x800) {
    app::PanelState state = fullState();
    const Layout l = layoutAt(1280, 800, state);
    ASSERT_TRUE(l.found);
    const ImRect display(0, 0, 1280, 800);
    EXPECT_TRUE(display.Contains(l.timings))
        << l.timings.Min.x << "," << l.timings.Min.y << " to " << l.timings.Max.x << "," << l.timings.Max.y;
    EXPECT_EQ(l.timingsScroll, 0) << "the timings window needs a scrollbar";
    EXPECT_GT(l.timings.Min.x, l.panel.Max.x) << "the timings overlap the panel";
    EXPECT_NEAR(l.timings.Max.x, 1280, 20) << "the timings are not at the right edge";
    EXPECT_TRUE(display.Contains(l.panel));
    EXPECT_EQ(l.panelScroll, 0) << "the panel needs a scrollbar";
}

// The drawing controls at their tallest.
TEST(Panel, TheDrawingControlsFitToo) {
    for (sim::Mode mode : {sim::Mode::Coherent, sim::Mode::Scattered}) {
        app::PanelState state = fullDrawingState(mode);
        const Layout l = layoutAt(1280, 800, state);
        ASSERT_TRUE(l.found);
        EXPECT_TRUE(ImRect(0, 0, 1280, 800).Contains(l.panel));
        EXPECT_EQ(l.panelScroll, 0) << "the panel needs a scrollbar";
        EXPECT_LE(l.panelOverflow, 0) << "a line is clipped at the panel's right edge";
        EXPECT_GT(l.timings.Min.x, l.panel.Max.x) << "the timings overlap the panel";
    }
}

// At the smallest window (demo_options.h), with every section open, the help shown and the drawing controls
// at their widest: no label is clipped, in the panel (which scrolls), the timings or the help, and the panels
// stay within the window.
TEST(Panel, EveryLabelFitsAtTheSmallestWindow) {
    const float width = app::minWindowWidth, height = app::minWindowHeight;
    for (sim::Mode mode : {sim::Mode::Coherent, sim::Mode::Scattered}) {
        app::PanelState state = fullDrawingState(mode);
        state.sim.params.predatorScale = -1; // the attractor's note
        const Layout l = layoutAt(width, height, state, true);
        ASSERT_TRUE(l.found);
        const ImRect display(0, 0, width, height);
        EXPECT_TRUE(display.Contains(l.panel));
        EXPECT_TRUE(display.Contains(l.timings));
        EXPECT_GT(l.panelScroll, 0) << "every section open fits: the test does not show a scrolling panel";
        EXPECT_LE(l.panelOverflow, 0) << "a line is clipped at the panel's right edge";
        EXPECT_LE(l.timingsOverflow, 0) << "a line is clipped at the timings' right edge";
        EXPECT_LE(l.columnOverflow, 0) << "a timing is wider than its column";
        EXPECT_LE(l.helpOverflow, 0) << "a line is clipped at the help's right edge";
        EXPECT_GT(l.timings.Min.x, l.panel.Max.x) << "the timings overlap the panel";
    }
}

// The demo's first frames: two before any GPU time comes in, then the first timings. A screenshot of
// any of them (its frame laid out by settleLayout) shows the panels as they settle, the rows and
// columns of the timings in place.
TEST(Panel, AScreenshotsFrameIsSettled) {
    app::PanelState first;
    app::PanelState full = fullState();
    for (int shotFrame = 0; shotFrame < 3; ++shotFrame) {
        createContext(1280, 800);
        app::PanelState& shotState = shotFrame < 2 ? first : full;
        for (int frame = 0; frame <= shotFrame; ++frame) {
            app::PanelState& state = frame < 2 ? first : full;
            ImGui::NewFrame();
            app::drawPanel(state);
            if (frame == shotFrame) app::settleLayout([&] { app::drawPanel(state); });
            ImGui::Render();
        }
        const Layout shot = readLayout();
        for (int frame = 0; frame < 8; ++frame) {
            ImGui::NewFrame();
            app::drawPanel(shotState);
            ImGui::Render();
        }
        const Layout settled = readLayout();
        ImGui::DestroyContext();
        ASSERT_TRUE(shot.found && settled.found);
        EXPECT_TRUE(shot.shown) << "frame " << shotFrame << ": a panel is not drawn";
        EXPECT_EQ(corners(shot.timings), corners(settled.timings))
            << "frame " << shotFrame << ": the timings";
        EXPECT_EQ(corners(shot.panel), corners(settled.panel)) << "frame " << shotFrame << ": the panel";
        EXPECT_EQ(shot.columns, settled.columns) << "frame " << shotFrame << ": the timings' columns";
    }
}

TEST(Panel, APassNotRunRecentlyKeepsNoHistory) {
    app::TimingHistory h = fullHistory();
    std::vector<gpu::ScopeTime> withoutGridIndex;
    for (const std::string& name : app::passNames())
        if (name != "grid index") withoutGridIndex.push_back({.name = name, .ms = 0.125, .valid = true});
    for (uint64_t i = 0; i + 1 < app::TimingHistory::recentFrames; ++i)
        app::addFrameTimes(h, withoutGridIndex, 16.7);
    EXPECT_FALSE(h.gpuMs["grid index"].empty()); // ran within the last frames
    app::addFrameTimes(h, withoutGridIndex, 16.7);
    ASSERT_TRUE(h.gpuMs.contains("grid index")); // its row stays, with "-" throughout
    EXPECT_TRUE(h.gpuMs["grid index"].empty());
    EXPECT_EQ(h.gpuMs["flock"].size(), app::TimingHistory::window);
    app::addFrameTimes(h, {{.name = "grid index", .ms = 0.5, .valid = true}}, 16.7);
    EXPECT_EQ(h.gpuMs["grid index"].size(), 1u);
}

// A combo box clips its choice to its width, which no window's overflow shows: each of the "colour by"
// choices, in either mode's wording, fits beside the combo's arrow.
TEST(Panel, EveryColourChoiceFitsItsComboBox) {
    createContext(1280, 800);
    ImGui::NewFrame();
    const ImGuiStyle& style = ImGui::GetStyle();
    for (sim::Mode mode : {sim::Mode::Naive, sim::Mode::Scattered, sim::Mode::Coherent})
        for (const char* label : app::colorLabels(mode))
            EXPECT_LE(ImGui::CalcTextSize(label).x + 2 * style.FramePadding.x + ImGui::GetFrameHeight(),
                      app::colorComboWidth)
                << "'" << label << "' is clipped";
    ImGui::EndFrame();
    ImGui::DestroyContext();
}

// M, pressed again and again, reaches every mode in turn, whether naive's step is fast or asks first:
// pressed while the question shows, it moves on past naive rather than ask again.
TEST(Panel, TheModeKeyReachesEveryModeEvenWhereNaiveAsksFirst) {
    for (double naiveSeconds : {0.01, 30.0}) {
        app::PanelState st;
        st.boids = 20000;
        st.sim.mode = sim::Mode::Coherent;
        std::vector<sim::Mode> reached;
        int asked = 0;
        for (int press = 0; press < 6; ++press) {
            const sim::Mode before = st.sim.mode;
            app::pressModeKey(st);
            asked += app::askBeforeNaive(st, before, false, [&] { return naiveSeconds; });
            reached.push_back(!st.naiveQuestion.empty() ? sim::Mode::Naive : st.sim.mode);
        }
        const std::vector<sim::Mode> cycle = {sim::Mode::Naive, sim::Mode::Scattered, sim::Mode::Coherent,
                                              sim::Mode::Naive, sim::Mode::Scattered, sim::Mode::Coherent};
        EXPECT_EQ(reached, cycle) << "naive at " << naiveSeconds << " s a step";
        EXPECT_EQ(asked, naiveSeconds > app::slowNaiveStepSeconds ? 2 : 0);
        EXPECT_TRUE(st.naiveQuestion.empty());
    }
    // The question shown, the panel's Yes switches to naive.
    app::PanelState st;
    st.sim.mode = sim::Mode::Coherent;
    app::pressModeKey(st);
    ASSERT_TRUE(app::askBeforeNaive(st, sim::Mode::Coherent, false, [] { return 30.0; }));
    EXPECT_EQ(st.sim.mode, sim::Mode::Coherent);
    EXPECT_FALSE(app::askBeforeNaive(st, sim::Mode::Coherent, true, [] { return 30.0; }));
    EXPECT_EQ(st.sim.mode, sim::Mode::Naive);
    EXPECT_TRUE(st.naiveQuestion.empty());
    // Asked from scattered (the mode list), M moves on past scattered rather than staying there.
    app::PanelState fromList;
    fromList.sim.mode = sim::Mode::Naive;
    ASSERT_TRUE(app::askBeforeNaive(fromList, sim::Mode::Scattered, false, [] { return 30.0; }));
    app::pressModeKey(fromList);
    EXPECT_EQ(fromList.sim.mode, sim::Mode::Coherent);
    EXPECT_TRUE(fromList.naiveQuestion.empty());
}

// The timings leave a history's first frame (its pipelines created) out while they hold it, so that
// its mean stays under its p95; once it has left the window, every time counts.
TEST(Panel, TheTimingsLeaveTheFirstFramesSpikeOut) {
    app::TimingHistory h;
    app::addFrameTimes(h, {{.name = "flock", .ms = 900, .valid = true}}, 2000);
    for (int i = 0; i < 99; ++i) app::addFrameTimes(h, {{.name = "flock", .ms = 1, .valid = true}}, 16);
    const app::Summary cpu = app::settledSummary(h.cpuMs, h.frames);
    const app::Summary flock = app::settledSummary(h.gpuMs["flock"], h.added["flock"]);
    EXPECT_EQ(cpu.count, 99u);
    EXPECT_LE(cpu.mean, cpu.p95);
    EXPECT_LE(flock.mean, flock.p95);
    for (size_t i = 0; i < app::TimingHistory::window; ++i)
        app::addFrameTimes(h, {{.name = "flock", .ms = 1, .valid = true}}, 16);
    EXPECT_EQ(app::settledSummary(h.cpuMs, h.frames).count, app::TimingHistory::window);
}

} // namespace
