#include "gpu/swapchain.h"

#include "io/output.h"

#include <algorithm>

namespace gpu {
namespace {

void destroyViews(const Context& ctx, Swapchain& s) {
    for (VkImageView v : s.views) vkDestroyImageView(ctx.device, v, nullptr);
    for (VkSemaphore sem : s.renderDone) vkDestroySemaphore(ctx.device, sem, nullptr);
    gpu::destroyImage(ctx, s.depth);
    s.views.clear();
    s.renderDone.clear();
    s.images.clear();
}

} // namespace

VkSurfaceFormatKHR chooseSurfaceFormat(const Context& ctx) {
    uint32_t count = 0;
    VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physicalDevice, ctx.surface, &count, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(count);
    VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physicalDevice, ctx.surface, &count, formats.data()));
    if (formats.empty()) throw gpu::Error("the window surface offers no formats");
    for (const VkSurfaceFormatKHR& f : formats)
        if ((f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) &&
            f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR)
            return f;
    return formats[0];
}

VkPresentModeKHR vulkanPresentMode(PresentMode mode) {
    switch (mode) {
    case PresentMode::Mailbox: return VK_PRESENT_MODE_MAILBOX_KHR;
    case PresentMode::Immediate: return VK_PRESENT_MODE_IMMEDIATE_KHR;
    case PresentMode::Fifo: break;
    }
    return VK_PRESENT_MODE_FIFO_KHR;
}

const char* presentModeName(VkPresentModeKHR mode) {
    switch (mode) {
    case VK_PRESENT_MODE_MAILBOX_KHR: return "mailbox";
    case VK_PRESENT_MODE_IMMEDIATE_KHR: return "immediate";
    case VK_PRESENT_MODE_FIFO_KHR: return "fifo";
    case VK_PRESENT_MODE_FIFO_RELAXED_KHR: return "fifo-relaxed";
    default: return "other";
    }
}

namespace {

// `wanted` where the surface offers it, else FIFO (which every surface offers).
VkPresentModeKHR choosePresentMode(const Context& ctx, VkPresentModeKHR wanted) {
    uint32_t modeCount = 0;
    VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physicalDevice, ctx.surface, &modeCount, nullptr));
    std::vector<VkPresentModeKHR> modes(modeCount);
    VK_CHECK(
        vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physicalDevice, ctx.surface, &modeCount, modes.data()));
    return std::find(modes.begin(), modes.end(), wanted) != modes.end() ? wanted : VK_PRESENT_MODE_FIFO_KHR;
}

// The surface's size, or the window's within the surface's bounds where the surface leaves it to us;
// refused where the device cannot draw that large.
VkExtent2D chooseExtent(const Context& ctx, const VkSurfaceCapabilitiesKHR& caps, uint32_t width,
                        uint32_t height) {
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) {
        extent.width = std::clamp(width, caps.minImageExtent.width, caps.maxImageExtent.width);
        extent.height = std::clamp(height, caps.minImageExtent.height, caps.maxImageExtent.height);
    }
    CHECK(extent.width > 0 && extent.height > 0); // the caller waits while minimized
    const auto& limits = ctx.properties.limits;
    const uint32_t widest = std::min(limits.maxImageDimension2D, limits.maxFramebufferWidth);
    const uint32_t tallest = std::min(limits.maxImageDimension2D, limits.maxFramebufferHeight);
    if (extent.width > widest || extent.height > tallest)
        throw io::InputError("the window is " + std::to_string(extent.width) + "x" +
                             std::to_string(extent.height) + ", more than this device draws (at most " +
                             std::to_string(widest) + "x" + std::to_string(tallest) + "): make it smaller");
    return extent;
}

// The swapchain `s` describes (its mode, extent, format, image count and usages), replacing the old one.
VkSwapchainCreateInfoKHR swapchainInfo(const Context& ctx, const Swapchain& s,
                                       const VkSurfaceCapabilitiesKHR& caps) {
    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = ctx.surface;
    info.minImageCount = s.minImageCount;
    info.imageFormat = s.format.format;
    info.imageColorSpace = s.format.colorSpace;
    info.imageExtent = s.extent;
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                      (s.canCopy ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0) |
                      (s.storage ? VK_IMAGE_USAGE_STORAGE_BIT : 0);
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    if (!(caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR))
        info.compositeAlpha = VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
    info.presentMode = s.presentMode;
    info.clipped = VK_TRUE;
    info.oldSwapchain = s.swapchain;
    return info;
}

// The new swapchain's images, the depth buffer, and per image a view and a render-done semaphore.
void createViews(const Context& ctx, Swapchain& s, VkFormat depthFormat) {
    uint32_t count = 0;
    VK_CHECK(vkGetSwapchainImagesKHR(ctx.device, s.swapchain, &count, nullptr));
    s.images.resize(count);
    VK_CHECK(vkGetSwapchainImagesKHR(ctx.device, s.swapchain, &count, s.images.data()));
    s.depth = gpu::createImage(ctx, s.extent.width, s.extent.height, depthFormat,
                               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    for (VkImage image : s.images) {
        VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        view.image = image;
        view.viewType = VK_IMAGE_VIEW_TYPE_2D;
        view.format = s.format.format;
        view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageView v = VK_NULL_HANDLE;
        VK_CHECK(vkCreateImageView(ctx.device, &view, nullptr, &v));
        s.views.push_back(v);
        VkSemaphoreCreateInfo sem{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkSemaphore done = VK_NULL_HANDLE;
        VK_CHECK(vkCreateSemaphore(ctx.device, &sem, nullptr, &done));
        s.renderDone.push_back(done);
    }
}

} // namespace

void createSwapchain(const Context& ctx, Swapchain& s, VkFormat depthFormat, uint32_t width, uint32_t height,
                     VkPresentModeKHR wanted) {
    VkSurfaceCapabilitiesKHR caps;
    VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx.physicalDevice, ctx.surface, &caps));
    s.presentMode = choosePresentMode(ctx, wanted);
    s.extent = chooseExtent(ctx, caps, width, height);
    s.format = chooseSurfaceFormat(ctx);
    s.minImageCount = std::max(caps.minImageCount + 1, 3u);
    if (caps.maxImageCount) s.minImageCount = std::min(s.minImageCount, caps.maxImageCount);
    s.canCopy = caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    VkFormatProperties formatProperties{};
    vkGetPhysicalDeviceFormatProperties(ctx.physicalDevice, s.format.format, &formatProperties);
    s.storage = (caps.supportedUsageFlags & VK_IMAGE_USAGE_STORAGE_BIT) &&
                (formatProperties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT);

    const VkSwapchainCreateInfoKHR info = swapchainInfo(ctx, s, caps);
    VkSwapchainKHR created = VK_NULL_HANDLE;
    // Frames in flight may still use the old images and views.
    if (s.swapchain) VK_CHECK(vkDeviceWaitIdle(ctx.device));
    VK_CHECK(vkCreateSwapchainKHR(ctx.device, &info, nullptr, &created));
    destroyViews(ctx, s);
    if (s.swapchain) vkDestroySwapchainKHR(ctx.device, s.swapchain, nullptr);
    s.swapchain = created;
    createViews(ctx, s, depthFormat);
}

void destroySwapchain(const Context& ctx, Swapchain& s) {
    destroyViews(ctx, s);
    if (s.swapchain) vkDestroySwapchainKHR(ctx.device, s.swapchain, nullptr);
    s = Swapchain{};
}

} // namespace gpu
