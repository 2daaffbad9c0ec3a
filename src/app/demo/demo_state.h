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

// Per frame in flight.
struct FrameSlot {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;        // signalled when the slot's frame has finished on the GPU
    VkSemaphore acquired = VK_NULL_HANDLE; // signalled when its swapchain image may be drawn into
    gpu::Buffer gridStats;                 // host-visible GridStats
    Screenshot keyShot;                    // F12: the frame's image, written once the fence signals
    bool used = false, hasStats = false, captured = false;
    FrameRow row; // CPU fields when recorded, GPU times when harvested
};

struct Demo {
    DemoOptions options;

    // Created in this order, destroyed in reverse.
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

    // What the user sees and changes.
    PanelState panel;
    OrbitCamera camera;
    bool showPanel = true;
    bool showHelp = false;
    bool shotRequested = false;  // F12 this frame
    double scroll = 0;           // scroll steps since the last frame
    double lastX = 0, lastY = 0; // the cursor at the last frame
    // Input as the window's callbacks (input.cpp) report it: keys pressed since the last frame,
    // buttons held, the cursor.
    bool keyPressed[GLFW_KEY_LAST + 1] = {};
    bool buttonDown[GLFW_MOUSE_BUTTON_LAST + 1] = {};
    double cursorX = 0, cursorY = 0;

    // The run.
    std::optional<Capture> capture;
    Screenshot shot;                                 // --screenshot, of the last frame
    std::vector<std::string> shotPaths;              // F12's, in this run
    std::vector<std::future<std::string>> pngWrites; // F12's PNGs being written; each says how it went
    uint64_t totalFrames = 0;                        // 0: until the window closes
    bool interrupted = false;                        // Ctrl-C: at most one more frame, not stepped
    uint64_t frameNumber = 0;                        // frames rendered
    bool swapchainDirty = false;
    uint32_t recreations = 0, minimizations = 0;
    bool wasMinimized = false;
    std::optional<NaiveTiming> naiveMeasured; // the last naive step run or measured
    Clock::time_point previousStart;          // a frame's CPU time runs from its start to the next frame's
    int previousSlot = -1;
};

void onScroll(GLFWwindow* window, double dx, double dy);
// input.cpp: the window's input callbacks (installed before ImGui's, which chain to them), and the
// predator under the mouse.
void installInputCallbacks(Demo& d);
void updatePlay(Demo& d);
void drawPredatorMarker(const Demo& d);
// A rectangle in ImGui's (the window's) coordinates in framebuffer pixels, which differ on scaled
// displays.
PixelRect toPixels(const PixelRect& r);
// Refuses unwritable outputs before any work.
void checkOutputs(const DemoOptions& options);
void createDemoFlock(Demo& d);
void createRendererAndSwapchain(Demo& d);
void createFrameSlots(Demo& d);
void destroyFrameSlots(Demo& d);
// Dear ImGui on the window: its context, GLFW input (chained to ours) and its renderer.
void createImGui(Demo& d);
void destroyImGui(Demo& d);
// A new ImGui frame, begun before input: it decides whether ImGui takes the mouse and the keyboard.
void beginImGuiFrame();
// The frame's ImGui windows (the panels, the help, the predator's marker), and the domain framed
// beside the panels. Returns what the panel asked for.
PanelRequest drawWindows(Demo& d);
sim::Grid currentGrid(const Demo& d);
// The time a naive step of the present flock takes: scaled from the last naive step the demo ran, or
// from one measured now (measureNaiveStep).
double naiveStepSeconds(Demo& d);
void runStepsBefore(Demo& d);
void startRun(Demo& d);

} // namespace app
