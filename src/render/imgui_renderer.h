#pragma once
// Dear ImGui's draw data drawn with dynamic rendering: the font atlas in a sampled image, one
// pipeline (straight alpha, no depth, clip rectangles as scissors), and host-visible vertex and index
// buffers per frame in flight, grown as needed. Input and the ImGui context are the caller's.

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
    gpu::Image font;
    VkSampler sampler = VK_NULL_HANDLE;
    std::vector<ImGuiFrameBuffers> frames; // one per frame in flight
};

// Builds the current ImGui context's font atlas and uploads it (blocking); its texture ID becomes the
// font image's. Draws into colour attachments of colorFormat, without depth.
ImGuiRenderer createImGuiRenderer(const gpu::Context& context, VkFormat colorFormat, uint32_t framesInFlight);
void destroyImGuiRenderer(const gpu::Context& context, ImGuiRenderer& renderer);

// Draws `data` into the current rendering of `extent` (ImGui's display may differ from it for a frame
// while the window is resized), using the buffers of frame in flight `frame`: the GPU must be done with
// that frame's earlier use. Leaves the viewport and scissor changed.
void recordImGui(VkCommandBuffer cmd, const gpu::Context& context, ImGuiRenderer& renderer,
                 const ImDrawData* data, VkExtent2D extent, uint32_t frame);

} // namespace render
