#pragma once
// Dear ImGui's draw data drawn with dynamic rendering: ImGui's textures (its font atlas) in sampled
// images, one pipeline (straight alpha, no depth, clip rectangles as scissors), and host-visible vertex
// and index buffers per frame in flight, grown as needed. Input and the ImGui context are the caller's.
// Built against ImGui 1.92 or later it takes part in ImGui's texture protocol
// (ImGuiBackendFlags_RendererHasTextures: textures created, updated and destroyed on ImGui's request,
// so the atlas grows as new glyph sizes are drawn); against older versions it uploads the atlas once.

#include "gpu/buffer.h"
#include "gpu/image.h"
#include "gpu/program.h"

#include <vector>

struct ImDrawData;

namespace render {

struct ImGuiFrameBuffers {
    gpu::Buffer vertices, indices;
};

struct ImGuiRenderer {
    gpu::Program program;
    std::vector<gpu::Image> textures; // their image views are ImGui's texture IDs
    VkSampler sampler = VK_NULL_HANDLE;
    std::vector<ImGuiFrameBuffers> frames; // one per frame in flight
};

// Draws the current ImGui context into colour attachments of colorFormat, without depth. Before ImGui
// 1.92 it builds and uploads the font atlas here (blocking); from 1.92 on, textures are made as the
// draw data asks.
ImGuiRenderer createImGuiRenderer(const gpu::Context& context, VkFormat colorFormat, uint32_t framesInFlight);
void destroyImGuiRenderer(const gpu::Context& context, ImGuiRenderer& renderer);

// Meets the draw data's texture requests (blocking uploads, outside the rendering's commands), then
// draws `data` into the current rendering of `extent` (ImGui's display may differ from it for a frame
// while the window is resized), using the buffers of frame in flight `frame`: the GPU must be done with
// that frame's earlier use. Leaves the viewport and scissor changed.
void recordImGui(VkCommandBuffer cmd, const gpu::Context& context, ImGuiRenderer& renderer,
                 const ImDrawData* data, VkExtent2D extent, uint32_t frame);

} // namespace render
