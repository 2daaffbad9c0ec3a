#pragma once
// The demo's state and the steps that create it (demo_setup.cpp); the frame loop is in demo.cpp.

#include "app/camera.h"
#include "app/capture_files.h"
#include "app/demo/demo_options.h"
#include "app/demo/help.h"
#include "app/demo/panel.h"
#include "app/demo/screenshot.h"
#include "app/demo/window.h"
#include "app/formed_flock.h"
#include "app/naive_guard.h"
#include "app/run.h"
#include "gpu/swapchain.h"
#include "render/imgui_renderer.h"
#include "render/renderer.h"
#include "sim/flock.h"
#include "sim/npy.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <future>
#include <optional>

namespace app {

using Clock = std::chrono::steady_clock;
constexpr uint32_t framesInFlight = 2;

// What each frame in flight owns, so that one frame can be recorded while the other runs.
struct FrameSlot {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;        // signalled when the slot's frame has finished on the GPU
    VkSemaphore acquired = VK_NULL_HANDLE; // signalled when its swapchain image may be drawn into
    gpu::Buffer gridStats;                 // host-visible, holds the frame's GridStats
    Screenshot keyShot;                    // an F12 screenshot, written once the fence signals
    bool used = false, hasStats = false, captured = false;
    FrameRow row; // CPU fields are set when recorded, GPU times when harvested
};

struct Demo {
    DemoOptions options;

    // These are created in this order and destroyed in reverse.
    GLFWwindow* window = nullptr;
    gpu::Context ctx;
    sim::State initial; // the start state, brought back when a reinitialization fails
    sim::Flock flock;
    VkFormat depthFormat = VK_FORMAT_UNDEFINED;
    render::Renderer renderer;
    gpu::Swapchain swapchain;
    VkCommandPool pool = VK_NULL_HANDLE;
    FrameSlot slots[framesInFlight];
    gpu::Profiler profiler;
    render::ImGuiRenderer imgui;

    PanelState panel;
    OrbitCamera camera;
    bool showPanel = true;
    bool showHelp = false;
    bool shotRequested = false;  // F12 was pressed this frame
    double scroll = 0;           // scroll steps since the last frame
    double lastX = 0, lastY = 0; // the cursor at the last frame
    // Input as the window's callbacks (input.cpp) report it: the keys pressed since the last frame,
    // the buttons held and the cursor's position.
    bool keyPressed[GLFW_KEY_LAST + 1] = {};
    bool buttonDown[GLFW_MOUSE_BUTTON_LAST + 1] = {};
    double cursorX = 0, cursorY = 0;

    std::optional<Capture> capture;
    Screenshot shot;                                 // the last frame, for --screenshot
    std::vector<std::string> shotPaths;              // the F12 screenshots taken in this run
    std::vector<std::future<std::string>> pngWrites; // F12 PNGs being written; each returns a status line
    uint64_t totalFrames = 0;                        // 0 means until the window closes
    bool interrupted = false;                        // after Ctrl-C, at most one more frame, not stepped
    uint64_t frameNumber = 0;
    bool swapchainDirty = false;
    uint32_t recreations = 0, minimizations = 0;
    bool wasMinimized = false;
    LiveShaders live;                         // --shaders: the files watched and the reload under way
    std::optional<NaiveTiming> naiveMeasured; // the last naive step run or measured
    Clock::time_point previousStart;          // a frame's CPU time runs from its start to the next frame's
    int previousSlot = -1;
};

// In input.cpp: the window's input callbacks, which are installed before ImGui's so that ImGui chains
// to them, and the predator under the mouse.
void installInputCallbacks(Demo& d);
void updatePlay(Demo& d);
void drawPredatorMarker(const Demo& d);
// Converts a rectangle from ImGui's coordinates, which are the window's, to framebuffer pixels; the
// two differ on scaled displays.
PixelRect toPixels(const PixelRect& r);
// Refuses outputs that cannot be written before any work starts.
void checkOutputs(const DemoOptions& options);
void createDemoFlock(Demo& d);
void createRendererAndSwapchain(Demo& d);
void createFrameSlots(Demo& d);
void destroyFrameSlots(Demo& d);
// Creates Dear ImGui's context, its GLFW input (chained to our callbacks) and its renderer.
void createImGui(Demo& d);
void destroyImGui(Demo& d);
// Begins an ImGui frame before input is handled, because ImGui decides whether it takes the mouse and
// the keyboard.
void beginImGuiFrame();
// Draws the frame's ImGui windows (the panels, the help and the predator's marker) and frames the
// domain beside the panels. Returns what the panel asked for.
PanelRequest drawWindows(Demo& d);
sim::Grid currentGrid(const Demo& d);
// Estimates how long a naive step of the present flock takes, scaled from the last naive step the
// demo ran or from one measured now (measureNaiveStep).
double naiveStepSeconds(Demo& d);
void runStepsBefore(Demo& d);
void startRun(Demo& d);

} // namespace app
