#include "render/renderer.h"

#include "gpu/commands.h"
#include "render/draw_types.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace render {

namespace {

static_assert(uint32_t(ColorMode::Speed) == DRAW_COLOR_SPEED &&
              uint32_t(ColorMode::Heading) == DRAW_COLOR_HEADING &&
              uint32_t(ColorMode::Cell) == DRAW_COLOR_CELL && uint32_t(ColorMode::Order) == DRAW_COLOR_ORDER);

} // namespace

bool computePathAvailable(const gpu::Context& ctx) {
    return ctx.bufferInt64Atomics && ctx.imageWriteWithoutFormat;
}

DrawPath resolveDrawPath(DrawPath chosen, uint32_t count, bool computeUsable, bool cpuDevice) {
    if (chosen == DrawPath::Auto) {
        if (count <= glyphsUpTo) return DrawPath::Glyphs;
        // A CPU driver draws points cheaply but pays for the target's clear and resolve, a pass over
        // every pixel, several times the points' cost; GPUs are the other way round.
        chosen = cpuDevice ? DrawPath::Points : DrawPath::Compute;
    }
    return chosen == DrawPath::Compute && !computeUsable ? DrawPath::Points : chosen;
}

Renderer createRenderer(const gpu::Context& ctx, VkFormat colorFormat, VkFormat depthFormat,
                        VkImageLayout finalLayout) {
    Renderer r;
    r.colorFormat = colorFormat;
    r.depthFormat = depthFormat;
    r.finalLayout = finalLayout;
    gpu::GraphicsDesc points;
    points.colorFormat = colorFormat;
    points.depthFormat = depthFormat;
    points.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    r.points = gpu::createGraphicsProgram(ctx, "boids_vert", "boids_frag", points);
    gpu::GraphicsDesc glyphs = points;
    glyphs.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    r.glyphs = gpu::createGraphicsProgram(ctx, "glyph_vert", "glyph_frag", glyphs);
    gpu::GraphicsDesc box = points;
    box.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    box.depthWrite = false;
    box.blend = gpu::Blend::Premultiplied;
    r.box = gpu::createGraphicsProgram(ctx, "box_vert", "box_frag", box);
    if (computePathAvailable(ctx)) {
        const VkPhysicalDeviceLimits& limits = ctx.properties.limits;
        const uint32_t groupSize = std::min({tuning::drawWorkgroupSize, limits.maxComputeWorkGroupInvocations,
                                             limits.maxComputeWorkGroupSize[0]});
        r.raster = gpu::createComputeProgram(ctx, "draw_raster", {{gpu::localSizeX, groupSize}});
        r.resolve = gpu::createComputeProgram(ctx, "draw_resolve", {{gpu::localSizeX, groupSize}});
        // Drawn without a depth attachment: the target holds the boids' depths, the fragment shader
        // tests them.
        box.depthFormat = VK_FORMAT_UNDEFINED;
        r.boxOverTarget = gpu::createGraphicsProgram(ctx, "box_vert", "box_over_target_frag", box);
    }
    return r;
}

void destroyRenderer(const gpu::Context& ctx, Renderer& r) {
    for (gpu::Program* p : {&r.points, &r.glyphs, &r.box, &r.raster, &r.resolve, &r.boxOverTarget})
        gpu::destroyProgram(ctx, *p);
    gpu::destroyBuffer(ctx, r.target);
    r = Renderer{};
}

