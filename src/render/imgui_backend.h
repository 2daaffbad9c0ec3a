#pragma once
// Dear ImGui on the window and the device: its GLFW and Vulkan backends, the latter loading Vulkan
// functions through volk. What the panel shows is in panel.h.

#include "gpu/context.h"

struct GLFWwindow;

namespace render {

// Descriptors for ImGui's font texture.
struct ImGuiBackend {
    VkDescriptorPool pool = VK_NULL_HANDLE;
};

// ImGui draws in `renderPass` (or one compatible with it) into a swapchain of `imageCount` images,
// `minImageCount` at least; its fonts are uploaded here.
ImGuiBackend createImGuiBackend(const gpu::Context& context, GLFWwindow* window, VkRenderPass renderPass,
                                uint32_t minImageCount, uint32_t imageCount);
void destroyImGuiBackend(const gpu::Context& context, ImGuiBackend& backend);

// A new ImGui frame, begun before input: it decides whether ImGui takes the mouse and the keyboard.
void beginImGuiFrame();

} // namespace render
