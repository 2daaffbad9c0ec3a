#include "render/imgui_renderer.h"

#include "gpu/commands.h"
#include "render/draw_types.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <span>
#include <vector>

namespace render {

namespace {

static_assert(sizeof(ImDrawIdx) == 2 || sizeof(ImDrawIdx) == 4);
constexpr VkIndexType indexType = sizeof(ImDrawIdx) == 2 ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32;

// A rectangle of a texture, in texels.
struct TexelRect {
    uint32_t x, y, width, height;
};

// Copies rectangles of `pixels` (RGBA8, rows of image.width texels) into the image through a staging
// buffer, and waits for the copy: ImGui's textures change rarely (the first frame, glyphs of a new
// size), so a blocking upload costs nothing that matters and keeps the frame's recording simple.
void uploadTexels(const gpu::Context& ctx, const gpu::Image& image, const unsigned char* pixels,
                  std::span<const TexelRect> rects, bool fresh) {
    const VkDeviceSize bytes = 4ull * image.width * image.height;
    gpu::Buffer staging =
        gpu::createBuffer(ctx, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, gpu::MemoryUse::Upload);
    std::memcpy(staging.mapped, pixels, bytes);
    std::vector<VkBufferImageCopy> regions;
    for (const TexelRect& rect : rects) {
        CHECK(rect.x + rect.width <= image.width && rect.y + rect.height <= image.height);
        VkBufferImageCopy region{};
        region.bufferOffset = 4ull * (uint64_t(rect.y) * image.width + rect.x);
        region.bufferRowLength = image.width;
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageOffset = {int32_t(rect.x), int32_t(rect.y), 0};
        region.imageExtent = {rect.width, rect.height, 1};
        regions.push_back(region);
    }
    VkCommandBuffer cmd = gpu::beginOneShot(ctx);
    // A new image holds nothing to keep. An updated one may still be sampled by the fragment shaders
    // of frames submitted earlier: the copy waits for them.
    if (fresh)
        gpu::imageBarrier(cmd, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COPY_BIT,
                          VK_ACCESS_2_TRANSFER_WRITE_BIT);
    else
        gpu::imageBarrier(cmd, image.image, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                          VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                          VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdCopyBufferToImage(cmd, staging.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           uint32_t(regions.size()), regions.data());
    // The copied texels are sampled by every later frame's fragment shader.
    gpu::imageBarrier(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                      VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    gpu::endOneShot(ctx, cmd);
    gpu::destroyBuffer(ctx, staging);
}

// A sampled RGBA8 image holding `pixels` whole.
gpu::Image createTexture(const gpu::Context& ctx, uint32_t width, uint32_t height,
                         const unsigned char* pixels) {
    gpu::Image image = gpu::createImage(ctx, width, height, VK_FORMAT_R8G8B8A8_UNORM,
                                        VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    const TexelRect whole{0, 0, width, height};
    uploadTexels(ctx, image, pixels, {&whole, 1}, true);
    return image;
}

ImTextureID textureId(const gpu::Image& image) {
    return ImTextureID(image.view);
}

// Binds the pipeline with the texture a draw command names, one of this renderer's: vkboids draws
// no texture but ImGui's own.
ImTextureID bindTexture(VkCommandBuffer cmd, const ImGuiRenderer& r, ImTextureID id) {
    auto it = std::find_if(r.textures.begin(), r.textures.end(),
                           [&](const gpu::Image& image) { return textureId(image) == id; });
    CHECK(it != r.textures.end());
    gpu::bindProgram(cmd, r.program, {gpu::SampledImage{it->view, r.sampler}});
    return id;
}

#ifdef IMGUI_HAS_TEXTURES
// ImGui 1.92 and later create, grow and destroy their textures through the renderer (the font atlas
// gains glyphs as new sizes are drawn): each request of this frame's draw data is met here.
void updateTexture(const gpu::Context& ctx, ImGuiRenderer& r, ImTextureData& tex) {
    const auto held = [&] {
        auto it = std::find_if(r.textures.begin(), r.textures.end(),
                               [&](const gpu::Image& image) { return textureId(image) == tex.GetTexID(); });
        CHECK(it != r.textures.end());
        return it;
    };
    switch (tex.Status) {
    case ImTextureStatus_WantCreate: {
        CHECK(tex.Format == ImTextureFormat_RGBA32); // the format this renderer asks for
        r.textures.push_back(createTexture(ctx, uint32_t(tex.Width), uint32_t(tex.Height),
                                           static_cast<const unsigned char*>(tex.GetPixels())));
        tex.SetTexID(textureId(r.textures.back()));
        tex.SetStatus(ImTextureStatus_OK);
        break;
    }
    case ImTextureStatus_WantUpdates: {
        std::vector<TexelRect> rects;
        for (const ImTextureRect& u : tex.Updates) rects.push_back({u.x, u.y, u.w, u.h});
        if (!rects.empty())
            uploadTexels(ctx, *held(), static_cast<const unsigned char*>(tex.GetPixels()), rects, false);
        tex.SetStatus(ImTextureStatus_OK);
        break;
    }
    case ImTextureStatus_WantDestroy: {
        // ImGui asks once this frame no longer draws with it, but earlier frames may still be in flight
        // and sampling it. Replacing the atlas is rare (it grew), so waiting for the queue costs little
        // and holds for any number of frames in flight, however often ImGui's frames are begun.
        VK_CHECK(vkQueueWaitIdle(ctx.queue));
        auto it = held();
        gpu::destroyImage(ctx, *it);
        r.textures.erase(it);
        tex.SetTexID(ImTextureID_Invalid);
        tex.SetStatus(ImTextureStatus_Destroyed);
        break;
    }
    case ImTextureStatus_OK:
    case ImTextureStatus_Destroyed: break;
    }
}
#endif

// A host-visible buffer of at least `bytes`, replaced by a larger one (half again) when too small.
void ensureSize(const gpu::Context& ctx, gpu::Buffer& b, VkDeviceSize bytes, VkBufferUsageFlags usage) {
    if (b.buffer && b.size >= bytes) return;
    gpu::destroyBuffer(ctx, b);
    b = gpu::createBuffer(ctx, std::max<VkDeviceSize>(bytes + bytes / 2, 4096), usage,
                          gpu::MemoryUse::Upload);
}

} // namespace

ImGuiRenderer createImGuiRenderer(const gpu::Context& ctx, VkFormat colorFormat, uint32_t framesInFlight) {
    ImGuiRenderer r;
    gpu::GraphicsDesc desc;
    desc.colorFormat = colorFormat;
    desc.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    desc.blend = gpu::Blend::Alpha;
    desc.vertexStride = sizeof(ImDrawVert);
    desc.attributes = {
        {0, 0, VK_FORMAT_R32G32_SFLOAT, uint32_t(offsetof(ImDrawVert, pos))},
        {1, 0, VK_FORMAT_R32G32_SFLOAT, uint32_t(offsetof(ImDrawVert, uv))},
        {2, 0, VK_FORMAT_R8G8B8A8_UNORM, uint32_t(offsetof(ImDrawVert, col))}, // ImU32 is RGBA in memory
    };
    r.program = gpu::createGraphicsProgram(ctx, "imgui_vert", "imgui_frag", desc);
    VkSamplerCreateInfo sampler{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sampler.magFilter = VK_FILTER_LINEAR;
    sampler.minFilter = VK_FILTER_LINEAR;
    sampler.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    sampler.addressModeU = sampler.addressModeV = sampler.addressModeW =
        VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sampler.maxLod = 0.0f;
    VK_CHECK(vkCreateSampler(ctx.device, &sampler, nullptr, &r.sampler));
    ImGuiIO& io = ImGui::GetIO();
    io.BackendRendererName = "vkboids";
    io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset; // draws take a vertex offset
#ifdef IMGUI_HAS_TEXTURES
    io.BackendFlags |= ImGuiBackendFlags_RendererHasTextures; // textures made on ImGui's request
    ImGuiPlatformIO& platform = ImGui::GetPlatformIO();
    platform.Renderer_TextureMaxWidth = platform.Renderer_TextureMaxHeight =
        int(std::min<uint32_t>(ctx.properties.limits.maxImageDimension2D, INT32_MAX));
#else
    // Before 1.92, ImGui builds its font atlas once, here, and draws every glyph from it.
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    r.textures.push_back(createTexture(ctx, uint32_t(width), uint32_t(height), pixels));
    io.Fonts->SetTexID(textureId(r.textures.back()));
#endif
    r.frames.resize(framesInFlight);
    return r;
}

void destroyImGuiRenderer(const gpu::Context& ctx, ImGuiRenderer& r) {
    for (ImGuiFrameBuffers& f : r.frames) {
        gpu::destroyBuffer(ctx, f.vertices);
        gpu::destroyBuffer(ctx, f.indices);
    }
    if (r.sampler) vkDestroySampler(ctx.device, r.sampler, nullptr);
#ifdef IMGUI_HAS_TEXTURES
    // ImGui's records of the textures say they are gone, so that a renderer made later creates them anew.
    if (ImGui::GetCurrentContext())
        for (ImTextureData* tex : ImGui::GetPlatformIO().Textures)
            if (tex->Status != ImTextureStatus_Destroyed) {
                tex->SetTexID(ImTextureID_Invalid);
                tex->SetStatus(ImTextureStatus_Destroyed);
            }
#endif
    for (gpu::Image& image : r.textures) gpu::destroyImage(ctx, image);
    gpu::destroyProgram(ctx, r.program);
    r = ImGuiRenderer{};
}

void recordImGui(VkCommandBuffer cmd, const gpu::Context& ctx, ImGuiRenderer& r, const ImDrawData* data,
                 VkExtent2D extent, uint32_t frame) {
#ifdef IMGUI_HAS_TEXTURES
    if (data->Textures)
        for (ImTextureData* tex : *data->Textures) updateTexture(ctx, r, *tex);
#endif
    const float width = std::min(data->DisplaySize.x * data->FramebufferScale.x, float(extent.width));
    const float height = std::min(data->DisplaySize.y * data->FramebufferScale.y, float(extent.height));
    if (width <= 0 || height <= 0 || data->TotalVtxCount == 0) return;

    // All lists' vertices and indices, one after the other; the host writes are visible to the
    // vertex input of work submitted after them.
    ImGuiFrameBuffers& b = r.frames.at(frame);
    ensureSize(ctx, b.vertices, data->TotalVtxCount * sizeof(ImDrawVert), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    ensureSize(ctx, b.indices, data->TotalIdxCount * sizeof(ImDrawIdx), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
    ImDrawVert* vertices = static_cast<ImDrawVert*>(b.vertices.mapped);
    ImDrawIdx* indices = static_cast<ImDrawIdx*>(b.indices.mapped);
    for (int l = 0; l < data->CmdListsCount; ++l) {
        const ImDrawList* list = data->CmdLists[l];
        std::memcpy(vertices, list->VtxBuffer.Data, list->VtxBuffer.Size * sizeof(ImDrawVert));
        std::memcpy(indices, list->IdxBuffer.Data, list->IdxBuffer.Size * sizeof(ImDrawIdx));
        vertices += list->VtxBuffer.Size;
        indices += list->IdxBuffer.Size;
    }

    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &b.vertices.buffer, &offset);
    vkCmdBindIndexBuffer(cmd, b.indices.buffer, 0, indexType);
    gpudata::ImGuiConstants c{};
    c.scale[0] = 2.0f / data->DisplaySize.x;
    c.scale[1] = 2.0f / data->DisplaySize.y;
    c.translate[0] = -1.0f - data->DisplayPos.x * c.scale[0];
    c.translate[1] = -1.0f - data->DisplayPos.y * c.scale[1];
    gpu::pushConstantsRaw(cmd, r.program, &c, sizeof c);
    VkViewport viewport{0, 0, width, height, 0, 1};
    vkCmdSetViewport(cmd, 0, 1, &viewport);

    // Clip rectangles are in display coordinates: to framebuffer pixels, clamped to the frame.
    const ImVec2 origin = data->DisplayPos, scale = data->FramebufferScale;
    uint32_t vertexBase = 0, indexBase = 0;
    ImTextureID bound{};
    for (int l = 0; l < data->CmdListsCount; ++l) {
        const ImDrawList* list = data->CmdLists[l];
        for (const ImDrawCmd& dc : list->CmdBuffer) {
            CHECK(!dc.UserCallback); // vkboids' panel draws none
            // Whole pixels that cover the clip rectangle, within the rendering.
            const float x0 = std::max(std::floor((dc.ClipRect.x - origin.x) * scale.x), 0.0f);
            const float y0 = std::max(std::floor((dc.ClipRect.y - origin.y) * scale.y), 0.0f);
            const float x1 = std::min(std::ceil((dc.ClipRect.z - origin.x) * scale.x), width);
            const float y1 = std::min(std::ceil((dc.ClipRect.w - origin.y) * scale.y), height);
            if (x1 <= x0 || y1 <= y0) continue;
            const VkRect2D scissor{{int32_t(x0), int32_t(y0)}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
            vkCmdSetScissor(cmd, 0, 1, &scissor);
            if (dc.GetTexID() != bound) bound = bindTexture(cmd, r, dc.GetTexID());
            vkCmdDrawIndexed(cmd, dc.ElemCount, 1, indexBase + dc.IdxOffset,
                             int32_t(vertexBase + dc.VtxOffset), 0);
        }
        vertexBase += uint32_t(list->VtxBuffer.Size);
        indexBase += uint32_t(list->IdxBuffer.Size);
    }
}

} // namespace render
