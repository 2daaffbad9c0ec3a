// The harness's work at each pass of the demo's frame loop: the input script's events played
// through the window's callbacks, the window resized, minimized and restored, the frames counted for
// the script's report, and the memory and layout lines that the soak and the window test read.

#include "harness/harness.h"

#include "app/demo/demo_state.h"
#include "app/values.h"
#include "harness/input_script.h"
#include "io/platform.h"

#include <memory>

namespace harness {
namespace {

using app::Clock;
using app::Demo;
using app::PanelRequest;

struct Harness {
    Options options;
    std::vector<InputEvent> script;
    size_t scriptNext = 0;     // the first event not yet played in this pass of the script
    uint64_t scriptStart = 0;  // the frame this pass of the script began (its loop restarts it)
    uint64_t scriptPasses = 1; // the passes of the script begun so far
    int minimizedWaits = 0;    // --exercise-window: 0 before minimizing, passes since, -1 restored
    uint64_t framesSeen = 0;   // frames already counted and reported on
    uint64_t predatorFrames = 0, helpFrames = 0; // frames with the predator on, and with the help shown
    Clock::time_point lastMemoryReport, lastLayoutReport;
    // The first call resets the memory peak, so that the reports are of the run, not of the set-up.
    bool started = false;
};

// The callback installed now (ImGui's, which chains to the demo's), as GLFW would call it.
template <typename Callback> Callback installed(GLFWwindow* w, Callback (*set)(GLFWwindow*, Callback)) {
    const Callback callback = set(w, nullptr);
    set(w, callback);
    return callback;
}

// A setting as the panel changes it (the script checked the value when it was read).
PanelRequest applySetting(Demo& d, const InputEvent& e) {
    app::PanelState& st = d.panel;
    if (e.name == "mode") st.sim.mode = *sim::parseMode(e.value);
    if (e.name == "cell-width" || e.name == "cells") st.sim.cellWidth = *sim::parseCellWidth(e.value);
    if (e.name == "build") st.sim.gridBuild = *sim::parseGridBuild(e.value);
    if (e.name == "order") st.sim.cellOrder = *sim::parseCellOrder(e.value);
    if (e.name == "draw") st.draw.path = *render::drawPathFromName(e.value);
    if (e.name == "color") st.draw.colorMode = *render::colorModeFromName(e.value);
    if (e.name == "preset") return app::selectPreset(st, *app::findPreset(e.value));
    if (e.name == "boids") {
        st.boidInput = int(app::parseCount(e.value, "set boids", 0x7fffffff));
        return {.flock = PanelRequest::Flock::Fresh};
    }
    if (e.name == "window") {
        int width = 0, height = 0;
        app::parseWindowSize(e.value, width, height);
        glfwSetWindowSize(d.window, width, height);
    }
    return {};
}

// The events due by this frame, as the display would deliver them. Returns the settings' requests.
PanelRequest playInputScript(Harness& h, Demo& d) {
    GLFWwindow* w = d.window;
    PanelRequest asked;
    while (h.scriptNext < h.script.size() && h.script[h.scriptNext].frame + h.scriptStart <= d.frameNumber) {
        const InputEvent& e = h.script[h.scriptNext++];
        switch (e.type) {
        case InputEvent::Type::Set: asked.add(applySetting(d, e)); break;
        case InputEvent::Type::Loop:
            h.scriptStart += e.frame;
            h.scriptNext = 0;
            h.scriptPasses++;
            // The heap is reported at the same point of every pass, because the soak compares it from
            // pass to pass.
            std::printf("input script: pass %llu begins at frame %llu, heap %lld bytes in use\n",
                        (unsigned long long)h.scriptPasses, (unsigned long long)d.frameNumber,
                        (long long)io::os::heapBytesInUse());
            std::fflush(stdout);
            break;
        case InputEvent::Type::Key:
            if (const GLFWkeyfun key = installed(w, glfwSetKeyCallback)) {
                key(w, e.code, glfwGetKeyScancode(e.code), GLFW_PRESS, 0);
                key(w, e.code, glfwGetKeyScancode(e.code), GLFW_RELEASE, 0);
            }
            break;
        case InputEvent::Type::Char:
            if (const GLFWcharfun typed = installed(w, glfwSetCharCallback)) typed(w, unsigned(e.code));
            break;
        case InputEvent::Type::Move:
            if (const GLFWcursorposfun move = installed(w, glfwSetCursorPosCallback)) {
                int width = 0, height = 0;
                glfwGetWindowSize(w, &width, &height);
                move(w, double(e.x) * width, double(e.y) * height);
            }
            break;
        case InputEvent::Type::Press:
        case InputEvent::Type::Release:
            if (const GLFWmousebuttonfun button = installed(w, glfwSetMouseButtonCallback))
                button(w, e.code, e.type == InputEvent::Type::Press ? GLFW_PRESS : GLFW_RELEASE, 0);
            break;
        }
    }
    return asked;
}

// A resize a third of the way through the run, a minimize at two thirds, and a restore some passes
// later: the demo, minimized, renders nothing in between.
void exerciseWindow(Harness& h, Demo& d) {
    if (!h.options.exerciseWindow || !d.totalFrames) return;
    if (d.frameNumber == d.totalFrames / 3)
        glfwSetWindowSize(d.window, std::max(app::minWindowWidth, d.options.width * 3 / 4),
                          std::max(app::minWindowHeight, d.options.height * 2 / 3));
    if (h.minimizedWaits > 0 && ++h.minimizedWaits == 10) {
        glfwRestoreWindow(d.window);
        h.minimizedWaits = -1;
    }
    if (d.frameNumber == 2 * d.totalFrames / 3 && h.minimizedWaits == 0) {
        glfwIconifyWindow(d.window);
        // The window manager takes a moment to act; where there is no window manager, nothing happens.
        for (int i = 0; i < 120 && !glfwGetWindowAttrib(d.window, GLFW_ICONIFIED); ++i)
            glfwWaitEventsTimeout(0.025);
        h.minimizedWaits = 1;
    }
}

// --report-memory: one line a second, with the peak since the previous line.
void reportMemory(Harness& h, const Demo& d) {
    const Clock::time_point now = Clock::now();
    if (!h.options.reportMemory || now - h.lastMemoryReport < std::chrono::seconds(1)) return;
    h.lastMemoryReport = now;
    const gpu::MemoryTally tally = gpu::allocatedMemory();
    gpu::resetMemoryPeak();
    std::printf("memory: frame %llu, device %llu bytes in %llu allocations, at most %llu since the last "
                "line, heap %lld bytes in use\n",
                (unsigned long long)d.frameNumber, (unsigned long long)tally.bytes,
                (unsigned long long)tally.allocations, (unsigned long long)tally.peakBytes,
                (long long)io::os::heapBytesInUse());
    std::fflush(stdout);
}

// --report-layout, once a second: the window's size, the panels' rectangles and the domain's on the
// screen (pixels: x0 y0 x1 y1).
void reportLayout(Harness& h, const Demo& d) {
    const Clock::time_point now = Clock::now();
    if (!h.options.reportLayout || now - h.lastLayoutReport < std::chrono::seconds(1)) return;
    h.lastLayoutReport = now;
    const uint32_t width = d.swapchain.extent.width, height = d.swapchain.extent.height;
    // The domain's corners on the screen.
    const float L = d.panel.sim.params.domainHalf;
    const glm::mat4 viewProj = app::viewProjection(d.camera, width, height, L);
    app::PixelRect domain{float(width), float(height), 0, 0};
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec4 c =
            viewProj * glm::vec4(corner & 1 ? L : -L, corner & 2 ? L : -L, corner & 4 ? L : -L, 1);
        const float x = (c.x / c.w * 0.5f + 0.5f) * float(width),
                    y = (c.y / c.w * 0.5f + 0.5f) * float(height);
        domain = {std::min(domain.x0, x), std::min(domain.y0, y), std::max(domain.x1, x),
                  std::max(domain.y1, y)};
    }
    const auto text = [](const app::PixelRect& r) {
        char line[96];
        std::snprintf(line, sizeof line, "%.0f %.0f %.0f %.0f", r.x0, r.y0, r.x1, r.y1);
        return std::string(line);
    };
    std::printf("layout: window %u %u panel %s timings %s domain %s\n", width, height,
                text(app::toPixels(d.panel.panelRect)).c_str(),
                text(app::toPixels(d.panel.timingsRect)).c_str(), text(domain).c_str());
    std::fflush(stdout);
}

// The frame the demo finished since the last call, if any: counted for the script's report, and
// reported on. Its state lasts until the next frame begins, so reading it now reads it as it ended.
void noteFinishedFrame(Harness& h, const Demo& d) {
    if (d.frameNumber == h.framesSeen) return;
    h.framesSeen = d.frameNumber;
    h.predatorFrames += d.panel.sim.params.predator;
    h.helpFrames += d.showHelp;
    reportMemory(h, d);
    reportLayout(h, d);
}

// What the script's events did, for the window test.
void reportInputScript(const Harness& h, const Demo& d) {
    if (h.script.empty()) return;
    const float* p = d.panel.sim.params.predatorPos;
    std::printf("input script: %zu of %zu events played, predator on in %llu frames, last at (%.2f, %.2f, "
                "%.2f), help shown in %llu frames",
                h.scriptNext, h.script.size(), (unsigned long long)h.predatorFrames, p[0], p[1], p[2],
                (unsigned long long)h.helpFrames);
    if (h.scriptPasses > 1) std::printf(", in pass %llu", (unsigned long long)h.scriptPasses);
    std::printf("\n");
}

} // namespace

app::DemoHarness createHarness(const Options& options) {
    if (!options.exerciseWindow && options.inputScript.empty() && !options.reportMemory &&
        !options.reportLayout)
        return {};
    const auto h = std::make_shared<Harness>();
    h->options = options;
    if (!options.inputScript.empty()) h->script = loadInputScript(options.inputScript);
    return {.frame =
                [h](Demo& d) {
                    if (!h->started) gpu::resetMemoryPeak();
                    h->started = true;
                    noteFinishedFrame(*h, d);
                    const PanelRequest asked = playInputScript(*h, d);
                    exerciseWindow(*h, d);
                    return asked;
                },
            .end =
                [h](const Demo& d) {
                    noteFinishedFrame(*h, d);
                    reportInputScript(*h, d);
                }};
}

} // namespace harness
