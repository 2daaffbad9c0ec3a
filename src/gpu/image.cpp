#include "gpu/image.h"

#include "gpu/buffer.h"

#include <string>

namespace gpu {

Image createImage(const Context& ctx, uint32_t width, uint32_t height, VkFormat format,
                  VkImageUsageFlags usage) {
    Image img;
    img.format = format;
    img.width = width;
    img.height = height;
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {width, height, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VK_CHECK(vkCreateImage(ctx.device, &info, nullptr, &img.image));

    try {
        const Allocation a =
            allocateAndBind(ctx, VK_NULL_HANDLE, img.image, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0,
                            "a " + std::to_string(width) + "x" + std::to_string(height) + " image");
        img.memory = a.memory;
        img.allocated = a.size;
    } catch (const Error&) {
        vkDestroyImage(ctx.device, img.image, nullptr);
        throw;
    }

    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = img.image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format;
    // A depth attachment's view is of depth alone, also where the format has stencil.
    const VkImageAspectFlags aspects = formatAspects(format) & VK_IMAGE_ASPECT_COLOR_BIT
                                           ? VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT)
                                           : VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT);
    view.subresourceRange = {aspects, 0, 1, 0, 1};
    VK_CHECK(vkCreateImageView(ctx.device, &view, nullptr, &img.view));
    return img;
}

void destroyImage(const Context& ctx, Image& img) {
    if (img.view) vkDestroyImageView(ctx.device, img.view, nullptr);
    if (img.image) vkDestroyImage(ctx.device, img.image, nullptr);
    freeAllocation(ctx, {img.memory, img.allocated});
    img = Image{};
}

VkFormat findDepthFormat(const Context& ctx) {
    for (VkFormat f : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT}) {
        VkFormatProperties props;
        vkGetPhysicalDeviceFormatProperties(ctx.physicalDevice, f, &props);
        if (props.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) return f;
    }
    throw Error("no depth format available");
}

VkImageAspectFlags formatAspects(VkFormat format) {
    switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D32_SFLOAT: return VK_IMAGE_ASPECT_DEPTH_BIT;
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT: return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    default: return VK_IMAGE_ASPECT_COLOR_BIT;
    }
}

} // namespace gpu
