#pragma once
// The last frame as a PNG: the swapchain image copied into a host buffer in the frame's own command
// buffer, encoded once its fence has signalled.

#include "gpu/buffer.h"
#include "gpu/swapchain.h"

#include <ctime>
#include <functional>
#include <string>
#include <vector>

namespace app {

struct Screenshot {
    gpu::Buffer pixels; // 4 bytes a pixel, rows top to bottom
    uint32_t width = 0, height = 0;
    VkFormat format = VK_FORMAT_UNDEFINED; // the swapchain's: RGBA or BGRA
    bool recorded = false;
};

// Whether the swapchain's images can be copied out as 8-bit RGBA or BGRA pixels.
bool canScreenshot(const gpu::Swapchain& swapchain);

// Copies the image (after the frame's drawing, in PRESENT_SRC layout) into `shot.pixels`, created here,
// and leaves it presentable.
void recordScreenshot(VkCommandBuffer cmd, const gpu::Context& context, const gpu::Swapchain& swapchain,
                      uint32_t image, Screenshot& shot);

// After the frame's fence: the pixels as an opaque PNG at `path`. Throws io::InputError.
void writeScreenshot(const std::string& path, const Screenshot& shot);

// The same in two halves: the pixels as opaque RGBA (quick, while the buffer lives), then the PNG
// (slow enough to move off the frame loop).
std::vector<uint8_t> screenshotRgba(const Screenshot& shot);
void writePng(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height);

// "vkboids-YYYYMMDD-HHMMSS.png" for `time`, or with "-2", "-3", ... before ".png" where the name is
// taken.
std::string timestampedScreenshotName(const std::tm& time,
                                      const std::function<bool(const std::string&)>& taken);

void destroyScreenshot(const gpu::Context& context, Screenshot& shot);

} // namespace app
