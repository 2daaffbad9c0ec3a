#pragma once
// The orbit camera: drag to rotate, scroll to zoom, R to reset.

#include "render/renderer.h"
#include "sim/params.h"
#include "sim/sim_types.h"

namespace app {

// A rectangle of the window in pixels, y down.
struct PixelRect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

struct OrbitCamera {
    float yaw = 0.6f;    // radians around +y
    float pitch = 0.45f; // radians above the horizon
    float distance = 0;  // from the domain's centre
    float fovY = 0.8f;   // radians
    PixelRect frame;     // the part of the window the domain is fitted into; empty means all of it
};

// The largest part of a width x height window that the demo's panels leave free, for
// OrbitCamera::frame: beside the left panel and left of the right one, or beside the left panel and
// below the right one, whichever frames the domain larger. Empty rectangles are panels not shown.
PixelRect freeFrame(uint32_t width, uint32_t height, const PixelRect& left, const PixelRect& right);

// How much the view is scaled to fit `frame` in a window `height` pixels tall: at most 1, and 1 for
// an empty frame (the whole window).
float frameScale(const PixelRect& frame, uint32_t height);

OrbitCamera defaultCamera(float domainHalf);
void orbit(OrbitCamera& camera, float dxPixels, float dyPixels);
void zoom(OrbitCamera& camera, float scrollSteps, float domainHalf);

// The view and projection matrix for a viewport, into Vulkan's clip space (y down, depth in [0, 1]).
glm::mat4 viewProjection(const OrbitCamera& camera, uint32_t width, uint32_t height, float domainHalf);

// Copies the step's grid into the draw settings, which colouring by cell needs.
void showGrid(render::DrawSettings& settings, const gpudata::StepConstants& step);

render::DrawSettings drawSettings(const OrbitCamera& camera, uint32_t width, uint32_t height,
                                  const sim::Params& params, const render::DrawStyle& style);

} // namespace app
