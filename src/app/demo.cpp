// The interactive demo: window, swapchain, ImGui panel, orbit camera and the frame loop.

#include "app/camera.h"
#include "app/capture.h"
#include "app/commands.h"
#include "app/panel.h"
#include "app/swapchain.h"
#include "render/renderer.h"
#include "sim/flock.h"
#include "sim/npy.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>
#include <stb_image_write.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

namespace app {
namespace {

using Clock = std::chrono::steady_clock;
constexpr uint32_t framesInFlight = 2;

struct Input {
    double scroll = 0;
};

void onScroll(GLFWwindow* window, double, double dy) {
    static_cast<Input*>(glfwGetWindowUserPointer(window))->scroll += dy;
}

std::string glfwErrorText() {
    const char* text = nullptr;
    glfwGetError(&text);
    return text ? text : "unknown GLFW error";
}

// A capture in progress: frames after the warm-up become rows once their GPU times are in.
struct Capture {
    std::string csvPath;
    uint64_t warmupLeft = 0, framesLeft = 0, measured = 0;
    std::vector<FrameRow> rows;
    RunInfo info;
    std::optional<Clock::time_point> firstFrame;
};

std::string jsonPathFor(const std::string& csvPath) {
    const size_t dot = csvPath.rfind('.');
    const size_t slash = csvPath.rfind('/');
    const std::string stem = dot != std::string::npos && (slash == std::string::npos || dot > slash)
                                 ? csvPath.substr(0, dot)
                                 : csvPath;
    return stem + ".json";
}

// A capture writes its CSV and, beside it, a JSON summary: both must be writable before it starts.
void checkCaptureWritable(const std::string& csvPath) {
    sim::checkOutputPath(csvPath, ".csv");
    sim::checkWritable(jsonPathFor(csvPath));
}

void writeCapture(const gpu::Context& ctx, const Capture& c) {
    std::string csv = csvHeader();
    for (const FrameRow& r : c.rows) csv += csvRow(r);
    sim::writeFilesAtomically(
        {{c.csvPath, csv},
         {jsonPathFor(c.csvPath), captureJson(ctx, {summarizeRun(c.info, c.rows)}).dump(2) + "\n"}});
}

// Per frame in flight.
struct FrameSlot {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkSemaphore acquired = VK_NULL_HANDLE;
    gpu::Buffer gridStats; // host-visible GridStats
    bool used = false, hasStats = false, captured = false;
    FrameRow row;
    Clock::time_point start;
};

struct Screenshot {
    gpu::Buffer pixels;
    uint32_t width = 0, height = 0;
    VkFormat format = VK_FORMAT_UNDEFINED;
    bool recorded = false;
};

// The screenshot reads 8-bit RGBA or BGRA pixels; other swapchain formats get no screenshot.
bool fourBytesPerPixel(VkFormat format) {
    return format == VK_FORMAT_R8G8B8A8_UNORM || format == VK_FORMAT_R8G8B8A8_SRGB ||
           format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
}

// Copies the swapchain image (after the render pass, in PRESENT_SRC layout) into `shot.pixels`.
void recordScreenshot(VkCommandBuffer cmd, const gpu::Context& ctx, const Swapchain& sc, uint32_t image,
                      Screenshot& shot) {
    shot.width = sc.extent.width;
    shot.height = sc.extent.height;
    shot.format = sc.format.format;
    shot.pixels = gpu::createBuffer(ctx, 4ull * shot.width * shot.height, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                    gpu::MemoryUse::Readback);
    VkImageMemoryBarrier2 toCopy{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    // The render pass's colour writes (made available by its external dependency) are read by the copy.
    toCopy.srcStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    toCopy.srcAccessMask = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
    toCopy.dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    toCopy.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
    toCopy.oldLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    toCopy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    toCopy.srcQueueFamilyIndex = toCopy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toCopy.image = sc.images[image];
    toCopy.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.imageMemoryBarrierCount = 1;
    dep.pImageMemoryBarriers = &toCopy;
    vkCmdPipelineBarrier2(cmd, &dep);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {shot.width, shot.height, 1};
    vkCmdCopyImageToBuffer(cmd, sc.images[image], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, shot.pixels.buffer, 1,
                           &region);
    // Back to presentable; the host reads the pixels after the fence.
    VkImageMemoryBarrier2 toPresent = toCopy;
    toPresent.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    toPresent.srcAccessMask = 0;
    toPresent.dstStageMask = VK_PIPELINE_STAGE_2_NONE;
    toPresent.dstAccessMask = 0;
    toPresent.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    toPresent.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    dep.pImageMemoryBarriers = &toPresent;
    vkCmdPipelineBarrier2(cmd, &dep);
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    shot.recorded = true;
}

void writeScreenshot(const std::string& path, const Screenshot& shot) {
    std::vector<uint8_t> rgba(static_cast<const uint8_t*>(shot.pixels.mapped),
                              static_cast<const uint8_t*>(shot.pixels.mapped) +
                                  4ull * shot.width * shot.height);
    const bool bgra = shot.format == VK_FORMAT_B8G8R8A8_UNORM || shot.format == VK_FORMAT_B8G8R8A8_SRGB;
    for (size_t i = 0; i < rgba.size(); i += 4) {
        if (bgra) std::swap(rgba[i], rgba[i + 2]);
        rgba[i + 3] = 255;
    }
    std::string png;
    stbi_write_png_to_func(
        [](void* context, void* data, int size) {
            static_cast<std::string*>(context)->append(static_cast<char*>(data), size);
        },
        &png, int(shot.width), int(shot.height), 4, rgba.data(), int(shot.width * 4));
    if (png.empty()) throw sim::InputError("could not encode the screenshot");
    sim::writeFileAtomically(path, png);
}

} // namespace

int runDemo(const GlobalOptions& global, const DemoOptions& o) {
    if (!o.capture.empty()) checkCaptureWritable(o.capture);
    if (!o.screenshot.empty()) {
        if (o.frames == 0)
            throw sim::InputError("--screenshot needs --frames N (the shot is of the last frame)");
        sim::checkOutputPath(o.screenshot, ".png");
    }
    sim::State initial;
    if (!o.loadState.empty()) initial = sim::loadNpy(o.loadState);

    glfwSetErrorCallback(nullptr);
    if (!glfwInit())
        throw gpu::Error("cannot open a window (" + glfwErrorText() +
                         "): without a display, use the headless commands (step, bench) or xvfb-run");
    if (!glfwVulkanSupported()) throw gpu::Error("GLFW finds no Vulkan loader for windows");
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    GLFWwindow* window = glfwCreateWindow(o.width, o.height, "vkboids", nullptr, nullptr);
    if (!window) throw gpu::Error("cannot create a window: " + glfwErrorText());
    Input input;
    glfwSetWindowUserPointer(window, &input);
    glfwSetScrollCallback(window, onScroll); // installed before ImGui's, which chains to it

    uint32_t extensionCount = 0;
    const char** extensions = glfwGetRequiredInstanceExtensions(&extensionCount);
    gpu::ContextOptions options{.validation = global.validation,
                                .deviceIndex = global.device,
                                .pipelineStatistics = global.pipelineStats};
    options.instanceExtensions.assign(extensions, extensions + extensionCount);
    options.createSurface = [window](VkInstance instance) {
        VkSurfaceKHR surface = VK_NULL_HANDLE;
        VK_CHECK(glfwCreateWindowSurface(instance, window, nullptr, &surface));
        return surface;
    };
    gpu::Context ctx = gpu::createContext(options);

    // Simulation and rendering.
    PanelState st;
    st.params = o.params;
    if (o.density > 0 && !o.loadState.empty()) {
        st.params.domainHalf = sim::domainHalfForDensity(initial.count(), o.density);
        if (const std::string e = sim::validateParams(st.params); !e.empty()) throw sim::InputError(e);
    }
    st.mode = o.mode;
    st.cells = o.cells;
    st.subCells = o.subCells;
    st.seedInput = o.seed;
    st.presentMode = o.presentMode == "mailbox" ? 1 : o.presentMode == "immediate" ? 2 : 0;
    st.deviceName = ctx.properties.deviceName;
    st.cpuDevice = ctx.isCpu;
    sim::checkFlockFits(ctx, o.loadState.empty() ? o.boids : initial.count());
    if (o.loadState.empty())
        initial = sim::randomState(o.boids, o.seed, st.params.domainHalf, st.params.maxSpeed);
    sim::wrapPositions(initial, st.params.domainHalf);
    sim::Flock flock = sim::createFlock(ctx, initial.count());
    sim::uploadState(ctx, flock, initial);
    st.boids = flock.count;
    st.boidInput = int(std::min<uint32_t>(flock.count, 0x7fffffff));

    const VkFormat depthFormat = gpu::findDepthFormat(ctx);
    const VkSurfaceFormatKHR surfaceFormat = chooseSurfaceFormat(ctx);
    render::Renderer renderer =
        render::createRenderer(ctx, surfaceFormat.format, depthFormat, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
    // The panel draws in the pass the renderer leaves open; the keep pass is compatible with this one.
    const VkRenderPass renderPass = renderer.clearPass;
    Swapchain swapchain;
    {
        int w = 0, h = 0;
        glfwGetFramebufferSize(window, &w, &h);
        createSwapchain(ctx, swapchain, renderPass, depthFormat, uint32_t(std::max(w, 1)),
                        uint32_t(std::max(h, 1)), presentModeFromName(o.presentMode));
    }
    if (swapchain.presentMode != presentModeFromName(o.presentMode))
        std::fprintf(stderr, "vkboids: note: present mode %s is not offered here; using %s\n",
                     o.presentMode.c_str(), presentModeName(swapchain.presentMode));
    st.computeDrawAvailable = render::computePathAvailable(ctx) && swapchain.storage;
    if (o.drawPath == render::DrawPath::Compute && !st.computeDrawAvailable)
        throw sim::InputError(std::string("--draw compute: ") + ctx.properties.deviceName +
                              (swapchain.storage
                                   ? " lacks 64-bit atomics on storage buffers or format-free image stores"
                                   : "'s window images take no storage writes"));
    st.draw.path = st.computeDrawAvailable ? o.drawPath.value_or(render::defaultDrawPath(ctx))
                                           : render::DrawPath::Points;

    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = ctx.queueFamily;
    VK_CHECK(vkCreateCommandPool(ctx.device, &poolInfo, nullptr, &pool));
    FrameSlot slots[framesInFlight];
    for (FrameSlot& s : slots) {
        VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        alloc.commandPool = pool;
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = 1;
        VK_CHECK(vkAllocateCommandBuffers(ctx.device, &alloc, &s.cmd));
        VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        VK_CHECK(vkCreateFence(ctx.device, &fence, nullptr, &s.fence));
        VkSemaphoreCreateInfo sem{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VK_CHECK(vkCreateSemaphore(ctx.device, &sem, nullptr, &s.acquired));
        s.gridStats =
            gpu::createBuffer(ctx, sizeof(gpudata::GridStats), gpu::storageUsage, gpu::MemoryUse::Readback);
    }
    gpu::Profiler profiler = gpu::createProfiler(ctx, framesInFlight);

    // ImGui, with its Vulkan backend loading functions through volk.
    VkDescriptorPool imguiPool = VK_NULL_HANDLE;
    {
        VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16};
        VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
        info.maxSets = 16;
        info.poolSizeCount = 1;
        info.pPoolSizes = &size;
        VK_CHECK(vkCreateDescriptorPool(ctx.device, &info, nullptr, &imguiPool));
    }
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr; // no imgui.ini left in the user's directory
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForVulkan(window, true);
    ImGui_ImplVulkan_LoadFunctions(
        [](const char* name, void* instance) {
            return vkGetInstanceProcAddr(*static_cast<VkInstance*>(instance), name);
        },
        &ctx.instance);
    ImGui_ImplVulkan_InitInfo imguiInfo{};
    imguiInfo.Instance = ctx.instance;
    imguiInfo.PhysicalDevice = ctx.physicalDevice;
    imguiInfo.Device = ctx.device;
    imguiInfo.QueueFamily = ctx.queueFamily;
    imguiInfo.Queue = ctx.queue;
    imguiInfo.DescriptorPool = imguiPool;
    imguiInfo.MinImageCount = swapchain.minImageCount;
    imguiInfo.ImageCount = std::max<uint32_t>(uint32_t(swapchain.images.size()), framesInFlight);
    imguiInfo.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    ImGui_ImplVulkan_Init(&imguiInfo, renderPass);
    {
        VkCommandBuffer cmd = gpu::beginOneShot(ctx);
        ImGui_ImplVulkan_CreateFontsTexture(cmd);
        gpu::endOneShot(ctx, cmd);
        ImGui_ImplVulkan_DestroyFontUploadObjects();
    }

    OrbitCamera camera = defaultCamera(st.params.domainHalf);
    std::optional<Capture> capture;
    auto startCapture = [&](const std::string& path, uint64_t warmup, uint64_t frames) {
        capture = Capture{};
        capture->csvPath = path;
        capture->warmupLeft = warmup;
        capture->framesLeft = frames;
    };
    if (!o.capture.empty()) startCapture(o.capture, o.warmup, o.frames);
    const uint64_t totalFrames = o.frames ? o.frames + (o.capture.empty() ? 0 : o.warmup) : 0;
    Screenshot shot;
    bool swapchainDirty = false, showPanel = true, keyDown[GLFW_KEY_LAST + 1] = {};
    double lastX = 0, lastY = 0;
    uint64_t frameNumber = 0, rendered = 0;
    int minimizedWaits = 0;
    uint32_t recreations = 0, minimizations = 0;
    bool wasMinimized = false;
    Clock::time_point previousStart = Clock::now();
    int previousSlot = -1;

    auto harvest = [&](FrameSlot& s) {
        if (!s.used) return;
        const std::vector<gpu::ScopeTime> times = gpu::readProfilerFrame(ctx, profiler, uint32_t(&s - slots));
        addFrameTimes(st.timings, times, s.row.cpuFrameMs);
        if (s.hasStats) {
            st.gridStats = *static_cast<const gpudata::GridStats*>(s.gridStats.mapped);
            st.haveGridStats = true;
        }
        if (s.captured && capture) {
            addScopeTimes(s.row, times);
            capture->rows.push_back(s.row);
        }
        s.used = s.hasStats = s.captured = false;
    };
    auto finishCaptureIfDone = [&]() {
        if (!capture || capture->framesLeft > 0) return;
        // Rows still waiting on frames in flight arrive through harvest() first.
        for (const FrameSlot& s : slots)
            if (s.captured) return;
        try {
            writeCapture(ctx, *capture);
            st.status = "wrote " + capture->csvPath + " and " + jsonPathFor(capture->csvPath);
        } catch (const sim::InputError& e) {
            st.status = e.what();
            if (!o.capture.empty()) throw;
        }
        std::fprintf(stderr, "vkboids: %s\n", st.status.c_str());
        capture.reset();
    };

    while (!glfwWindowShouldClose(window)) {
        glfwPollEvents();
        if (o.exerciseWindow && totalFrames) {
            // Testing: a resize a third of the way through, a minimize and restore at two thirds.
            if (rendered == totalFrames / 3 && frameNumber == rendered)
                glfwSetWindowSize(window, o.width * 3 / 4, o.height * 2 / 3);
            if (rendered == 2 * totalFrames / 3 && minimizedWaits == 0) {
                glfwIconifyWindow(window);
                // The window manager takes a moment; without one nothing happens.
                for (int i = 0; i < 120 && !glfwGetWindowAttrib(window, GLFW_ICONIFIED); ++i)
                    glfwWaitEventsTimeout(0.025);
                minimizedWaits = 1;
            }
        }
        int fbWidth = 0, fbHeight = 0;
        glfwGetFramebufferSize(window, &fbWidth, &fbHeight);
        if (fbWidth == 0 || fbHeight == 0 || glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {
            // Minimized: nothing to present to, so no frames (and no simulation) until restored.
            if (!wasMinimized) minimizations++;
            wasMinimized = true;
            glfwWaitEventsTimeout(0.05);
            if (minimizedWaits > 0 && ++minimizedWaits == 10) glfwRestoreWindow(window);
            previousStart = Clock::now();
            continue;
        }
        wasMinimized = false;
        if (minimizedWaits > 0) minimizedWaits = -1; // restored (or never minimized): exercise done
        if (swapchainDirty || uint32_t(fbWidth) != swapchain.extent.width ||
            uint32_t(fbHeight) != swapchain.extent.height) {
            createSwapchain(ctx, swapchain, renderPass, depthFormat, uint32_t(fbWidth), uint32_t(fbHeight),
                            presentModeFromName(presentModeNames[st.presentMode]));
            ImGui_ImplVulkan_SetMinImageCount(swapchain.minImageCount);
            swapchainDirty = false;
            recreations++;
        }
        st.presentModeActual = presentModeName(swapchain.presentMode);

        const uint32_t f = uint32_t(frameNumber % framesInFlight);
        FrameSlot& slot = slots[f];
        VK_CHECK(vkWaitForFences(ctx.device, 1, &slot.fence, VK_TRUE, UINT64_MAX));
        harvest(slot);
        finishCaptureIfDone();

        uint32_t image = 0;
        VkResult acquired = vkAcquireNextImageKHR(ctx.device, swapchain.swapchain, UINT64_MAX, slot.acquired,
                                                  VK_NULL_HANDLE, &image);
        if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
            swapchainDirty = true;
            continue;
        }
        if (acquired != VK_SUBOPTIMAL_KHR) VK_CHECK(acquired);

        // CPU frame time: from the previous frame's start to this one's.
        const Clock::time_point start = Clock::now();
        if (previousSlot >= 0)
            slots[previousSlot].row.cpuFrameMs =
                std::chrono::duration<double, std::milli>(start - previousStart).count();
        previousStart = start;

        // Input and panel.
        ImGui_ImplVulkan_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        const ImGuiIO& io = ImGui::GetIO();
        double x = 0, y = 0;
        glfwGetCursorPos(window, &x, &y);
        if (!io.WantCaptureMouse && glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS)
            orbit(camera, float(x - lastX), float(y - lastY));
        lastX = x;
        lastY = y;
        if (!io.WantCaptureMouse && input.scroll != 0)
            zoom(camera, float(input.scroll), st.params.domainHalf);
        input.scroll = 0;
        auto pressed = [&](int key) {
            const bool down = glfwGetKey(window, key) == GLFW_PRESS;
            const bool edge = down && !keyDown[key];
            keyDown[key] = down;
            return edge && !io.WantCaptureKeyboard;
        };
        if (pressed(GLFW_KEY_ESCAPE)) glfwSetWindowShouldClose(window, GLFW_TRUE);
        if (pressed(GLFW_KEY_SPACE)) st.paused = !st.paused;
        if (pressed(GLFW_KEY_N)) st.stepOnce = true;
        if (pressed(GLFW_KEY_R)) st.resetCamera = true;
        if (pressed(GLFW_KEY_H)) showPanel = !showPanel;
        if (pressed(GLFW_KEY_M)) st.mode = sim::Mode((int(st.mode) + 1) % 3);
        st.grid = sim::makeGrid(st.params, st.cells, flock.count, st.subCells, st.mode);
        st.boids = flock.count;
        if (capture)
            st.captureRemaining = int(capture->warmupLeft + capture->framesLeft);
        else
            st.captureRemaining = 0;
        if (showPanel) drawPanel(st);
        ImGui::Render();

        // Requests from the panel that change buffers: the GPU must be idle first.
        const std::string paramError = sim::validateParams(st.params);
        if (!paramError.empty()) st.status = paramError;
        if (st.reinitialize || st.domainChanged) {
            VK_CHECK(vkDeviceWaitIdle(ctx.device));
            for (FrameSlot& s : slots) harvest(s);
            try {
                sim::State state;
                if (st.reinitialize) {
                    sim::checkFlockFits(ctx, uint32_t(st.boidInput));
                    if (st.keepDensity && uint32_t(st.boidInput) != flock.count) {
                        sim::Params scaled = st.params;
                        scaled.domainHalf *= float(std::cbrt(double(st.boidInput) / flock.count));
                        if (const std::string e = sim::validateParams(scaled); !e.empty())
                            throw sim::InputError(e);
                        st.params = scaled;
                        camera.distance = defaultCamera(st.params.domainHalf).distance;
                    }
                    state = sim::randomState(uint32_t(st.boidInput), st.seedInput, st.params.domainHalf,
                                             st.params.maxSpeed);
                    if (state.count() != flock.count) {
                        sim::destroyFlock(ctx, flock);
                        flock = sim::createFlock(ctx, state.count());
                    }
                } else {
                    state = sim::downloadState(ctx, flock);
                    sim::wrapPositions(state, st.params.domainHalf);
                    camera.distance = defaultCamera(st.params.domainHalf).distance;
                }
                sim::uploadState(ctx, flock, state);
                st.status.clear();
            } catch (const sim::InputError& e) {
                st.status = e.what();
                if (!flock.count) { // the old flock was released: bring one back
                    flock = sim::createFlock(ctx, initial.count());
                    sim::uploadState(ctx, flock, initial);
                }
            }
            st.reinitialize = st.domainChanged = false;
        }
        if (st.presentModeChanged) {
            swapchainDirty = true;
            st.presentModeChanged = false;
        }
        if (st.resetCamera) {
            camera = defaultCamera(st.params.domainHalf);
            st.resetCamera = false;
        }
        if (st.captureRequested && !capture) {
            try {
                checkCaptureWritable(st.capturePath);
                startCapture(st.capturePath, 0, uint64_t(st.captureFrames));
                st.status = "capturing " + std::to_string(st.captureFrames) + " frames";
            } catch (const sim::InputError& e) {
                st.status = e.what();
            }
        }
        st.captureRequested = false;
        const bool simulate = paramError.empty() && (!st.paused || st.stepOnce);
        st.stepOnce = false;
        // The panel or a reinitialization may have changed the mode, the order or the flock since
        // the grid the panel showed was made.
        st.grid = sim::makeGrid(st.params, st.cells, flock.count, st.subCells, st.mode);
        if (simulate && st.mode != sim::Mode::Naive) sim::prepareGrid(ctx, flock, st.grid);

        // Record the frame.
        VK_CHECK(vkResetFences(ctx.device, 1, &slot.fence));
        VkCommandBuffer cmd = slot.cmd;
        VK_CHECK(vkResetCommandBuffer(cmd, 0));
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
        gpu::beginProfilerFrame(profiler, cmd, f);
        const bool lastFrame = totalFrames && rendered + 1 == totalFrames;
        render::DrawPath drawn = render::DrawPath::Points;
        {
            gpu::Scope frameScope(&profiler, cmd, "frame");
            // The previous frames' draws read the state buffers that this step may overwrite.
            gpu::memoryBarrier(cmd,
                               VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                               0, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, 0);
            if (simulate) {
                sim::recordStep(cmd, flock, st.params, st.mode, st.grid, &profiler);
                if (st.mode != sim::Mode::Naive && frameNumber % 30 == 0) {
                    sim::recordGridStats(cmd, flock, sim::stepConstants(st.params, st.grid, flock.count),
                                         slot.gridStats, &profiler);
                    slot.hasStats = true;
                }
            }
            const render::DrawSettings view =
                drawSettings(camera, swapchain.extent.width, swapchain.extent.height, st.params, st.draw);
            const gpu::Buffer &pos = flock.pos[flock.current], &vel = flock.vel[flock.current];
            const render::FrameTarget frame{swapchain.images[image], swapchain.framebuffers[image],
                                            swapchain.views[image],  swapchain.extent.width,
                                            swapchain.extent.height, swapchain.storage};
            {
                gpu::Scope scope(&profiler, cmd, "draw");
                render::beginDraw(cmd, ctx, renderer, frame, pos, vel, flock.count, view);
            }
            drawn = render::drawsCompute(renderer, frame, view) ? render::DrawPath::Compute
                                                                : render::DrawPath::Points;
            {
                gpu::Scope scope(&profiler, cmd, "ui");
                ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd);
            }
            vkCmdEndRenderPass(cmd);
            if (lastFrame && !o.screenshot.empty() && swapchain.canCopy &&
                fourBytesPerPixel(swapchain.format.format))
                recordScreenshot(cmd, ctx, swapchain, image, shot);
        }
        VK_CHECK(vkEndCommandBuffer(cmd));

        VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        wait.semaphore = slot.acquired;
        wait.stageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
        VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        signal.semaphore = swapchain.renderDone[image];
        signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
        cmdInfo.commandBuffer = cmd;
        VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
        submit.waitSemaphoreInfoCount = 1;
        submit.pWaitSemaphoreInfos = &wait;
        submit.commandBufferInfoCount = 1;
        submit.pCommandBufferInfos = &cmdInfo;
        submit.signalSemaphoreInfoCount = 1;
        submit.pSignalSemaphoreInfos = &signal;
        VK_CHECK(vkQueueSubmit2(ctx.queue, 1, &submit, slot.fence));

        VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
        present.waitSemaphoreCount = 1;
        present.pWaitSemaphores = &swapchain.renderDone[image];
        present.swapchainCount = 1;
        present.pSwapchains = &swapchain.swapchain;
        present.pImageIndices = &image;
        const VkResult presented = vkQueuePresentKHR(ctx.queue, &present);
        if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR)
            swapchainDirty = true;
        else
            VK_CHECK(presented);

        // The frame's row: CPU fields now, GPU times when its fence has signalled.
        slot.used = true;
        slot.row = FrameRow{};
        slot.row.mode = sim::modeName(st.mode);
        slot.row.boids = flock.count;
        slot.row.cells = st.mode == sim::Mode::Naive ? 0 : st.cells;
        slot.row.presentMode = presentModeName(swapchain.presentMode);
        slot.row.draw = render::drawPathName(drawn);
        if (capture && capture->warmupLeft > 0) {
            capture->warmupLeft--;
        } else if (capture && capture->framesLeft > 0) {
            if (!capture->firstFrame) {
                capture->firstFrame = start;
                capture->info = RunInfo{sim::modeName(st.mode),
                                        flock.count,
                                        st.mode == sim::Mode::Naive ? 0 : st.cells,
                                        st.grid.dim,
                                        slot.row.presentMode,
                                        true,
                                        slot.row.draw,
                                        st.seedInput,
                                        o.warmup,
                                        st.params};
            }
            slot.row.frame = capture->measured++;
            slot.row.tMs = std::chrono::duration<double, std::milli>(start - *capture->firstFrame).count();
            slot.captured = true;
            capture->framesLeft--;
        }
        previousSlot = int(f);
        frameNumber++;
        rendered++;
        if (totalFrames && rendered >= totalFrames) break;
    }

