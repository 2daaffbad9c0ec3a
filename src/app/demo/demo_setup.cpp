// Creates the demo's flock, renderer, swapchain, frame slots and ImGui.

#include "app/demo/demo_state.h"

#include <imgui_impl_glfw.h>

namespace app {

// Bad output paths are refused before a window opens, so that the user hears of them at once.
void checkOutputs(const DemoOptions& o) {
    if (!o.capture.empty()) checkCaptureFiles(o.capture);
    if (!o.screenshot.empty()) {
        if (o.frames == 0)
            throw io::InputError("--screenshot needs --frames N (the shot is of the last frame)");
        io::checkOutputPath(o.screenshot, ".png");
        if (!o.capture.empty()) {
            std::vector<std::string> files = captureFiles(o.capture);
            files.push_back(o.screenshot);
            io::checkDistinctOutputs(files);
        }
    }
}

double naiveStepSeconds(Demo& d) {
    if (!d.naiveMeasured) d.naiveMeasured = measureNaiveStep(d.ctx, d.flock.count, d.panel.sim.params);
    return estimateNaiveStepSeconds(d.flock.count, *d.naiveMeasured);
}

namespace {

// Started in naive mode where a step takes a second or more, the demo says so in one line, and an
// interactive demo (no --frames) opens paused, as the panel asks before switching to naive.
void noteSlowNaiveStart(Demo& d) {
    if (d.panel.sim.mode != sim::Mode::Naive) return;
    const double seconds = naiveStepSeconds(d);
    if (seconds <= slowNaiveStepSeconds) return;
    const bool pause = d.options.frames == 0 && !d.panel.paused;
    d.panel.paused = d.panel.paused || pause;
    std::fprintf(stderr, "vkboids: note: %s\n", naiveStartNote(d.flock.count, seconds, pause).c_str());
}

} // namespace

// Sets the panel's settings from the command line and creates the flock they start with: loaded from
// a file, the formed flock of assets/, or random.
void createDemoFlock(Demo& d) {
    const DemoOptions& o = d.options;
    PanelState& st = d.panel;
    st.sim = sim::configFor(o.sim, o.loadState.empty() ? o.boids : d.initial.count());
    st.seedInput = o.seed;
    st.paused = o.paused;
    st.presetWatched = o.preset;
    st.presentMode = int(o.presentMode);
    st.deviceName = d.ctx.properties.deviceName;
    st.cpuDevice = d.ctx.isCpu;
    sim::checkFlockFits(d.ctx, o.loadState.empty() ? o.boids : d.initial.count());
    if (o.formedStart)
        d.initial = formedFlock();
    else if (o.loadState.empty())
        d.initial = sim::randomState(o.boids, o.seed, st.sim.params.domainHalf, st.sim.params.maxSpeed);
    sim::wrapPositions(d.initial, st.sim.params.domainHalf);
    d.flock = sim::createFlock(d.ctx, d.initial.count());
    sim::uploadState(d.ctx, d.flock, d.initial);
    st.boids = d.flock.count;
    st.boidInput = int(std::min<uint32_t>(d.flock.count, 0x7fffffff));
    noteSlowNaiveStart(d);
}

// The renderer, the window's swapchain, and the drawing path the two allow.
void createRendererAndSwapchain(Demo& d) {
    const DemoOptions& o = d.options;
    d.depthFormat = gpu::findDepthFormat(d.ctx);
    const VkSurfaceFormatKHR surfaceFormat = gpu::chooseSurfaceFormat(d.ctx);
    d.renderer =
        render::createRenderer(d.ctx, surfaceFormat.format, d.depthFormat, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
    int w = 0, h = 0;
    glfwGetFramebufferSize(d.window, &w, &h);
    try {
        gpu::createSwapchain(d.ctx, d.swapchain, d.depthFormat, uint32_t(std::max(w, 1)),
                             uint32_t(std::max(h, 1)), gpu::vulkanPresentMode(o.presentMode));
    } catch (const io::InputError& e) { // a window larger than the device draws: the user's --window
        throw io::InputError(std::string("--window: ") + e.what());
    }
    if (d.swapchain.presentMode != gpu::vulkanPresentMode(o.presentMode))
        std::fprintf(stderr, "vkboids: note: present mode %s is not offered here; using %s\n",
                     io::nameIn(gpu::presentModeNames, o.presentMode),
                     gpu::presentModeName(d.swapchain.presentMode));
    render::sizeTarget(d.ctx, d.renderer, d.swapchain.extent.width, d.swapchain.extent.height);

    PanelState& st = d.panel;
    st.computeDrawAvailable = render::computePathAvailable(d.ctx) && d.swapchain.storage;
    if (o.drawPath == render::DrawPath::Compute && !st.computeDrawAvailable)
        throw io::InputError(std::string("--draw compute: ") + d.ctx.properties.deviceName +
                             (d.swapchain.storage
                                  ? " lacks 64-bit atomics on storage buffers or format-free image stores"
                                  : "'s window images take no storage writes"));
    st.draw.path = o.drawPath; // the compute path falls back to points where this frame cannot take it
    st.draw.colorMode = o.color;
}

// Creates, for each frame in flight, a command buffer, a fence, a semaphore, a grid-statistics buffer
// and the profiler's queries.
void createFrameSlots(Demo& d) {
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = d.ctx.queueFamily;
    VK_CHECK(vkCreateCommandPool(d.ctx.device, &poolInfo, nullptr, &d.pool));
    for (FrameSlot& s : d.slots) {
        VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        alloc.commandPool = d.pool;
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = 1;
        VK_CHECK(vkAllocateCommandBuffers(d.ctx.device, &alloc, &s.cmd));
        VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        VK_CHECK(vkCreateFence(d.ctx.device, &fence, nullptr, &s.fence));
        VkSemaphoreCreateInfo sem{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VK_CHECK(vkCreateSemaphore(d.ctx.device, &sem, nullptr, &s.acquired));
        s.gridStats =
            gpu::createBuffer(d.ctx, sizeof(gpudata::GridStats), gpu::storageUsage, gpu::MemoryUse::Readback);
    }
    d.profiler = gpu::createProfiler(d.ctx, framesInFlight);
    d.panel.timings.trust = d.profiler.probe.trust;
}

void destroyFrameSlots(Demo& d) {
    gpu::destroyProfiler(d.ctx, d.profiler);
    for (FrameSlot& s : d.slots) {
        vkDestroyFence(d.ctx.device, s.fence, nullptr);
        vkDestroySemaphore(d.ctx.device, s.acquired, nullptr);
        gpu::destroyBuffer(d.ctx, s.gridStats);
        destroyScreenshot(d.ctx, s.keyShot);
    }
    vkDestroyCommandPool(d.ctx.device, d.pool, nullptr);
}

void createImGui(Demo& d) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr; // no imgui.ini left in the user's directory
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForVulkan(d.window, true);
    d.imgui = render::createImGuiRenderer(d.ctx, d.renderer.colorFormat, framesInFlight);
}

void destroyImGui(Demo& d) {
    render::destroyImGuiRenderer(d.ctx, d.imgui);
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

void beginImGuiFrame() {
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

PixelRect toPixels(const PixelRect& r) {
    const ImVec2 s = ImGui::GetIO().DisplayFramebufferScale;
    return {r.x0 * s.x, r.y0 * s.y, r.x1 * s.x, r.y1 * s.y};
}

PanelRequest drawWindows(Demo& d) {
    d.camera.frame = {};
    PanelRequest asked;
    if (d.showPanel) {
        asked = drawPanel(d.panel);
        d.camera.frame = freeFrame(d.swapchain.extent.width, d.swapchain.extent.height,
                                   toPixels(d.panel.panelRect), toPixels(d.panel.timingsRect));
    }
    if (d.showHelp) drawHelp(&d.showHelp);
    drawPredatorMarker(d);
    return asked;
}

sim::Grid currentGrid(const Demo& d) {
    return sim::gridFor(d.panel.sim, d.flock.count);
}

// Runs --steps-before's steps before the first frame, one step per submission as the step command
// does, with progress on a terminal once they take a while. Window events are polled so that closing
// the window ends them.
void runStepsBefore(Demo& d) {
    const uint64_t steps = d.options.stepsBefore;
    if (steps == 0) return;
    const sim::Config& c = d.panel.sim;
    const sim::Grid grid = currentGrid(d);
    sim::prepareGrid(d.ctx, d.flock, grid, c.mode, c.gridBuild);
    Headless headless = createHeadless(d.ctx);
    const Clock::time_point start = Clock::now();
    bool shown = false;
    uint64_t s = 0;
    for (; s < steps && !glfwWindowShouldClose(d.window); ++s) {
        glfwPollEvents();
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (elapsed >= 2 && s > 0) {
            char text[96];
            std::snprintf(text, sizeof text, "step %llu of %llu before the first frame, %.0f s to go",
                          (unsigned long long)s + 1, (unsigned long long)steps,
                          elapsed / double(s) * double(steps - s));
            progress(text);
            shown = true;
        }
        runHeadlessFrame(d.ctx, headless, [&](VkCommandBuffer cmd, gpu::Profiler*) {
            sim::recordStep(cmd, d.flock, c.params, c.mode, grid, c.gridBuild, nullptr);
        });
    }
    if (shown) endProgress();
    std::printf("%s before the first frame in %.2f s\n", countOf(s, "step").c_str(),
                std::chrono::duration<double>(Clock::now() - start).count());
    destroyHeadless(d.ctx, headless);
}

// Sets up the camera, the capture the command line asks for and the number of frames to render.
void startRun(Demo& d) {
    const DemoOptions& o = d.options;
    d.camera = defaultCamera(d.panel.sim.params.domainHalf);
    if (!o.capture.empty())
        d.capture = Capture{.csvPath = o.capture, .warmupLeft = o.warmup, .framesLeft = o.frames};
    d.totalFrames = o.frames ? o.frames + (o.capture.empty() ? 0 : o.warmup) : 0;
    d.panel.grid = currentGrid(d);
    d.previousStart = Clock::now();
}

} // namespace app
