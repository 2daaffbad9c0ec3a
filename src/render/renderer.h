#pragma once
// Boids as round points, one vertex each pulled straight from the simulation's position and
// velocity buffers (no copy through the CPU), and the domain's box, faintly.

#include "gpu/buffer.h"
#include "gpu/image.h"
#include "gpu/program.h"

#include <glm/mat4x4.hpp>

namespace render {

struct DrawSettings {
    glm::mat4 viewProj{1.0f};
    uint32_t width = 1, height = 1; // viewport in pixels
    float pointSize = 2.0f;         // diameter in pixels
    float maxSpeed = 1.0f;          // colour scale of the speed ramp
    float halfDomain = 100.0f;
    int colorMode = 0; // 0: speed, 1: heading
};

struct Renderer {
    gpu::Program points, box;
};

Renderer createRenderer(const gpu::Context& context, VkRenderPass renderPass);
void destroyRenderer(const gpu::Context& context, Renderer& renderer);

// Inside a render pass: sets viewport and scissor, draws the box and `count` boids.
void recordDraw(VkCommandBuffer cmd, const gpu::Context& context, const Renderer& renderer,
                const gpu::Buffer& pos, const gpu::Buffer& vel, uint32_t count, const DrawSettings& settings);

// An offscreen target (for headless benchmarks): colour ends each pass ready to be copied out.
struct Offscreen {
    gpu::Image color, depth;
    VkRenderPass renderPass = VK_NULL_HANDLE;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;
    uint32_t width = 0, height = 0;
};

Offscreen createOffscreen(const gpu::Context& context, uint32_t width, uint32_t height);
void destroyOffscreen(const gpu::Context& context, Offscreen& offscreen);

// Begins the offscreen pass, draws, ends it.
void recordOffscreenDraw(VkCommandBuffer cmd, const gpu::Context& context, const Renderer& renderer,
                         const Offscreen& target, const gpu::Buffer& pos, const gpu::Buffer& vel,
                         uint32_t count, const DrawSettings& settings);

} // namespace render
