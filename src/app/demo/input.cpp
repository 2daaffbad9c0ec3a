// The demo's input: its callbacks, the input script (input_script.h) played through them, the
// predator under the mouse, and the reports tests read (--report-memory, --report-layout).

#include "app/demo/demo_state.h"
#include "app/demo/picking.h"
#include "app/values.h"
#include "io/platform.h"

namespace app {
namespace {

Demo& demoOf(GLFWwindow* window) {
    return *static_cast<Demo*>(glfwGetWindowUserPointer(window));
}

void onKey(GLFWwindow* window, int key, int, int action, int) {
    if (action == GLFW_PRESS && key >= 0 && key <= GLFW_KEY_LAST) demoOf(window).keyPressed[key] = true;
}

void onMouseButton(GLFWwindow* window, int button, int action, int) {
    if (button >= 0 && button <= GLFW_MOUSE_BUTTON_LAST)
        demoOf(window).buttonDown[button] = action == GLFW_PRESS;
}

void onCursorPos(GLFWwindow* window, double x, double y) {
    demoOf(window).cursorX = x;
    demoOf(window).cursorY = y;
}

// The callback installed now (ImGui's, which chains to the demo's), as GLFW would call it.
template <typename Callback> Callback installed(GLFWwindow* w, Callback (*set)(GLFWwindow*, Callback)) {
    const Callback callback = set(w, nullptr);
    set(w, callback);
    return callback;
}

} // namespace

void installInputCallbacks(Demo& d) {
    glfwSetKeyCallback(d.window, onKey);
    glfwSetMouseButtonCallback(d.window, onMouseButton);
    glfwSetCursorPosCallback(d.window, onCursorPos);
    glfwGetCursorPos(d.window, &d.cursorX, &d.cursorY);
}

// A setting as the panel changes it (the script checked the value when it was read).
void applySetting(Demo& d, const InputEvent& e) {
    PanelState& st = d.panel;
    if (e.name == "mode") st.sim.mode = *sim::parseMode(e.value);
    if (e.name == "cell-width" || e.name == "cells") st.sim.cellWidth = *sim::parseCellWidth(e.value);
    if (e.name == "build") st.sim.gridBuild = *sim::parseGridBuild(e.value);
    if (e.name == "order") st.sim.cellOrder = *sim::parseCellOrder(e.value);
    if (e.name == "draw") st.draw.path = *render::drawPathFromName(e.value);
    if (e.name == "color") st.draw.colorMode = *render::colorModeFromName(e.value);
    if (e.name == "preset") selectPreset(st, *findPreset(e.value));
    if (e.name == "boids") {
        st.boidInput = int(parseCount(e.value, "set boids", 0x7fffffff));
        st.reinitialize = true;
    }
    if (e.name == "window") {
        int width = 0, height = 0;
        parseWindowSize(e.value, width, height);
        glfwSetWindowSize(d.window, width, height);
    }
}

void playInputScript(Demo& d) {
    GLFWwindow* w = d.window;
    while (d.scriptNext < d.script.size() && d.script[d.scriptNext].frame + d.scriptStart <= d.frameNumber) {
        const InputEvent& e = d.script[d.scriptNext++];
        switch (e.type) {
        case InputEvent::Type::Set: applySetting(d, e); break;
        case InputEvent::Type::Loop:
            d.scriptStart += e.frame;
            d.scriptNext = 0;
            d.scriptPasses++;
            // The heap at the same point of every pass: what the soak compares from pass to pass.
            std::printf("input script: pass %llu begins at frame %llu, heap %lld bytes in use\n",
                        (unsigned long long)d.scriptPasses, (unsigned long long)d.frameNumber,
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
}

// While the right button is held away from the panels, the predator is where the cursor's ray meets
// the plane through the domain's centre facing the camera (the flock's own centre would need a
// readback), kept inside the domain; it stays after the release only when pinned.
void updatePlay(Demo& d) {
    PanelState& st = d.panel;
    const uint32_t width = d.swapchain.extent.width, height = d.swapchain.extent.height;
    int windowWidth = 0, windowHeight = 0;
    glfwGetWindowSize(d.window, &windowWidth, &windowHeight);
    st.predatorHeld = d.buttonDown[GLFW_MOUSE_BUTTON_RIGHT] && !ImGui::GetIO().WantCaptureMouse &&
                      windowWidth > 0 && windowHeight > 0;
    if (st.predatorHeld) {
        const float L = st.sim.params.domainHalf;
        // Cursor positions are in window coordinates, the view in framebuffer pixels.
        const float x = float(d.cursorX * width / windowWidth), y = float(d.cursorY * height / windowHeight);
        if (const std::optional<glm::vec3> hit =
                pickOnPlane(viewProjection(d.camera, width, height, L), x, y, width, height, glm::vec3(0))) {
            const glm::vec3 p = clampToDomain(*hit, L);
            for (int a = 0; a < 3; ++a) st.sim.params.predatorPos[a] = p[a];
        }
    }
    st.sim.params.predator = st.predatorHeld || st.predatorPinned;
    // A pinned predator stays inside a domain that the panel has since shrunk.
    const glm::vec3 kept = clampToDomain(
        glm::vec3(st.sim.params.predatorPos[0], st.sim.params.predatorPos[1], st.sim.params.predatorPos[2]),
        st.sim.params.domainHalf);
    for (int a = 0; a < 3; ++a) st.sim.params.predatorPos[a] = kept[a];
    d.predatorFrames += st.sim.params.predator;
    d.helpFrames += d.showHelp;
}

// What the script's events did, for the window test.
void reportInputScript(const Demo& d) {
    if (d.script.empty()) return;
    const float* p = d.panel.sim.params.predatorPos;
    std::printf("input script: %zu of %zu events played, predator on in %llu frames, last at (%.2f, %.2f, "
                "%.2f), help shown in %llu frames",
                d.scriptNext, d.script.size(), (unsigned long long)d.predatorFrames, p[0], p[1], p[2],
                (unsigned long long)d.helpFrames);
    if (d.scriptPasses > 1) std::printf(", in pass %llu", (unsigned long long)d.scriptPasses);
    std::printf("\n");
}

void reportMemory(Demo& d) {
    const Clock::time_point now = Clock::now();
    if (!d.options.reportMemory || now - d.lastMemoryReport < std::chrono::seconds(1)) return;
    d.lastMemoryReport = now;
    const gpu::MemoryTally tally = gpu::allocatedMemory();
    gpu::resetMemoryPeak();
    std::printf("memory: frame %llu, device %llu bytes in %llu allocations, at most %llu since the last "
                "line, heap %lld bytes in use\n",
                (unsigned long long)d.frameNumber, (unsigned long long)tally.bytes,
                (unsigned long long)tally.allocations, (unsigned long long)tally.peakBytes,
                (long long)io::os::heapBytesInUse());
    std::fflush(stdout);
}

PixelRect toPixels(const PixelRect& r) {
    const ImVec2 s = ImGui::GetIO().DisplayFramebufferScale;
    return {r.x0 * s.x, r.y0 * s.y, r.x1 * s.x, r.y1 * s.y};
}

void reportLayout(Demo& d) {
    const Clock::time_point now = Clock::now();
    if (!d.options.reportLayout || now - d.lastLayoutReport < std::chrono::seconds(1)) return;
    d.lastLayoutReport = now;
    const uint32_t w = d.swapchain.extent.width, h = d.swapchain.extent.height;
    // The domain's corners on the screen.
    const glm::mat4 viewProj = viewProjection(d.camera, w, h, d.panel.sim.params.domainHalf);
    PixelRect domain{float(w), float(h), 0, 0};
    for (int corner = 0; corner < 8; ++corner) {
        const float L = d.panel.sim.params.domainHalf;
        const glm::vec4 c =
            viewProj * glm::vec4(corner & 1 ? L : -L, corner & 2 ? L : -L, corner & 4 ? L : -L, 1);
        const float x = (c.x / c.w * 0.5f + 0.5f) * float(w), y = (c.y / c.w * 0.5f + 0.5f) * float(h);
        domain = {std::min(domain.x0, x), std::min(domain.y0, y), std::max(domain.x1, x),
                  std::max(domain.y1, y)};
    }
    const auto text = [](const PixelRect& r) {
        char line[96];
        std::snprintf(line, sizeof line, "%.0f %.0f %.0f %.0f", r.x0, r.y0, r.x1, r.y1);
        return std::string(line);
    };
    std::printf("layout: window %u %u panel %s timings %s domain %s\n", w, h,
                text(toPixels(d.panel.panelRect)).c_str(), text(toPixels(d.panel.timingsRect)).c_str(),
                text(domain).c_str());
    std::fflush(stdout);
}

// A circle of the predator's radius around it, drawn behind the panels.
void drawPredatorMarker(const Demo& d) {
    const sim::Params& p = d.panel.sim.params;
    if (!p.predator) return;
    // The camera frames the view in framebuffer pixels; ImGui draws in the window's coordinates.
    const uint32_t w = d.swapchain.extent.width, h = d.swapchain.extent.height;
    const ImVec2 scale = ImGui::GetIO().DisplayFramebufferScale;
    const glm::vec4 clip = viewProjection(d.camera, w, h, p.domainHalf) *
                           glm::vec4(p.predatorPos[0], p.predatorPos[1], p.predatorPos[2], 1.0f);
    if (clip.w <= 0) return;
    const ImVec2 centre((clip.x / clip.w * 0.5f + 0.5f) * float(w) / scale.x,
                        (clip.y / clip.w * 0.5f + 0.5f) * float(h) / scale.y);
    const float radius = p.predatorRadius / (clip.w * std::tan(d.camera.fovY * 0.5f)) * float(h) * 0.5f *
                         frameScale(d.camera.frame, h) / scale.y;
    ImDrawList* draw = ImGui::GetBackgroundDrawList();
    draw->AddCircle(centre, std::max(radius, 3.0f), IM_COL32(255, 90, 60, 200), 0, 1.5f);
    draw->AddCircleFilled(centre, 3.0f, IM_COL32(255, 90, 60, 255));
}

} // namespace app
