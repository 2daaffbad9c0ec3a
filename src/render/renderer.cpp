#include "render/renderer.h"

#include "gpu/commands.h"
#include "render/draw_types.h"
#include "tuning.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace render {

namespace {

const char* const drawPathNames[] = {"compute", "points", "glyphs", "auto"};
const char* const colorModeNames[] = {"speed", "heading", "cell", "order"};
static_assert(uint32_t(ColorMode::Speed) == DRAW_COLOR_SPEED &&
              uint32_t(ColorMode::Heading) == DRAW_COLOR_HEADING &&
              uint32_t(ColorMode::Cell) == DRAW_COLOR_CELL && uint32_t(ColorMode::Order) == DRAW_COLOR_ORDER);

} // namespace

const char* drawPathName(DrawPath path) {
    return drawPathNames[int(path)];
}

std::optional<DrawPath> drawPathFromName(const std::string& name) {
    for (int i = 0; i < 4; ++i)
        if (name == drawPathNames[i]) return DrawPath(i);
    return std::nullopt;
}

const char* colorModeName(ColorMode mode) {
    return colorModeNames[int(mode)];
}

std::optional<ColorMode> colorModeFromName(const std::string& name) {
    for (int i = 0; i < 4; ++i)
        if (name == colorModeNames[i]) return ColorMode(i);
    return std::nullopt;
}

bool computePathAvailable(const gpu::Context& ctx) {
    return ctx.bufferInt64Atomics && ctx.imageWriteWithoutFormat;
}

DrawPath resolveDrawPath(DrawPath chosen, uint32_t count, bool computeUsable, bool cpuDevice) {
    if (chosen == DrawPath::Auto) {
        if (count <= glyphsUpTo) return DrawPath::Glyphs;
        // A CPU driver draws points cheaply but pays for the target's clear and resolve, a pass over
        // every pixel (lavapipe at 1280x800: 18 ms against 5); GPUs are the other way round.
        chosen = cpuDevice ? DrawPath::Points : DrawPath::Compute;
    }
    return chosen == DrawPath::Compute && !computeUsable ? DrawPath::Points : chosen;
}

Renderer createRenderer(const gpu::Context& ctx, VkFormat colorFormat, VkFormat depthFormat,
                        VkImageLayout finalLayout) {
    Renderer r;
    r.clearPass = gpu::createRenderPass(ctx, colorFormat, depthFormat, finalLayout, gpu::ColorStart::Clear);
    r.keepPass =
        gpu::createRenderPass(ctx, colorFormat, depthFormat, finalLayout, gpu::ColorStart::AfterCompute);
    r.overlayPass =
        gpu::createRenderPass(ctx, colorFormat, depthFormat, finalLayout, gpu::ColorStart::AfterPass);
    gpu::GraphicsDesc points;
    points.renderPass = r.clearPass;
    points.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    r.points = gpu::createGraphicsProgram(ctx, "boids_vert", "boids_frag", points);
    gpu::GraphicsDesc glyphs;
    glyphs.renderPass = r.clearPass;
    glyphs.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    r.glyphs = gpu::createGraphicsProgram(ctx, "glyph_vert", "glyph_frag", glyphs);
    gpu::GraphicsDesc box;
    box.renderPass = r.clearPass;
    box.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    box.depthWrite = false;
    box.blend = true;
    r.box = gpu::createGraphicsProgram(ctx, "box_vert", "box_frag", box);
    if (computePathAvailable(ctx)) {
        const VkPhysicalDeviceLimits& limits = ctx.properties.limits;
        const uint32_t groupSize = std::min({tuning::drawWorkgroupSize, limits.maxComputeWorkGroupInvocations,
                                             limits.maxComputeWorkGroupSize[0]});
        r.raster = gpu::createComputeProgram(ctx, "draw_raster", {{gpu::localSizeX, groupSize}});
        r.resolve = gpu::createComputeProgram(ctx, "draw_resolve", {{gpu::localSizeX, groupSize}});
        box.renderPass = r.keepPass;
        box.depthTest = false; // the target holds the boids' depths: the fragment shader tests them
        r.boxOverTarget = gpu::createGraphicsProgram(ctx, "box_vert", "box_over_target_frag", box);
    }
    return r;
}

void destroyRenderer(const gpu::Context& ctx, Renderer& r) {
    for (gpu::Program* p : {&r.points, &r.glyphs, &r.box, &r.raster, &r.resolve, &r.boxOverTarget})
        gpu::destroyProgram(ctx, *p);
    gpu::destroyBuffer(ctx, r.target);
    if (r.clearPass) vkDestroyRenderPass(ctx.device, r.clearPass, nullptr);
    if (r.keepPass) vkDestroyRenderPass(ctx.device, r.keepPass, nullptr);
    if (r.overlayPass) vkDestroyRenderPass(ctx.device, r.overlayPass, nullptr);
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
    c.halfDomain = s.halfDomain;
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
    // The render pass loads the resolved colour; the box reads the target's depths.
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
                           VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
                           VK_ACCESS_2_SHADER_READ_BIT);
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

void beginPass(VkCommandBuffer cmd, VkRenderPass pass, const FrameTarget& frame) {
    VkClearValue clears[2] = {};
    std::memcpy(clears[0].color.float32, gpudata::drawBackground, sizeof gpudata::drawBackground);
    clears[1].depthStencil = {1.0f, 0};
    VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    begin.renderPass = pass;
    begin.framebuffer = frame.framebuffer;
    begin.renderArea = {{0, 0}, {frame.width, frame.height}};
    begin.clearValueCount = 2;
    begin.pClearValues = clears;
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
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
    if (compute) recordCompute(cmd, r, frame, pos, vel, c);
    beginPass(cmd, compute ? r.keepPass : r.clearPass, frame);
    if (compute) {
        gpu::bindProgram(cmd, r.boxOverTarget, {r.target});
        gpu::pushConstantsRaw(cmd, r.boxOverTarget, &c, sizeof c);
    } else {
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
    vkCmdEndRenderPass(cmd);
}

void beginOverlay(VkCommandBuffer cmd, const Renderer& r, const FrameTarget& frame) {
    beginPass(cmd, r.overlayPass, frame);
}

Offscreen createOffscreen(const gpu::Context& ctx, Renderer& r, uint32_t width, uint32_t height) {
    Offscreen o;
    // RGBA8 takes storage writes on every device (a format Vulkan requires to).
    o.color = gpu::createImage(ctx, width, height, VK_FORMAT_R8G8B8A8_UNORM,
                               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                   VK_IMAGE_USAGE_STORAGE_BIT);
    o.depth = gpu::createImage(ctx, width, height, gpu::findDepthFormat(ctx),
                               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    VkImageView views[2] = {o.color.view, o.depth.view};
    VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    info.renderPass = r.clearPass;
    info.attachmentCount = 2;
    info.pAttachments = views;
    info.width = width;
    info.height = height;
    info.layers = 1;
    VK_CHECK(vkCreateFramebuffer(ctx.device, &info, nullptr, &o.frame.framebuffer));
    o.frame.image = o.color.image;
    o.frame.view = o.color.view;
    o.frame.width = width;
    o.frame.height = height;
    o.frame.storage = true;
    sizeTarget(ctx, r, width, height);
    return o;
}

void destroyOffscreen(const gpu::Context& ctx, Offscreen& o) {
    if (o.frame.framebuffer) vkDestroyFramebuffer(ctx.device, o.frame.framebuffer, nullptr);
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
    // The pass left colour in TRANSFER_SRC and made its writes available to transfers.
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
