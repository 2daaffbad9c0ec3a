#pragma once
// The last frame as a PNG: the swapchain image copied into a host buffer in the frame's own command
// buffer, encoded once its fence has signalled.

#include "app/swapchain.h"
#include "gpu/buffer.h"

#include <string>

namespace app {

struct Screenshot {
    gpu::Buffer pixels; // 4 bytes a pixel, rows top to bottom
    uint32_t width = 0, height = 0;
    VkFormat format = VK_FORMAT_UNDEFINED; // the swapchain's: RGBA or BGRA
    bool recorded = false;
};

// Whether the swapchain's images can be copied out as 8-bit RGBA or BGRA pixels.
bool canScreenshot(const Swapchain& swapchain);

// Copies the image (after the render pass, in PRESENT_SRC layout) into `shot.pixels`, created here,
// and leaves it presentable.
void recordScreenshot(VkCommandBuffer cmd, const gpu::Context& context, const Swapchain& swapchain,
                      uint32_t image, Screenshot& shot);

// After the frame's fence: the pixels as an opaque PNG at `path`. Throws sim::InputError.
void writeScreenshot(const std::string& path, const Screenshot& shot);

void destroyScreenshot(const gpu::Context& context, Screenshot& shot);

} // namespace app
