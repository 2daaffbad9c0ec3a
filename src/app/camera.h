#pragma once
// The orbit camera: drag to rotate, scroll to zoom, R to reset.

#include "render/renderer.h"
#include "sim/params.h"
#include "sim/sim_types.h"

namespace app {

struct OrbitCamera {
    float yaw = 0.6f;    // radians around +y
    float pitch = 0.45f; // radians above the horizon
    float distance = 0;  // from the domain's centre
    float fovY = 0.8f;   // radians
};

OrbitCamera defaultCamera(float halfDomain);
void orbit(OrbitCamera& camera, float dxPixels, float dyPixels);
void zoom(OrbitCamera& camera, float scrollSteps, float halfDomain);

// View and projection (Vulkan clip space: y down, depth in [0, 1]) for a viewport.
glm::mat4 viewProjection(const OrbitCamera& camera, uint32_t width, uint32_t height, float halfDomain);

// The grid of the step constants, for colouring by cell.
void showGrid(render::DrawSettings& settings, const gpudata::StepConstants& step);

render::DrawSettings drawSettings(const OrbitCamera& camera, uint32_t width, uint32_t height,
                                  const sim::Params& params, const render::DrawStyle& style);

} // namespace app