namespace {

gpudata::DrawConstants drawConstants(const gpu::Context& ctx, const DrawSettings& s, uint32_t count,
                                     bool compute) {
    gpudata::DrawConstants c{};
    std::memcpy(c.viewProj, &s.viewProj[0][0], sizeof c.viewProj);
    const float size = std::round(std::clamp(s.style.pointSize, minPointSize, maxPointSize));
    // Hardware points larger than a pixel need largePoints, and the device's size range.
    const float* range = ctx.properties.limits.pointSizeRange;
    c.pointSize = compute ? size : ctx.largePoints ? std::clamp(size, range[0], range[1]) : 1.0f;
    c.maxSpeed = s.maxSpeed;
    c.domainHalf = s.domainHalf;
    c.colorMode = uint32_t(s.style.colorMode);
    c.glyphSize = std::clamp(s.style.glyphSize, minGlyphSize, maxGlyphSize);
    c.gridDim = std::max(s.gridDim, 1u);
    c.invCellWidth = s.invCellWidth;
    c.width = s.width;
    c.height = s.height;
    c.count = count;
    c.depthCue = s.style.depthCue ? 1u : 0u;
    c.cueNear = s.cueNear;
    c.cueFar = std::max(s.cueFar, s.cueNear + 1e-3f);
    return c;
}

// The compute path up to its resolve into the frame's image, which it leaves in GENERAL.
void recordCompute(VkCommandBuffer cmd, const Renderer& r, const FrameTarget& frame, const gpu::Buffer& pos,
                   const gpu::Buffer& vel, const gpudata::DrawConstants& c) {
    CHECK(r.targetWidth == frame.width && r.targetHeight == frame.height); // sizeTarget first
    // The previous frame's atomics wrote, and its resolve and box read, the target the clear overwrites.
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                       VK_ACCESS_2_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(cmd, r.target.buffer, 0, VK_WHOLE_SIZE, 0xffffffffu);
    gpu::fillToComputeBarrier(cmd);
    if (c.count) {
        gpu::bindProgram(cmd, r.raster, {pos, vel, r.target});
        gpu::dispatch(cmd, r.raster, c.count, c);
        // The atomics' results are read by the resolve (and the box).
        gpu::computeBarrier(cmd);
    }
    // The frame's image: whatever it held is replaced, once earlier passes (and a swapchain image's
    // acquire, which waits at colour output) are done with it.
    gpu::imageBarrier(cmd, frame.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL,
                      VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                      VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_WRITE_BIT);
    gpu::bindProgram(cmd, r.resolve, {r.target, gpu::StorageImage{frame.view}});
    gpu::dispatch(cmd, r.resolve, uint64_t(frame.width) * frame.height, c);
    // The atomics' and the resolve's target words are read by the box's fragment shader.
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT);
}

} // namespace

void sizeTarget(const gpu::Context& ctx, Renderer& r, uint32_t width, uint32_t height) {
    if (!r.raster.pipeline || (r.targetWidth == width && r.targetHeight == height)) return;
    VK_CHECK(vkDeviceWaitIdle(ctx.device)); // frames in flight may still use the old target
    gpu::destroyBuffer(ctx, r.target);
    r.target =
        gpu::createBuffer(ctx, 8ull * width * height, gpu::storageUsage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          gpu::MemoryUse::Device);
    r.targetWidth = width;
    r.targetHeight = height;
}

DrawPath drawnPath(const gpu::Context& ctx, const Renderer& r, const FrameTarget& frame,
                   const DrawSettings& s, uint32_t count) {
    return resolveDrawPath(s.style.path, count, r.raster.pipeline && frame.storage, ctx.isCpu);
}

