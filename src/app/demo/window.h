#pragma once
// The demo's window (GLFW, no client API) and a Vulkan context that can present to it.

#include "app/run.h"
#include "gpu/context.h"

struct GLFWwindow;

namespace app {

// Initializes GLFW and opens a window; without a display, says to use the headless commands.
// Throws gpu::Error.
GLFWwindow* openWindow(int width, int height);
// Closes the window and terminates GLFW.
void closeWindow(GLFWwindow* window);

// A context with the instance extensions GLFW needs for surfaces, and the window's surface.
gpu::Context createWindowContext(GLFWwindow* window, const GlobalOptions& global);

} // namespace app
