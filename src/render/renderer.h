#pragma once
// Boids drawn straight from the simulation's position and velocity buffers (no copy through the
// CPU), and the domain's box. Two paths: a compute rasterizer that writes each boid's pixels with
// 64-bit atomics, then resolves them into the frame; or hardware points, one vertex a boid.

#include "gpu/buffer.h"
#include "gpu/image.h"
#include "gpu/program.h"

#include <glm/mat4x4.hpp>

#include <optional>
#include <string>

namespace render {

enum class DrawPath { Compute, Points };

const char* drawPathName(DrawPath path);
std::optional<DrawPath> drawPathFromName(const std::string& name);

constexpr float minPointSize = 1.0f, maxPointSize = 4.0f;

// What the user chooses: the panel's drawing section and the command line.
struct DrawStyle {
    DrawPath path = DrawPath::Compute;
    float pointSize = 2.0f; // diameter in pixels, 1 to 4
    int colorMode = 1;      // 0: speed, 1: heading (most boids fly at the speed limit: one colour)
    bool depthCue = true;   // darken with distance
};

struct DrawSettings {
    DrawStyle style;
    glm::mat4 viewProj{1.0f};
    uint32_t width = 1, height = 1; // viewport in pixels
    float maxSpeed = 1.0f;          // colour scale of the speed ramp
    float halfDomain = 100.0f;
    float cueNear = 0.0f; // view distance where darkening starts
    float cueFar = 1.0f;  // and where it is strongest
};

struct Renderer {
    gpu::Program points, box;
    gpu::Program raster, resolve; // the compute path, where the device has 64-bit buffer atomics
    gpu::Buffer target;           // the compute path's (depth, colour) words, one a pixel
    uint32_t targetWidth = 0, targetHeight = 0;
};

// The compute path needs 64-bit atomics on storage buffers; the points path runs everywhere.
bool computePathAvailable(const gpu::Context& context);
// The fastest path the device has: compute on GPUs that can, points on CPU drivers.
DrawPath defaultDrawPath(const gpu::Context& context);

Renderer createRenderer(const gpu::Context& context, VkRenderPass renderPass);
void destroyRenderer(const gpu::Context& context, Renderer& renderer);

// Outside a render pass, before recordDraw: the compute path clears its target and rasterizes
// `count` boids into it (the points path records nothing here). The target follows the settings'
// size; a new size waits for the device to idle.
void recordRasterize(VkCommandBuffer cmd, const gpu::Context& context, Renderer& renderer,
                     const gpu::Buffer& pos, const gpu::Buffer& vel, uint32_t count,
                     const DrawSettings& settings);

// Inside a render pass: sets viewport and scissor, draws the boids (resolve or points), then the box.
void recordDraw(VkCommandBuffer cmd, const gpu::Context& context, const Renderer& renderer,
                const gpu::Buffer& pos, const gpu::Buffer& vel, uint32_t count, const DrawSettings& settings);

// An offscreen target (for headless benchmarks and tests): colour ends each pass ready to be copied.
struct Offscreen {
    gpu::Image color, depth;
    VkRenderPass renderPass = VK_NULL_HANDLE;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;
    uint32_t width = 0, height = 0;
};

Offscreen createOffscreen(const gpu::Context& context, uint32_t width, uint32_t height);
void destroyOffscreen(const gpu::Context& context, Offscreen& offscreen);

// Rasterizes, begins the offscreen pass, draws, ends it.
void recordOffscreenDraw(VkCommandBuffer cmd, const gpu::Context& context, Renderer& renderer,
                         const Offscreen& target, const gpu::Buffer& pos, const gpu::Buffer& vel,
                         uint32_t count, const DrawSettings& settings);

// The offscreen colour image as RGBA8 bytes, rows top to bottom (blocking; for tests and tools).
std::vector<uint8_t> readOffscreen(const gpu::Context& context, const Offscreen& target);

} // namespace render
