#include "app/demo/window.h"

#include "app/demo/demo_options.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace app {
namespace {

std::string glfwErrorText() {
    const char* text = nullptr;
    glfwGetError(&text);
    return text ? text : "unknown GLFW error";
}

} // namespace

GLFWwindow* openWindow(int width, int height) {
    glfwSetErrorCallback(nullptr);
    if (!glfwInit())
        throw gpu::Error("cannot open a window (" + glfwErrorText() +
                         "): without a display, use the headless commands (step, bench) or xvfb-run");
    if (!glfwVulkanSupported()) throw gpu::Error("GLFW finds no Vulkan loader for windows");
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    GLFWwindow* window = glfwCreateWindow(width, height, "vkboids", nullptr, nullptr);
    if (!window) throw gpu::Error("cannot create a window: " + glfwErrorText());
    glfwSetWindowSizeLimits(window, minWindowWidth, minWindowHeight, GLFW_DONT_CARE, GLFW_DONT_CARE);
    return window;
}

void closeWindow(GLFWwindow* window) {
    glfwDestroyWindow(window);
    glfwTerminate();
}

gpu::Context createWindowContext(GLFWwindow* window, const GlobalOptions& global) {
    uint32_t extensionCount = 0;
    const char** extensions = glfwGetRequiredInstanceExtensions(&extensionCount);
    gpu::ContextOptions options{.validation = global.validation,
                                .deviceIndex = global.device,
                                .pipelineStatistics = global.pipelineStats,
                                .shaderFolder = global.shaders,
                                .shaderModules = compileShaderSources(global, false)};
    options.instanceExtensions.assign(extensions, extensions + extensionCount);
    options.createSurface = [window](VkInstance instance) {
        VkSurfaceKHR surface = VK_NULL_HANDLE;
        VK_CHECK(glfwCreateWindowSurface(instance, window, nullptr, &surface));
        return surface;
    };
    return gpu::createContext(options);
}

} // namespace app
