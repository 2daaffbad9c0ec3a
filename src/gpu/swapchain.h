#pragma once
// The window's swapchain with its image views and depth buffer; recreated on resize and present-mode
// changes, never with a 0x0 extent (the caller waits while the window is minimized).

#include "gpu/image.h"
#include "io/names.h"

#include <string>
#include <vector>

namespace gpu {

struct Swapchain {
    VkSwapchainKHR swapchain = VK_NULL_HANDLE;
    VkSurfaceFormatKHR format{};
    VkExtent2D extent{};
    VkPresentModeKHR presentMode = VK_PRESENT_MODE_FIFO_KHR;
    uint32_t minImageCount = 2;
    std::vector<VkImage> images;
    std::vector<VkImageView> views;
    std::vector<VkSemaphore> renderDone; // per image: presentation waits on the image's own semaphore
    Image depth;
    bool canCopy = false; // images allow transfer reads (screenshots)
    bool storage = false; // images allow storage writes (the compute drawing path)
};

// The surface format the frames are drawn in (BGRA8/RGBA8 sRGB-nonlinear, else the first offered).
VkSurfaceFormatKHR chooseSurfaceFormat(const Context& context);

// The present modes a user may ask for. One table of names, in the enum's order, parses a choice,
// lists the choices and names the mode in messages.
enum class PresentMode { Fifo, Mailbox, Immediate };
constexpr io::NameTable<PresentMode, 3> presentModeNames{{"fifo", "mailbox", "immediate"}};
VkPresentModeKHR vulkanPresentMode(PresentMode mode);
// The name of the mode a swapchain presents with, which may be one no user asked for ("fifo-relaxed").
const char* presentModeName(VkPresentModeKHR mode);

// (Re)creates the swapchain for the window's current framebuffer size; `wanted` falls back to FIFO
// when the surface lacks it. Waits for the device when replacing an old swapchain.
void createSwapchain(const Context& context, Swapchain& swapchain, VkFormat depthFormat, uint32_t width,
                     uint32_t height, VkPresentModeKHR wanted);
void destroySwapchain(const Context& context, Swapchain& swapchain);

} // namespace gpu
