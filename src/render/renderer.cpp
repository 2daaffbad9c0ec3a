#include "render/renderer.h"

#include "gpu/commands.h"
#include "shared.h"

#include <algorithm>
#include <cstring>

namespace render {

Renderer createRenderer(const gpu::Context& ctx, VkRenderPass renderPass) {
    Renderer r;
    gpu::GraphicsDesc points;
    points.renderPass = renderPass;
    points.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    r.points = gpu::createGraphicsProgram(ctx, "boids_vert", "boids_frag", points);
    gpu::GraphicsDesc box;
    box.renderPass = renderPass;
    box.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    box.depthWrite = false;
    box.blend = true;
    r.box = gpu::createGraphicsProgram(ctx, "box_vert", "box_frag", box);
    return r;
}

void destroyRenderer(const gpu::Context& ctx, Renderer& r) {
    gpu::destroyProgram(ctx, r.points);
    gpu::destroyProgram(ctx, r.box);
}

void recordDraw(VkCommandBuffer cmd, const gpu::Context& ctx, const Renderer& r, const gpu::Buffer& pos,
                const gpu::Buffer& vel, uint32_t count, const DrawSettings& s) {
    gpudata::DrawConstants c{};
    std::memcpy(c.viewProj, &s.viewProj[0][0], sizeof c.viewProj);
    // Points larger than a pixel need largePoints; sizes are clamped to what the device draws.
    const float* range = ctx.properties.limits.pointSizeRange;
    c.pointSize = ctx.largePoints ? std::clamp(s.pointSize, range[0], range[1]) : 1.0f;
    c.maxSpeed = s.maxSpeed;
    c.halfDomain = s.halfDomain;
    c.colorMode = uint32_t(s.colorMode);

    VkViewport viewport{0, 0, float(s.width), float(s.height), 0, 1};
    VkRect2D scissor{{0, 0}, {s.width, s.height}};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);

    gpu::bindProgram(cmd, r.points, {pos, vel});
    gpu::pushConstantsRaw(cmd, r.points, &c, sizeof c);
    vkCmdDraw(cmd, count, 1, 0, 0);

    gpu::bindProgram(cmd, r.box, {});
    gpu::pushConstantsRaw(cmd, r.box, &c, sizeof c);
    vkCmdDraw(cmd, 24, 1, 0, 0);
}

Offscreen createOffscreen(const gpu::Context& ctx, uint32_t width, uint32_t height) {
    Offscreen o;
    o.width = width;
    o.height = height;
    o.color = gpu::createImage(ctx, width, height, VK_FORMAT_R8G8B8A8_UNORM,
                               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    o.depth = gpu::createImage(ctx, width, height, gpu::findDepthFormat(ctx),
                               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    o.renderPass =
        gpu::createRenderPass(ctx, o.color.format, o.depth.format, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkImageView views[2] = {o.color.view, o.depth.view};
    VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    info.renderPass = o.renderPass;
    info.attachmentCount = 2;
    info.pAttachments = views;
    info.width = width;
    info.height = height;
    info.layers = 1;
    VK_CHECK(vkCreateFramebuffer(ctx.device, &info, nullptr, &o.framebuffer));
    return o;
}

void destroyOffscreen(const gpu::Context& ctx, Offscreen& o) {
    if (o.framebuffer) vkDestroyFramebuffer(ctx.device, o.framebuffer, nullptr);
    if (o.renderPass) vkDestroyRenderPass(ctx.device, o.renderPass, nullptr);
    gpu::destroyImage(ctx, o.color);
    gpu::destroyImage(ctx, o.depth);
    o = Offscreen{};
}

void recordOffscreenDraw(VkCommandBuffer cmd, const gpu::Context& ctx, const Renderer& r, const Offscreen& t,
                         const gpu::Buffer& pos, const gpu::Buffer& vel, uint32_t count,
                         const DrawSettings& s) {
    VkClearValue clears[2] = {};
    clears[0].color = {{0.02f, 0.02f, 0.035f, 1.0f}};
    clears[1].depthStencil = {1.0f, 0};
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = t.renderPass;
    begin.framebuffer = t.framebuffer;
    begin.renderArea = {{0, 0}, {t.width, t.height}};
    begin.clearValueCount = 2;
    begin.pClearValues = clears;
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    recordDraw(cmd, ctx, r, pos, vel, count, s);
    vkCmdEndRenderPass(cmd);
}

} // namespace render
