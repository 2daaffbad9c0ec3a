#include "app/demo/screenshot.h"

#include "gpu/commands.h"
#include "sim/npy.h"
#include "sim/params.h"

// stb is header-only where vcpkg installs it: its PNG writer is compiled here, private to this file.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

#include <utility>
#include <vector>

namespace app {

bool canScreenshot(const gpu::Swapchain& sc) {
    const VkFormat f = sc.format.format;
    return sc.canCopy && (f == VK_FORMAT_R8G8B8A8_UNORM || f == VK_FORMAT_R8G8B8A8_SRGB ||
                          f == VK_FORMAT_B8G8R8A8_UNORM || f == VK_FORMAT_B8G8R8A8_SRGB);
}

void recordScreenshot(VkCommandBuffer cmd, const gpu::Context& ctx, const gpu::Swapchain& sc, uint32_t image,
                      Screenshot& shot) {
    shot.width = sc.extent.width;
    shot.height = sc.extent.height;
    shot.format = sc.format.format;
    shot.pixels = gpu::createBuffer(ctx, 4ull * shot.width * shot.height, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                    gpu::MemoryUse::Readback);
    // The copy reads the frame's colour: the drawing's last barrier (render::endOverlay) made its writes
    // available to transfers and moved it to PRESENT_SRC; the transfer stage chains this after that.
    gpu::imageBarrier(
        cmd, sc.images[image], VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {shot.width, shot.height, 1};
    vkCmdCopyImageToBuffer(cmd, sc.images[image], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, shot.pixels.buffer, 1,
                           &region);
    // Back to presentable; the host reads the pixels after the fence.
    gpu::imageBarrier(cmd, sc.images[image], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                      VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_COPY_BIT, 0,
                      VK_PIPELINE_STAGE_2_NONE, 0);
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    shot.recorded = true;
}

std::vector<uint8_t> screenshotRgba(const Screenshot& shot) {
    const uint8_t* mapped = static_cast<const uint8_t*>(shot.pixels.mapped);
    std::vector<uint8_t> rgba(mapped, mapped + 4ull * shot.width * shot.height);
    const bool bgra = shot.format == VK_FORMAT_B8G8R8A8_UNORM || shot.format == VK_FORMAT_B8G8R8A8_SRGB;
    for (size_t i = 0; i < rgba.size(); i += 4) {
        if (bgra) std::swap(rgba[i], rgba[i + 2]);
        rgba[i + 3] = 255;
    }
    return rgba;
}

void writePng(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height) {
    std::string png;
    stbi_write_png_to_func(
        [](void* context, void* data, int size) {
            static_cast<std::string*>(context)->append(static_cast<char*>(data), size);
        },
        &png, int(width), int(height), 4, rgba.data(), int(width * 4));
    if (png.empty()) throw io::InputError("could not encode the screenshot");
    io::writeFileAtomically(path, png);
}

void writeScreenshot(const std::string& path, const Screenshot& shot) {
    writePng(path, screenshotRgba(shot), shot.width, shot.height);
}

std::string timestampedScreenshotName(const std::tm& time,
                                      const std::function<bool(const std::string&)>& taken) {
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "vkboids-%Y%m%d-%H%M%S", &time);
    std::string name = std::string(stamp) + ".png";
    for (int i = 2; taken(name); ++i) name = std::string(stamp) + "-" + std::to_string(i) + ".png";
    return name;
}

void destroyScreenshot(const gpu::Context& ctx, Screenshot& shot) {
    gpu::destroyBuffer(ctx, shot.pixels);
}

} // namespace app
