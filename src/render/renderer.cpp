#include "render/renderer.h"

#include "gpu/commands.h"
#include "render/draw_types.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace render {

const char* drawPathName(DrawPath path) {
    return path == DrawPath::Compute ? "compute" : "points";
}

std::optional<DrawPath> drawPathFromName(const std::string& name) {
    if (name == "compute") return DrawPath::Compute;
    if (name == "points") return DrawPath::Points;
    return std::nullopt;
}

bool computePathAvailable(const gpu::Context& ctx) {
    return ctx.bufferInt64Atomics;
}

DrawPath defaultDrawPath(const gpu::Context& ctx) {
    // A CPU driver rasterizes points cheaply but pays for the target's clear and full-screen resolve
    // (lavapipe: 18 ms against 5 at 1280x800); GPUs are the other way round.
    return computePathAvailable(ctx) && !ctx.isCpu ? DrawPath::Compute : DrawPath::Points;
}

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
    if (computePathAvailable(ctx)) {
        const VkPhysicalDeviceLimits& limits = ctx.properties.limits;
        const uint32_t groupSize =
            std::min({256u, limits.maxComputeWorkGroupInvocations, limits.maxComputeWorkGroupSize[0]});
        r.raster = gpu::createComputeProgram(ctx, "draw_raster", {{0, groupSize}});
        gpu::GraphicsDesc resolve;
        resolve.renderPass = renderPass;
        resolve.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
        resolve.depthTest = false; // the first thing drawn: it writes depth, it tests nothing
        r.resolve = gpu::createGraphicsProgram(ctx, "draw_resolve_vert", "draw_resolve_frag", resolve);
    }
    return r;
}

void destroyRenderer(const gpu::Context& ctx, Renderer& r) {
    gpu::destroyProgram(ctx, r.points);
    gpu::destroyProgram(ctx, r.box);
    gpu::destroyProgram(ctx, r.raster);
    gpu::destroyProgram(ctx, r.resolve);
    gpu::destroyBuffer(ctx, r.target);
    r = Renderer{};
}

namespace {

gpudata::DrawConstants drawConstants(const gpu::Context& ctx, const DrawSettings& s, uint32_t count) {
    gpudata::DrawConstants c{};
    std::memcpy(c.viewProj, &s.viewProj[0][0], sizeof c.viewProj);
    const float size = std::round(std::clamp(s.style.pointSize, minPointSize, maxPointSize));
    // Hardware points larger than a pixel need largePoints, and the device's size range.
    const float* range = ctx.properties.limits.pointSizeRange;
    c.pointSize = s.style.path == DrawPath::Compute ? size
                  : ctx.largePoints                 ? std::clamp(size, range[0], range[1])
                                                    : 1.0f;
    c.maxSpeed = s.maxSpeed;
    c.halfDomain = s.halfDomain;
    c.colorMode = uint32_t(s.style.colorMode);
    c.width = s.width;
    c.height = s.height;
    c.count = count;
    c.depthCue = s.style.depthCue ? 1u : 0u;
    c.cueNear = s.cueNear;
    c.cueFar = std::max(s.cueFar, s.cueNear + 1e-3f);
    return c;
}

bool drawsCompute(const Renderer& r, const DrawSettings& s) {
    return s.style.path == DrawPath::Compute && r.raster.pipeline;
}

} // namespace

void recordRasterize(VkCommandBuffer cmd, const gpu::Context& ctx, Renderer& r, const gpu::Buffer& pos,
                     const gpu::Buffer& vel, uint32_t count, const DrawSettings& s) {
    if (!drawsCompute(r, s)) return;
    if (r.targetWidth != s.width || r.targetHeight != s.height) {
        VK_CHECK(vkDeviceWaitIdle(ctx.device)); // earlier frames may still read the old target
        gpu::destroyBuffer(ctx, r.target);
        r.target =
            gpu::createBuffer(ctx, 8ull * s.width * s.height,
                              gpu::storageUsage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Device);
        r.targetWidth = s.width;
        r.targetHeight = s.height;
    }
    // The previous frame's resolve read the target that the clear overwrites.
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, 0, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                       0);
    vkCmdFillBuffer(cmd, r.target.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu);
    gpu::fillToComputeBarrier(cmd);
    if (count) {
        gpu::bindProgram(cmd, r.raster, {pos, vel, r.target});
        gpu::dispatch(cmd, r.raster, count, drawConstants(ctx, s, count));
    }
    // The atomics' results are read by the resolve.
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT);
}

void recordDraw(VkCommandBuffer cmd, const gpu::Context& ctx, const Renderer& r, const gpu::Buffer& pos,
                const gpu::Buffer& vel, uint32_t count, const DrawSettings& s) {
    const gpudata::DrawConstants c = drawConstants(ctx, s, count);
    VkViewport viewport{0, 0, float(s.width), float(s.height), 0, 1};
    VkRect2D scissor{{0, 0}, {s.width, s.height}};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);

    if (drawsCompute(r, s)) {
        gpu::bindProgram(cmd, r.resolve, {r.target});
        gpu::pushConstantsRaw(cmd, r.resolve, &c, sizeof c);
        vkCmdDraw(cmd, 3, 1, 0, 0);
    } else if (count) {
        gpu::bindProgram(cmd, r.points, {pos, vel});
        gpu::pushConstantsRaw(cmd, r.points, &c, sizeof c);
        vkCmdDraw(cmd, count, 1, 0, 0);
    }

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

void recordOffscreenDraw(VkCommandBuffer cmd, const gpu::Context& ctx, Renderer& r, const Offscreen& t,
                         const gpu::Buffer& pos, const gpu::Buffer& vel, uint32_t count,
                         const DrawSettings& s) {
    recordRasterize(cmd, ctx, r, pos, vel, count, s);
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

std::vector<uint8_t> readOffscreen(const gpu::Context& ctx, const Offscreen& t) {
    gpu::Buffer pixels = gpu::createBuffer(ctx, 4ull * t.width * t.height, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                           gpu::MemoryUse::Readback);
    VkCommandBuffer cmd = gpu::beginOneShot(ctx);
    // The render pass left colour in TRANSFER_SRC and made its writes available (its external dependency).
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                       VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {t.width, t.height, 1};
    vkCmdCopyImageToBuffer(cmd, t.color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixels.buffer, 1,
                           &region);
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    gpu::endOneShot(ctx, cmd);
    const uint8_t* bytes = static_cast<const uint8_t*>(pixels.mapped);
    std::vector<uint8_t> rgba(bytes, bytes + 4ull * t.width * t.height);
    gpu::destroyBuffer(ctx, pixels);
    return rgba;
}

} // namespace render
