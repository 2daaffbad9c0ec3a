#pragma once
// 2D images with their own memory and a view: depth buffers and offscreen colour targets.

#include "gpu/context.h"

namespace gpu {

struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_UNDEFINED;
    uint32_t width = 0, height = 0;
    VkDeviceSize allocated = 0; // the memory's size (gpu::allocatedMemory)
};

Image createImage(const Context& context, uint32_t width, uint32_t height, VkFormat format,
                  VkImageUsageFlags usage);
void destroyImage(const Context& context, Image& image);

// The first of D32_SFLOAT, D32_SFLOAT_S8, D24_S8 usable as a depth attachment.
VkFormat findDepthFormat(const Context& context);

// The aspects a view or barrier of an image of this format covers: colour, or depth (and stencil).
VkImageAspectFlags formatAspects(VkFormat format);

} // namespace gpu
