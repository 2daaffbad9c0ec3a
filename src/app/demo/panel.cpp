#include "app/demo/panel.h"

#include "app/capture.h"
#include "app/naive_guard.h"
#include "app/stats.h"
#include "gpu/swapchain.h"
#include "sort/radix_sort.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <initializer_list>

namespace app {

void addFrameTimes(TimingHistory& h, const std::vector<gpu::ScopeTime>& scopes, double cpuMs) {
    h.cpuMs.push_back(cpuMs);
    if (h.cpuMs.size() > TimingHistory::window) h.cpuMs.pop_front();
    std::map<std::string, double> frame;
    for (const gpu::ScopeTime& s : scopes)
        if (s.valid) frame[s.name] += s.ms;
    if (!scopes.empty()) h.timestampsAvailable = !frame.empty();
    for (const auto& [name, ms] : frame) {
        std::deque<double>& d = h.gpuMs[name];
        d.push_back(ms);
        if (d.size() > TimingHistory::window) d.pop_front();
        h.lastSeen[name] = h.frames;
        h.added[name]++;
    }
    // Kept with an empty history, so that its row stays and shows "-" in every column.
    for (auto& [name, d] : h.gpuMs)
        if (h.frames - h.lastSeen[name] >= TimingHistory::recentFrames) {
            d.clear();
            h.added[name] = 0;
        }
    h.frames++;
}

std::string panelErrorText(const std::exception& error) {
    if (const auto* e = dynamic_cast<const sim::FlockTooLarge*>(&error))
        return "boids " + std::to_string(e->count) + " " + e->what();
    if (const auto* e = dynamic_cast<const sim::DensityError*>(&error))
        return sim::describeDensityError(*e, "keeping the density", sliderNames);
    return error.what();
}

Summary settledSummary(const std::deque<double>& times, uint64_t added) {
    return summarizeSettled(std::vector<double>(times.begin(), times.end()), added == times.size() ? 1 : 0);
}

namespace {

void timingRow(const char* label, const std::deque<double>* values, uint64_t added) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(label);
    if (!values || values->empty()) {
        for (int i = 0; i < 3; ++i) {
            ImGui::TableNextColumn();
            ImGui::TextDisabled("-");
        }
        return;
    }
    const Summary s = settledSummary(*values, added);
    for (double v : {values->back(), s.mean, s.p95}) {
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", v);
    }
}

template <typename T>
void choiceCombo(const char* label, T& value, std::initializer_list<T> options, const char* (*name)(T)) {
    ImGui::SetNextItemWidth(120);
    if (!ImGui::BeginCombo(label, name(value))) return;
    for (T option : options)
        if (ImGui::Selectable(name(option), option == value)) value = option;
    ImGui::EndCombo();
}

bool sliderParam(sim::Param param, float* value, float lo, float hi, const char* format = "%.3f") {
    return ImGui::SliderFloat(io::nameIn(sliderNames, param), value, lo, hi, format,
                              ImGuiSliderFlags_AlwaysClamp);
}

// The current window's rectangle, called between Begin and End.
PixelRect windowRect() {
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    return {pos.x, pos.y, pos.x + size.x, pos.y + size.y};
}

// At the right edge, sized to its rows, so that none is ever scrolled out of sight.
PixelRect drawTimings(const TimingHistory& t, uint32_t boids) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x - 10, viewport->WorkPos.y + 10),
                            ImGuiCond_Always, ImVec2(1, 0));
    // Open, they would leave the domain a corner of a window narrower than this: collapsed to their
    // title bar at first, they leave it the whole height beside the panel.
    ImGui::SetNextWindowCollapsed(viewport->WorkSize.x < 1000, ImGuiCond_FirstUseEver);
    ImGui::Begin("Timings (ms)", nullptr,
                 ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings);
    const auto addedTo = [&t](const std::string& name) {
        const auto it = t.added.find(name);
        return it != t.added.end() ? it->second : 0;
    };
    const double cpuMean = t.cpuMs.empty() ? 0 : settledSummary(t.cpuMs, t.frames).mean;
    const auto total = t.gpuMs.find("frame");
    const bool haveGpu = total != t.gpuMs.end() && !total->second.empty();
    const double gpuMean = haveGpu ? settledSummary(total->second, addedTo("frame")).mean : 0;
    ImGui::Text("%.1f FPS, %u boids", cpuMean > 0 ? 1000.0 / cpuMean : 0.0, boids);
    if (haveGpu)
        ImGui::Text("frame: %.2f ms CPU, %.2f ms GPU", cpuMean, gpuMean);
    else
        ImGui::Text("frame: %.2f ms CPU, - GPU", cpuMean);
    if (t.trust == gpu::TimestampTrust::Untrusted)
        ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "GPU timestamps untrusted on this driver: not shown");
    else if (!t.timestampsAvailable)
        ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "GPU timestamps unavailable");
    // Fixed columns: stretched ones would feed back into the window's automatic size.
    if (ImGui::BeginTable("timings", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        for (const char* column : {"pass", "latest", "mean", "p95"}) ImGui::TableSetupColumn(column);
        ImGui::TableHeadersRow();
        for (const std::string& name : passNames()) {
            const auto it = t.gpuMs.find(name);
            if (it != t.gpuMs.end()) timingRow(name.c_str(), &it->second, addedTo(name));
        }
        timingRow("GPU frame", total != t.gpuMs.end() ? &total->second : nullptr, addedTo("frame"));
        timingRow("CPU frame", &t.cpuMs, t.frames);
        ImGui::EndTable();
    }
    if (haveGpu) {
        const std::vector<float> v(total->second.begin(), total->second.end());
        const float hi = *std::max_element(v.begin(), v.end());
        ImGui::PlotLines("##gpu", v.data(), int(v.size()), 0, "GPU frame ms", 0.0f, hi * 1.2f,
                         ImVec2(280, 60));
    }
    const PixelRect rect = windowRect();
    ImGui::End();
    return rect;
}

