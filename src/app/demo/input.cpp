// The demo's input: its callbacks and the predator under the mouse.

#include "app/demo/demo_state.h"
#include "app/demo/picking.h"

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

void onScroll(GLFWwindow* window, double, double dy) {
    demoOf(window).scroll += dy;
}

} // namespace

void installInputCallbacks(Demo& d) {
    glfwSetScrollCallback(d.window, onScroll);
    glfwSetKeyCallback(d.window, onKey);
    glfwSetMouseButtonCallback(d.window, onMouseButton);
    glfwSetCursorPosCallback(d.window, onCursorPos);
    glfwGetCursorPos(d.window, &d.cursorX, &d.cursorY);
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
