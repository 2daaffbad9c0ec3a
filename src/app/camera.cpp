#include "app/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>

namespace app {

OrbitCamera defaultCamera(float domainHalf) {
    OrbitCamera c;
    c.distance = 4.2f * domainHalf;
    return c;
}

void orbit(OrbitCamera& c, float dx, float dy) {
    c.yaw -= dx * 0.005f;
    c.pitch = std::clamp(c.pitch + dy * 0.005f, -1.5f, 1.5f);
}

void zoom(OrbitCamera& c, float steps, float domainHalf) {
    c.distance = std::clamp(c.distance * std::pow(0.9f, steps), 0.2f * domainHalf, 20.0f * domainHalf);
}

namespace {

bool empty(const PixelRect& r) {
    return r.x1 <= r.x0 || r.y1 <= r.y0;
}

glm::mat4 unframedViewProjection(const OrbitCamera& c, uint32_t width, uint32_t height, float domainHalf) {
    const glm::vec3 eye = c.distance * glm::vec3(std::cos(c.pitch) * std::sin(c.yaw), std::sin(c.pitch),
                                                 std::cos(c.pitch) * std::cos(c.yaw));
    const glm::mat4 view = glm::lookAt(eye, glm::vec3(0), glm::vec3(0, 1, 0));
    const float aspect = float(std::max(width, 1u)) / float(std::max(height, 1u));
    const float nearPlane = std::max(0.01f, c.distance - 2.0f * domainHalf) * 0.5f;
    const float farPlane = c.distance + 2.0f * domainHalf;
    glm::mat4 proj = glm::perspectiveRH_ZO(c.fovY, aspect, nearPlane, farPlane);
    proj[1][1] *= -1.0f; // Vulkan's y points down
    return proj * view;
}

// The domain as the default camera shows it, in window heights from the window's centre (y down).
// Frames fit this box, so that the view keeps its scale while the camera orbits or zooms.
PixelRect defaultDomainBox() {
    const glm::mat4 m = unframedViewProjection(defaultCamera(1.0f), 1, 1, 1.0f);
    PixelRect box{1e9f, 1e9f, -1e9f, -1e9f};
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec4 c = m * glm::vec4(corner & 1 ? 1 : -1, corner & 2 ? 1 : -1, corner & 4 ? 1 : -1, 1);
        const float x = 0.5f * c.x / c.w, y = 0.5f * c.y / c.w;
        box = {std::min(box.x0, x), std::min(box.y0, y), std::max(box.x1, x), std::max(box.y1, y)};
    }
    return box;
}

// The scale at which the default view's domain fits `frame`, at most 1; 0 for an empty frame.
float fitScale(const PixelRect& frame, uint32_t height) {
    if (empty(frame)) return 0.0f;
    static const PixelRect box = defaultDomainBox();
    const float h = float(std::max(height, 1u)), margin = 1.05f;
    return std::min({1.0f, (frame.x1 - frame.x0) / ((box.x1 - box.x0) * h * margin),
                     (frame.y1 - frame.y0) / ((box.y1 - box.y0) * h * margin)});
}

} // namespace

float frameScale(const PixelRect& frame, uint32_t height) {
    return empty(frame) ? 1.0f : fitScale(frame, height);
}

PixelRect freeFrame(uint32_t width, uint32_t height, const PixelRect& left, const PixelRect& right) {
    const float w = float(width), h = float(height);
    const float x0 = empty(left) ? 0 : std::min(w, left.x1);
    const PixelRect beside{x0, 0, empty(right) ? w : std::max(x0, right.x0), h};
    const PixelRect below{x0, empty(right) ? 0 : std::min(h, right.y1), w, h};
    return fitScale(beside, height) >= fitScale(below, height) ? beside : below;
}

glm::mat4 viewProjection(const OrbitCamera& c, uint32_t width, uint32_t height, float domainHalf) {
    const glm::mat4 unframed = unframedViewProjection(c, width, height, domainHalf);
    if (empty(c.frame)) return unframed;
    // Scaled about the window's centre, then moved so that the default view's domain is centred in
    // the frame; in clip space (x' = s x + t w).
    static const PixelRect box = defaultDomainBox();
    const float w = float(std::max(width, 1u)), h = float(std::max(height, 1u));
    const float s = frameScale(c.frame, height);
    const float dx = 0.5f * (c.frame.x0 + c.frame.x1) - 0.5f * w - s * h * 0.5f * (box.x0 + box.x1);
    const float dy = 0.5f * (c.frame.y0 + c.frame.y1) - 0.5f * h - s * h * 0.5f * (box.y0 + box.y1);
    glm::mat4 toFrame(1.0f);
    toFrame[0][0] = toFrame[1][1] = s;
    toFrame[3][0] = dx / (0.5f * w);
    toFrame[3][1] = dy / (0.5f * h);
    return toFrame * unframed;
}

void showGrid(render::DrawSettings& s, const gpudata::StepConstants& step) {
    s.gridDim = step.gridDim;
    s.invCellWidth = step.invCellWidth;
}

render::DrawSettings drawSettings(const OrbitCamera& c, uint32_t width, uint32_t height, const sim::Params& p,
                                  const render::DrawStyle& style) {
    render::DrawSettings s;
    s.style = style;
    s.viewProj = viewProjection(c, width, height, p.domainHalf);
    s.width = width;
    s.height = height;
    s.maxSpeed = p.maxSpeed;
    s.domainHalf = p.domainHalf;
    // The domain's corners are sqrt(3) L from its centre: the cue spans the cube's depth.
    const float reach = std::sqrt(3.0f) * p.domainHalf;
    s.cueNear = std::max(0.0f, c.distance - reach);
    s.cueFar = c.distance + reach;
    return s;
}

} // namespace app
