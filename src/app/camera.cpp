#include "app/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>

namespace app {

OrbitCamera defaultCamera(float halfDomain) {
    OrbitCamera c;
    c.distance = 4.2f * halfDomain;
    return c;
}

void orbit(OrbitCamera& c, float dx, float dy) {
    c.yaw -= dx * 0.005f;
    c.pitch = std::clamp(c.pitch + dy * 0.005f, -1.5f, 1.5f);
}

void zoom(OrbitCamera& c, float steps, float halfDomain) {
    c.distance = std::clamp(c.distance * std::pow(0.9f, steps), 0.2f * halfDomain, 20.0f * halfDomain);
}

glm::mat4 viewProjection(const OrbitCamera& c, uint32_t width, uint32_t height, float halfDomain) {
    const glm::vec3 eye = c.distance * glm::vec3(std::cos(c.pitch) * std::sin(c.yaw), std::sin(c.pitch),
                                                 std::cos(c.pitch) * std::cos(c.yaw));
    const glm::mat4 view = glm::lookAt(eye, glm::vec3(0), glm::vec3(0, 1, 0));
    const float aspect = float(std::max(width, 1u)) / float(std::max(height, 1u));
    const float nearPlane = std::max(0.01f, c.distance - 2.0f * halfDomain) * 0.5f;
    const float farPlane = c.distance + 2.0f * halfDomain;
    glm::mat4 proj = glm::perspectiveRH_ZO(c.fovY, aspect, nearPlane, farPlane);
    proj[1][1] *= -1.0f; // Vulkan's y points down
    return proj * view;
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
    s.halfDomain = p.domainHalf;
    // The domain's corners are sqrt(3) L from its centre: the cue spans the cube's depth.
    const float reach = std::sqrt(3.0f) * p.domainHalf;
    s.cueNear = std::max(0.0f, c.distance - reach);
    s.cueFar = c.distance + reach;
    return s;
}

} // namespace app