    VK_CHECK(vkDeviceWaitIdle(ctx.device));
    if (previousSlot >= 0)
        slots[previousSlot].row.cpuFrameMs =
            std::chrono::duration<double, std::milli>(Clock::now() - previousStart).count();
    // Oldest first, so that captured rows stay in frame order.
    for (uint32_t i = 0; i < framesInFlight; ++i) harvest(slots[(frameNumber + i) % framesInFlight]);
    finishCaptureIfDone();
    if (capture)
        std::fprintf(stderr,
                     "vkboids: note: the window closed before the capture finished; nothing written\n");
    if (shot.recorded) {
        writeScreenshot(o.screenshot, shot);
        std::fprintf(stderr, "vkboids: wrote %s\n", o.screenshot.c_str());
        gpu::destroyBuffer(ctx, shot.pixels);
    } else if (!o.screenshot.empty()) {
        std::fprintf(stderr,
                     "vkboids: note: no screenshot: the swapchain images cannot be copied to RGBA here\n");
    }
    std::printf("%llu frames rendered, swapchain recreated %u times, minimized %u times\n",
                (unsigned long long)rendered, recreations, minimizations);

    ImGui_ImplVulkan_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    vkDestroyDescriptorPool(ctx.device, imguiPool, nullptr);
    gpu::destroyProfiler(ctx, profiler);
    for (FrameSlot& s : slots) {
        vkDestroyFence(ctx.device, s.fence, nullptr);
        vkDestroySemaphore(ctx.device, s.acquired, nullptr);
        gpu::destroyBuffer(ctx, s.gridStats);
    }
    vkDestroyCommandPool(ctx.device, pool, nullptr);
    destroySwapchain(ctx, swapchain);
    render::destroyRenderer(ctx, renderer);
    sim::destroyFlock(ctx, flock);
    gpu::destroyContext(ctx);
    glfwDestroyWindow(window);
    glfwTerminate();
    return finish(exitOk);
}

} // namespace app