void drawStyleControls(PanelState& st) {
    int path = int(st.draw.path);
    ImGui::Text("draw:");
    for (render::DrawPath p : {render::DrawPath::Auto, render::DrawPath::Compute, render::DrawPath::Points,
                               render::DrawPath::Glyphs}) {
        ImGui::SameLine();
        ImGui::BeginDisabled(p == render::DrawPath::Compute && !st.computeDrawAvailable);
        ImGui::RadioButton(render::drawPathName(p), &path, int(p));
        ImGui::EndDisabled();
    }
    st.draw.path = render::DrawPath(path);
    if (st.draw.path == render::DrawPath::Auto)
        ImGui::TextDisabled("auto: glyphs up to %u boids; now %s", render::glyphsUpTo,
                            render::drawPathName(st.drawn));
    if (st.drawn == render::DrawPath::Glyphs) {
        ImGui::SliderFloat("glyph size", &st.draw.glyphSize, render::minGlyphSize, render::maxGlyphSize,
                           "%.0f px", ImGuiSliderFlags_AlwaysClamp);
    } else {
        ImGui::SliderFloat("point size", &st.draw.pointSize, render::minPointSize, render::maxPointSize,
                           "%.0f px", ImGuiSliderFlags_AlwaysClamp);
        st.draw.pointSize = std::round(st.draw.pointSize);
    }
    const std::array<const char*, 4> labels = colorLabels(st.sim.mode);
    int color = int(st.draw.colorMode);
    ImGui::SetNextItemWidth(colorComboWidth);
    ImGui::Combo("colour by", &color, labels.data(), int(labels.size()));
    st.draw.colorMode = render::ColorMode(color);
    if (st.draw.colorMode == render::ColorMode::Order)
        ImGui::TextDisabled(st.sim.mode == sim::Mode::Coherent ? "red to violet along the sorted order"
                                                               : "red to violet by slot (not reordered)");
}