namespace {

// Colour into COLOR_ATTACHMENT_OPTIMAL from `from` (its contents kept unless UNDEFINED), after
// earlier attachment writes, copies out, the compute path's resolve, and a swapchain image's acquire
// (its semaphore waits at colour output).
void colorToAttachment(VkCommandBuffer cmd, const FrameTarget& frame, VkImageLayout from) {
    gpu::imageBarrier(cmd, frame.image, from, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                      VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT |
                          VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                      VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
}

// Colour out of the rendering into finalLayout: its writes are made available to the copies that
// screenshots and readOffscreen make, which wait at the transfer stage (presentation waits on the
// frame's semaphore).
void colorToFinal(VkCommandBuffer cmd, const Renderer& r, const FrameTarget& frame) {
    gpu::imageBarrier(cmd, frame.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, r.finalLayout,
                      VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
}

// A rendering over the frame's colour, cleared (with depth, when `depth`) or loaded, with viewport
// and scissor over the whole frame.
void beginFrameRendering(VkCommandBuffer cmd, const FrameTarget& frame, bool clear, bool depth) {
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = frame.view;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    std::memcpy(color.clearValue.color.float32, gpudata::drawBackground, sizeof gpudata::drawBackground);
    VkRenderingAttachmentInfo depthAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depthAttachment.imageView = frame.depthView;
    depthAttachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    depthAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depthAttachment.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    depthAttachment.clearValue.depthStencil = {1.0f, 0};
    VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
    rendering.renderArea = {{0, 0}, {frame.width, frame.height}};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachments = &color;
    rendering.pDepthAttachment = depth ? &depthAttachment : nullptr;
    vkCmdBeginRendering(cmd, &rendering);
    VkViewport viewport{0, 0, float(frame.width), float(frame.height), 0, 1};
    VkRect2D scissor{{0, 0}, {frame.width, frame.height}};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
}

} // namespace

void recordDraw(VkCommandBuffer cmd, const gpu::Context& ctx, const Renderer& r, const FrameTarget& frame,
                const gpu::Buffer& pos, const gpu::Buffer& vel, uint32_t count, const DrawSettings& s) {
    CHECK(s.width == frame.width && s.height == frame.height);
    const DrawPath path = drawnPath(ctx, r, frame, s, count);
    const bool compute = path == DrawPath::Compute;
    const gpudata::DrawConstants c = drawConstants(ctx, s, count, compute);
    if (compute) {
        recordCompute(cmd, r, frame, pos, vel, c);
        colorToAttachment(cmd, frame, VK_IMAGE_LAYOUT_GENERAL);
        beginFrameRendering(cmd, frame, false, false);
        gpu::bindProgram(cmd, r.boxOverTarget, {r.target});
        gpu::pushConstantsRaw(cmd, r.boxOverTarget, &c, sizeof c);
    } else {
        colorToAttachment(cmd, frame, VK_IMAGE_LAYOUT_UNDEFINED);
        // The depth image is cleared: after the previous frame's depth tests, whose results are dropped.
        gpu::imageBarrier(
            cmd, frame.depthImage, VK_IMAGE_LAYOUT_UNDEFINED,
            VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
            gpu::formatAspects(r.depthFormat));
        beginFrameRendering(cmd, frame, true, true);
        if (count) {
            const bool glyphs = path == DrawPath::Glyphs;
            const gpu::Program& boids = glyphs ? r.glyphs : r.points;
            gpu::bindProgram(cmd, boids, {pos, vel});
            gpu::pushConstantsRaw(cmd, boids, &c, sizeof c);
            // A glyph is an instance: its vertices' index stays small whatever the count.
            if (glyphs)
                vkCmdDraw(cmd, GLYPH_VERTICES, count, 0, 0);
            else
                vkCmdDraw(cmd, count, 1, 0, 0);
        }
        gpu::bindProgram(cmd, r.box, {});
        gpu::pushConstantsRaw(cmd, r.box, &c, sizeof c);
    }
    vkCmdDraw(cmd, 24, 1, 0, 0);
    vkCmdEndRendering(cmd);
    colorToFinal(cmd, r, frame);
}

void beginOverlay(VkCommandBuffer cmd, const Renderer& r, const FrameTarget& frame) {
    colorToAttachment(cmd, frame, r.finalLayout);
    beginFrameRendering(cmd, frame, false, false);
}

void endOverlay(VkCommandBuffer cmd, const Renderer& r, const FrameTarget& frame) {
    vkCmdEndRendering(cmd);
    colorToFinal(cmd, r, frame);
}

Offscreen createOffscreen(const gpu::Context& ctx, Renderer& r, uint32_t width, uint32_t height) {
    CHECK(r.colorFormat == VK_FORMAT_R8G8B8A8_UNORM);
    Offscreen o;
    // RGBA8 takes storage writes on every device (a format Vulkan requires to).
    o.color = gpu::createImage(ctx, width, height, VK_FORMAT_R8G8B8A8_UNORM,
                               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                   VK_IMAGE_USAGE_STORAGE_BIT);
    o.depth =
        gpu::createImage(ctx, width, height, r.depthFormat, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    o.frame.image = o.color.image;
    o.frame.view = o.color.view;
    o.frame.depthImage = o.depth.image;
    o.frame.depthView = o.depth.view;
    o.frame.width = width;
    o.frame.height = height;
    o.frame.storage = true;
    sizeTarget(ctx, r, width, height);
    return o;
}

void destroyOffscreen(const gpu::Context& ctx, Offscreen& o) {
    gpu::destroyImage(ctx, o.color);
    gpu::destroyImage(ctx, o.depth);
    o = Offscreen{};
}

void recordOffscreenDraw(VkCommandBuffer cmd, const gpu::Context& ctx, const Renderer& r, const Offscreen& o,
                         const gpu::Buffer& pos, const gpu::Buffer& vel, uint32_t count,
                         const DrawSettings& s) {
    recordDraw(cmd, ctx, r, o.frame, pos, vel, count, s);
}

std::vector<uint8_t> readOffscreen(const gpu::Context& ctx, const Offscreen& o) {
    const FrameTarget& f = o.frame;
    gpu::Buffer pixels = gpu::createBuffer(ctx, 4ull * f.width * f.height, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                           gpu::MemoryUse::Readback);
    VkCommandBuffer cmd = gpu::beginOneShot(ctx);
    // The drawing left colour in TRANSFER_SRC (finalLayout) and made its writes available to transfers.
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                       VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {f.width, f.height, 1};
    vkCmdCopyImageToBuffer(cmd, f.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixels.buffer, 1, &region);
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    gpu::endOneShot(ctx, cmd);
    const uint8_t* bytes = static_cast<const uint8_t*>(pixels.mapped);
    std::vector<uint8_t> rgba(bytes, bytes + 4ull * f.width * f.height);
    gpu::destroyBuffer(ctx, pixels);
    return rgba;
}

} // namespace render
