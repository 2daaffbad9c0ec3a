#include "render/imgui_backend.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

namespace render {

ImGuiBackend createImGuiBackend(const gpu::Context& ctx, GLFWwindow* window, VkRenderPass renderPass,
                                uint32_t minImageCount, uint32_t imageCount) {
    ImGuiBackend backend;
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16};
    VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    info.maxSets = 16;
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    VK_CHECK(vkCreateDescriptorPool(ctx.device, &info, nullptr, &backend.pool));
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr; // no imgui.ini left in the user's directory
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForVulkan(window, true);
    VkInstance instance = ctx.instance;
    ImGui_ImplVulkan_LoadFunctions(
        [](const char* name, void* instance) {
            return vkGetInstanceProcAddr(*static_cast<VkInstance*>(instance), name);
        },
        &instance);
    ImGui_ImplVulkan_InitInfo imguiInfo{};
    imguiInfo.Instance = ctx.instance;
    imguiInfo.PhysicalDevice = ctx.physicalDevice;
    imguiInfo.Device = ctx.device;
    imguiInfo.QueueFamily = ctx.queueFamily;
    imguiInfo.Queue = ctx.queue;
    imguiInfo.DescriptorPool = backend.pool;
    imguiInfo.MinImageCount = minImageCount;
    imguiInfo.ImageCount = imageCount;
    imguiInfo.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    ImGui_ImplVulkan_Init(&imguiInfo, renderPass);
    VkCommandBuffer cmd = gpu::beginOneShot(ctx);
    ImGui_ImplVulkan_CreateFontsTexture(cmd);
    gpu::endOneShot(ctx, cmd);
    ImGui_ImplVulkan_DestroyFontUploadObjects();
    return backend;
}

void destroyImGuiBackend(const gpu::Context& ctx, ImGuiBackend& backend) {
    ImGui_ImplVulkan_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    vkDestroyDescriptorPool(ctx.device, backend.pool, nullptr);
}

void beginImGuiFrame() {
    ImGui_ImplVulkan_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

} // namespace render