void drawSimulationSection(PanelState& st, PanelRequest& asked) {
    if (!ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) return;
    int mode = int(st.sim.mode);
    for (sim::Mode m : {sim::Mode::Naive, sim::Mode::Scattered, sim::Mode::Coherent}) {
        if (m != sim::Mode::Naive) ImGui::SameLine();
        ImGui::RadioButton(sim::modeName(m), &mode, int(m));
    }
    st.sim.mode = sim::Mode(mode);
    ImGui::Text("cell width:");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Cells at least max(r) wide, the largest radius: a boid's neighbours lie in\n"
                          "the 27 cells around it (the CUDA lab's 27-cell search); or 2 max(r) wide:\n"
                          "in the 8 on its side (the lab's 8 cells). The search scans rows and x\n"
                          "windows either way; the width sets how many boids each holds.");
    ImGui::SameLine();
    int width = int(st.sim.cellWidth);
    ImGui::RadioButton("max(r)", &width, int(sim::CellWidth::Reach));
    ImGui::SameLine();
    ImGui::RadioButton("2 max(r)", &width, int(sim::CellWidth::TwoReach));
    st.sim.cellWidth = sim::CellWidth(width);
    if (ImGui::Button(st.paused ? "Resume (space)" : "Pause (space)")) st.paused = !st.paused;
    ImGui::SameLine();
    if (ImGui::Button("Step (N)")) asked.stepOnce = true;
    ImGui::SetNextItemWidth(120);
    ImGui::InputInt("boids", &st.boidInput, 1000, 10000);
    st.boidInput = std::max(st.boidInput, 1);
    ImGui::SetNextItemWidth(120);
    ImGui::InputScalar("seed", ImGuiDataType_U64, &st.seedInput);
    bool keepDensity = st.sim.density > 0;
    if (ImGui::Checkbox("keep the density (scale L with the count)", &keepDensity))
        st.sim.density = keepDensity ? sim::densityOf(st.boids, st.sim.params.domainHalf) : 0;
    if (ImGui::Button("Reset with this count and seed")) asked.flock = PanelRequest::Flock::Fresh;
}

// The grid's choices and what it is: its cells, rows and sort, and the search counted on demand.
void drawGridSection(PanelState& st, PanelRequest& asked) {
    if (!ImGui::CollapsingHeader("Grid", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (st.sim.mode == sim::Mode::Naive) ImGui::TextDisabled("(naive mode does not use the grid)");
    // The rows the search scans, switchable live like the mode (auto: by density).
    choiceCombo("rows", st.sim.rows,
                {sim::Rows::Auto, sim::Rows::Cells, sim::Rows::OnePerCell, sim::Rows::TwoPerCell,
                 sim::Rows::FourPerCell},
                sim::rowsName);
    // How boids are ordered by key, switchable live (the two give the same order).
    choiceCombo("grid build", st.sim.gridBuild, {sim::GridBuild::Radix, sim::GridBuild::Counting},
                sim::gridBuildName);
    // The numbering of cells in the sort key, switchable live too.
    choiceCombo("cell order", st.sim.cellOrder, {sim::CellOrder::Linear, sim::CellOrder::Morton},
                sim::cellOrderName);
    if (st.grid.cellOrder == sim::CellOrder::Morton)
        ImGui::Text("%u^3 cells of %.3g, Morton keys %.2fx", st.grid.dim, st.grid.cellWidth,
                    double(st.grid.keyCells) / st.grid.cellCount);
    else
        ImGui::Text("%u^3 cells of %.3g", st.grid.dim, st.grid.cellWidth);
    ImGui::TextUnformatted(sim::describeRows(st.grid).c_str());
    // The build and the sort in use, whose passes the timings list.
    const uint32_t passes = sort::sortPassCount(st.grid.keyBits);
    if (st.sim.gridBuild == sim::GridBuild::Counting)
        ImGui::Text("counting sort of %u keys", sim::keyCount(st.grid));
    else
        ImGui::Text(
            "radix sort: %s, %u pass%s of %u bits",
            sort::algorithmName(sort::resolveAlgorithm(sort::SortAlgorithm::Auto, st.boids, st.grid.keyBits)),
            passes, passes > 1 ? "es" : "", st.grid.keyBits);
    // What the search does: counted on demand, between frames and outside the timings.
    if (ImGui::Button("Count")) asked.count = true;
    ImGui::SameLine();
    if (st.counted)
        ImGui::Text("%.1f candidates, %.1f neighbours", st.counted->candidates, st.counted->neighbours);
    else
        ImGui::TextDisabled("candidates and neighbours a boid");
    if (st.counted && st.counted->laneEfficiency > 0) {
        ImGui::Text("lane efficiency %.0f%%, rule lanes %.0f%%", 100 * st.counted->laneEfficiency,
                    100 * st.counted->ruleLanes);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "The lanes of a subgroup (%u here) walk their boids' ranges of keys together, each\n"
                "as long as its longest lane's: lane efficiency is the share of lane steps that\n"
                "test a candidate. Rule lanes: of the lanes in steps where some lane meets a boid\n"
                "within max(r), itself included (so that the rules' work runs in all of them),\n"
                "the share that do.",
                st.counted->subgroupSize);
    }
    if (st.haveGridStats && st.sim.mode != sim::Mode::Naive)
        ImGui::Text("a cell: mean %.1f, largest %u; %u occupied", double(st.boids) / st.grid.cellCount,
                    st.gridStats.largestCell, st.gridStats.occupiedCells);
}

void drawRulesSection(PanelState& st, PanelRequest& asked) {
    if (!ImGui::CollapsingHeader("Rules")) return;
    sim::Params& p = st.sim.params;
    sliderParam(sim::Param::CohesionRadius, &p.cohesionRadius, 0.1f, 50.0f);
    sliderParam(sim::Param::SeparationRadius, &p.separationRadius, 0.1f, 50.0f);
    sliderParam(sim::Param::AlignmentRadius, &p.alignmentRadius, 0.1f, 50.0f);
    sliderParam(sim::Param::CohesionScale, &p.cohesionScale, 0.0f, 0.2f, "%.4f");
    sliderParam(sim::Param::SeparationScale, &p.separationScale, 0.0f, 1.0f);
    sliderParam(sim::Param::AlignmentScale, &p.alignmentScale, 0.0f, 1.0f);
    sliderParam(sim::Param::MaxSpeed, &p.maxSpeed, 0.01f, 10.0f);
    sliderParam(sim::Param::Dt, &p.dt, 0.001f, 2.0f);
    sliderParam(sim::Param::DomainHalf, &p.domainHalf, 1.0f, 1000.0f, "%.1f");
    if (ImGui::IsItemDeactivatedAfterEdit()) asked.flock = PanelRequest::Flock::Wrap;
    if (ImGui::Button("Lab defaults")) {
        const float L = p.domainHalf;
        p = sim::Params{};
        if (L != p.domainHalf) asked.flock = PanelRequest::Flock::Wrap;
    }
}

void drawViewSection(PanelState& st, PanelRequest& asked) {
    if (!ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) return;
    drawStyleControls(st);
    ImGui::Checkbox("darken with distance", &st.draw.depthCue);
    if (ImGui::Combo("present mode", &st.presentMode, gpu::presentModeNames.names.data(),
                     int(gpu::presentModeNames.names.size())))
        asked.presentMode = true;
    ImGui::Text("presenting with %s", st.presentModeActual.c_str());
    if (ImGui::Button("Reset camera (R)")) asked.resetCamera = true;
    ImGui::SameLine();
    ImGui::TextDisabled("drag: rotate, scroll: zoom");
    ImGui::TextDisabled("F1: help, M: next mode, H: hide the panels");
}

void drawCaptureSection(PanelState& st, PanelRequest& asked) {
    if (!ImGui::CollapsingHeader("Capture")) return;
    ImGui::SetNextItemWidth(120);
    ImGui::InputInt("frames", &st.captureFrames, 100, 1000);
    st.captureFrames = std::max(st.captureFrames, 1);
    ImGui::InputText("CSV file", st.capturePath, sizeof st.capturePath);
    if (st.captureRemaining > 0)
        ImGui::Text("capturing: %d frames to go", st.captureRemaining);
    else if (ImGui::Button("Capture"))
        asked.capture = true;
}

// A failed shader edit's message (tests/live_edit_test.sh looks for this red in a screenshot).
const ImVec4 errorColor(1.0f, 0.35f, 0.3f, 1.0f);

// With --shaders: what is watched, the last reload and the last failed edit's error, which stays
// until an edit compiles.
void drawShaderSection(const PanelState& st, PanelRequest& asked) {
    const ShaderStatus& s = st.shaders;
    if (s.folder.empty()) return;
    if (!ImGui::CollapsingHeader("Shaders", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::TextWrapped("watching %zu files in %s", s.files, s.folder.c_str());
    if (s.compiling)
        ImGui::TextDisabled("compiling...");
    else if (!s.lastReload.empty())
        ImGui::TextWrapped("last reload: %s", s.lastReload.c_str());
    if (!s.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, errorColor);
        ImGui::TextWrapped("%s", s.error.c_str());
        ImGui::PopStyleColor();
        ImGui::TextDisabled("the last good shaders keep running");
    }
    if (ImGui::Button("Reload all (F5)")) asked.reloadShaders = true;
}

} // namespace

std::array<const char*, 4> colorLabels(sim::Mode mode) {
    // What the order colours mean: only coherent mode keeps boids in their sorted order.
    return {"speed", "heading", "grid cell",
            mode == sim::Mode::Coherent ? "sorted order" : "slot (unsorted)"};
}

void pressModeKey(PanelState& st) {
    // While naive's question is showing, M counts naive as reached and moves past it, so the question
    // never holds the cycle; past it lies the mode after naive, or the one after that where the
    // question was asked from there.
    const sim::Mode reached = st.naiveQuestion.empty() ? st.sim.mode : sim::Mode::Naive;
    sim::Mode next = sim::Mode((int(reached) + 1) % 3);
    if (!st.naiveQuestion.empty() && next == st.sim.mode) next = sim::Mode((int(next) + 1) % 3);
    st.sim.mode = next;
    st.naiveQuestion.clear();
}

void PanelRequest::add(const PanelRequest& other) {
    flock = std::max(flock, other.flock);
    stepOnce = stepOnce || other.stepOnce;
    presentMode = presentMode || other.presentMode;
    capture = capture || other.capture;
    resetCamera = resetCamera || other.resetCamera;
    naiveConfirmed = naiveConfirmed || other.naiveConfirmed;
    count = count || other.count;
    reloadShaders = reloadShaders || other.reloadShaders;
}

bool askBeforeNaive(PanelState& st, sim::Mode before, bool confirmed,
                    const std::function<double()>& naiveSeconds) {
    if (confirmed) {
        st.sim.mode = sim::Mode::Naive;
        st.naiveQuestion.clear();
        return false;
    }
    if (st.sim.mode == before) return false;
    st.naiveQuestion.clear();
    if (st.sim.mode != sim::Mode::Naive) return false;
    const double seconds = naiveSeconds();
    if (seconds <= slowNaiveStepSeconds) return false;
    st.naiveQuestion = naiveQuestion(st.boids, seconds);
    st.sim.mode = before;
    return true;
}

PanelRequest drawPanel(PanelState& st) {
    PanelRequest asked;
    st.timingsRect = drawTimings(st.timings, st.boids);
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    // As tall as what is open, not as the first frame was (before the grid's statistics came in), and
    // no taller than the window: what does not fit scrolls rather than falls off the bottom.
    const float maxHeight = std::max(100.0f, ImGui::GetMainViewport()->WorkSize.y - 20);
    // Wider by the scrollbar where it scrolls, rather than its widest lines cut by it.
    ImGui::SetNextWindowSizeConstraints(ImVec2(340, 0),
                                        ImVec2(340 + ImGui::GetStyle().ScrollbarSize, maxHeight));
    ImGui::Begin("vkboids", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::PushItemWidth(-130);
    ImGui::Text("%s", st.deviceName.c_str());
    if (st.cpuDevice) ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "CPU Vulkan driver: no GPU found");

    if (!st.naiveQuestion.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.7f, 0.3f, 1));
        ImGui::TextWrapped("%s", st.naiveQuestion.c_str());
        ImGui::PopStyleColor();
        if (ImGui::Button("Yes")) asked.naiveConfirmed = true;
        ImGui::SameLine();
        if (ImGui::Button("No")) st.naiveQuestion.clear();
    }

    drawShaderSection(st, asked); // first: while editing shaders, their errors are what matters
    drawSimulationSection(st, asked);
    drawGridSection(st, asked);
    drawRulesSection(st, asked);
    drawPlaySection(st, asked);
    drawViewSection(st, asked);
    drawCaptureSection(st, asked);
    if (!st.status.empty()) ImGui::TextWrapped("%s", st.status.c_str());
    ImGui::PopItemWidth();
    st.panelRect = windowRect();
    ImGui::End();
    return asked;
}

void settleLayout(const std::function<void()>& draw) {
    // One pass settles the demo's panels (test_panel.cpp); two more cover a table whose columns fit
    // their cells in one pass and its window the table in the next. Input was taken by the first pass.
    for (int pass = 0; pass < 3; ++pass) {
        ImGui::EndFrame();
        ImGui::NewFrame();
        draw();
    }
}

} // namespace app
