// The interactive demo: window, swapchain, ImGui panel, orbit camera and the frame loop.
//
// runDemo is the whole life of the demo in named steps over one Demo: create, then per frame input,
// panel, record, submit and present, with each slot's results harvested when its fence signals; then
// destroy in reverse.

#include "app/demo/demo.h"

#include "app/demo/demo_state.h"
#include "app/exit_codes.h"
#include "io/platform.h"

#include <atomic>

namespace app {
namespace {

// Counts Ctrl-C presses and other requests to end. The first lets the run finish what it has started
// (see stopAtInterrupt) and still report validation errors; a second ends the loop at once.
std::atomic<int> stopRequests{0};

void requestStop() {
    stopRequests++;
}

// After the first interrupt, the capture keeps the frames it has, and a screenshot asked for gets one
// more frame, drawn without a step (a naive step may take seconds). Returns whether the loop ends now.
bool stopAtInterrupt(Demo& d) {
    if (stopRequests == 0) return false;
    if (d.interrupted) return stopRequests > 1;
    d.interrupted = true;
    if (d.capture && d.capture->measured > 0) d.capture->framesLeft = 0;
    if (d.options.screenshot.empty() || d.frameNumber >= d.totalFrames) return true;
    d.totalFrames = d.frameNumber + 1;
    return false;
}

// A minimized window has nothing to present to, so neither frames nor steps run until it is
// restored. Returns whether the window is minimized, after waiting a little for events.
bool waitIfMinimized(Demo& d, int width, int height) {
    if (width == 0 || height == 0 || glfwGetWindowAttrib(d.window, GLFW_ICONIFIED)) {
        if (!d.wasMinimized) d.minimizations++;
        d.wasMinimized = true;
        glfwWaitEventsTimeout(0.05);
        d.previousStart = Clock::now();
        return true;
    }
    d.wasMinimized = false;
    return false;
}

void updateSwapchain(Demo& d, int width, int height) {
    if (d.swapchainDirty || uint32_t(width) != d.swapchain.extent.width ||
        uint32_t(height) != d.swapchain.extent.height) {
        gpu::createSwapchain(d.ctx, d.swapchain, d.depthFormat, uint32_t(width), uint32_t(height),
                             gpu::vulkanPresentMode(gpu::PresentMode(d.panel.presentMode)));
        render::sizeTarget(d.ctx, d.renderer, d.swapchain.extent.width, d.swapchain.extent.height);
        d.swapchainDirty = false;
        d.recreations++;
    }
    d.panel.presentModeActual = gpu::presentModeName(d.swapchain.presentMode);
}

// Once an F12 screenshot's frame has finished, its pixels leave the buffer at once, and the PNG is
// encoded and written on another thread, under a name not yet taken in the working directory.
void startKeyShotWrite(Demo& d, Screenshot& shot) {
    const std::time_t now = std::time(nullptr);
    const std::tm local = io::os::localTime(now);
    const std::filesystem::path dir = std::filesystem::current_path();
    const std::string path =
        (dir / timestampedScreenshotName(local, [&](const std::string& name) {
             const std::string p = (dir / name).string();
             return std::filesystem::exists(p) ||
                    std::find(d.shotPaths.begin(), d.shotPaths.end(), p) != d.shotPaths.end();
         })).string();
    d.shotPaths.push_back(path);
    std::vector<uint8_t> rgba = screenshotRgba(shot);
    const uint32_t width = shot.width, height = shot.height;
    destroyScreenshot(d.ctx, shot);
    shot = Screenshot{};
    d.pngWrites.push_back(std::async(std::launch::async, [path, rgba = std::move(rgba), width, height] {
        try {
            writePng(path, rgba, width, height);
            return "screenshot written to " + path;
        } catch (const io::InputError& e) {
            return std::string(e.what());
        }
    }));
}

// Reports each finished PNG write in the status line. At the end of the run (`wait`) it waits for
// the writes still running.
void collectPngWrites(Demo& d, bool wait) {
    for (auto it = d.pngWrites.begin(); it != d.pngWrites.end();) {
        if (!wait && it->wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
            ++it;
            continue;
        }
        d.panel.status = it->get();
        std::fprintf(stderr, "vkboids: %s\n", d.panel.status.c_str());
        it = d.pngWrites.erase(it);
    }
}

// Reads a finished frame's GPU times (for the panel and the capture row) and its grid statistics.
void harvest(Demo& d, FrameSlot& s) {
    if (!s.used) return;
    const std::vector<gpu::ScopeTime> times =
        gpu::readProfilerFrame(d.ctx, d.profiler, uint32_t(&s - d.slots));
    addFrameTimes(d.panel.timings, times, s.row.cpuFrameMs);
    if (s.hasStats) {
        d.panel.gridStats = *static_cast<const gpudata::GridStats*>(s.gridStats.mapped);
        d.panel.haveGridStats = true;
    }
    if (s.row.config.mode == sim::Mode::Naive) {
        std::optional<double> ms; // none where the step was not timed
        for (const gpu::ScopeTime& t : times)
            if (t.valid && t.name == "flock") ms = ms.value_or(0) + t.ms;
        if (ms) d.naiveMeasured = NaiveTiming{s.row.boids, *ms / 1000};
    }
    if (s.keyShot.recorded) startKeyShotWrite(d, s.keyShot);
    if (s.captured && d.capture) {
        addScopeTimes(s.row, times);
        d.capture->rows.push_back(s.row);
    }
    s.used = s.hasStats = s.captured = false;
}

// Writes the capture's files once its last measured frame has been harvested. A capture asked for on
// the command line that cannot be written fails the run; one started in the panel says why there.
void finishCaptureIfDone(Demo& d) {
    if (!d.capture || d.capture->framesLeft > 0) return;
    for (const FrameSlot& s : d.slots)
        if (s.captured) return;
    try {
        d.panel.status = writeCaptureFiles(d.ctx, d.profiler.probe, *d.capture);
    } catch (const io::InputError& e) {
        d.panel.status = e.what();
        if (!d.options.capture.empty()) throw;
    }
    std::fprintf(stderr, "vkboids: %s\n", d.panel.status.c_str());
    d.capture.reset();
}

// Waits until the slot's previous frame has finished, so that its command buffer may be reused and
// its results read.
void waitForSlot(Demo& d, FrameSlot& slot) {
    VK_CHECK(vkWaitForFences(d.ctx.device, 1, &slot.fence, VK_TRUE, UINT64_MAX));
    harvest(d, slot);
    finishCaptureIfDone(d);
    collectPngWrites(d, false);
}

// Acquires the swapchain image to draw into; it is ready when slot.acquired signals. Returns false when
// the swapchain is out of date, in which case it is recreated before the next try.
bool acquireImage(Demo& d, FrameSlot& slot, uint32_t& image) {
    const VkResult acquired = vkAcquireNextImageKHR(d.ctx.device, d.swapchain.swapchain, UINT64_MAX,
                                                    slot.acquired, VK_NULL_HANDLE, &image);
    if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
        d.swapchainDirty = true;
        return false;
    }
    if (acquired != VK_SUBOPTIMAL_KHR) VK_CHECK(acquired);
    return true;
}

void endCpuFrame(Demo& d, Clock::time_point now) {
    if (d.previousSlot >= 0)
        d.slots[d.previousSlot].row.cpuFrameMs =
            std::chrono::duration<double, std::milli>(now - d.previousStart).count();
    d.previousStart = now;
}

// When a preset just chosen (or given by --preset) runs slowly on this device, says so once, on stderr
// and in the panel. The time quoted is that of its second stepped frame, because the first also built
// the flock and its pipelines.
void notePresetSpeed(Demo& d) {
    PanelState& st = d.panel;
    if (st.presetWatched.empty() || d.previousSlot < 0 || st.paused) return;
    if (++st.presetFrames < 2) return;
    const double seconds = d.slots[d.previousSlot].row.cpuFrameMs / 1000;
    if (seconds > slowPresetFrameSeconds) {
        st.status = slowPresetNote(st.presetWatched, seconds);
        std::fprintf(stderr, "vkboids: note: %s\n", st.status.c_str());
    }
    st.presetWatched.clear();
    st.presetFrames = 0;
}

// A key that went down since the last frame, unless the panel has the keyboard.
bool pressed(Demo& d, int key) {
    const bool edge = d.keyPressed[key];
    d.keyPressed[key] = false;
    return edge && !ImGui::GetIO().WantCaptureKeyboard;
}

// Mouse input away from the panel orbits (left drag), places the predator (right button) and zooms
// (scroll). Keys toggle settings directly, or return what they request for the frame loop to apply.
PanelRequest handleInput(Demo& d) {
    const ImGuiIO& io = ImGui::GetIO();
    const double x = d.cursorX, y = d.cursorY;
    if (!io.WantCaptureMouse && d.buttonDown[GLFW_MOUSE_BUTTON_LEFT])
        orbit(d.camera, float(x - d.lastX), float(y - d.lastY));
    updatePlay(d);
    d.lastX = x;
    d.lastY = y;
    if (!io.WantCaptureMouse && d.scroll != 0) zoom(d.camera, float(d.scroll), d.panel.sim.params.domainHalf);
    d.scroll = 0;
    PanelState& st = d.panel;
    if (pressed(d, GLFW_KEY_ESCAPE)) {
        if (d.showHelp)
            d.showHelp = false;
        else
            glfwSetWindowShouldClose(d.window, GLFW_TRUE);
    }
    // '?' is read from the typed characters, because its key differs between keyboard layouts.
    bool question = false;
    if (!io.WantTextInput)
        for (ImWchar c : io.InputQueueCharacters) question = question || c == '?';
    if (pressed(d, GLFW_KEY_F1) || question) d.showHelp = !d.showHelp;
    if (pressed(d, GLFW_KEY_F12)) d.shotRequested = true;
    if (pressed(d, GLFW_KEY_SPACE)) st.paused = !st.paused;
    PanelRequest asked;
    asked.stepOnce = pressed(d, GLFW_KEY_N);
    asked.resetCamera = pressed(d, GLFW_KEY_R);
    asked.reloadShaders = pressed(d, GLFW_KEY_F5);
    if (pressed(d, GLFW_KEY_H)) d.showPanel = !d.showPanel;
    if (pressed(d, GLFW_KEY_M)) pressModeKey(st);
    if (pressed(d, GLFW_KEY_P)) st.predatorPinned = !st.predatorPinned;
    return asked;
}

// Draws the panel and ends ImGui's frame. A frame that will be screenshotted is laid out again until
// the panels have settled (settleLayout); only the first pass took the input, so its requests are the
// ones returned.
PanelRequest buildPanel(Demo& d) {
    d.panel.boids = d.flock.count;
    d.panel.captureRemaining = d.capture ? int(d.capture->warmupLeft + d.capture->framesLeft) : 0;
    const PanelRequest asked = drawWindows(d);
    const bool lastFrame = d.totalFrames && d.frameNumber + 1 == d.totalFrames;
    if (d.shotRequested || (lastFrame && !d.options.screenshot.empty()))
        settleLayout([&d] { drawWindows(d); });
    ImGui::Render();
    return asked;
}

// Where a naive step would freeze the window, switching to naive asks first (askBeforeNaive), quoting
// the step's time measured on this device, and the panel is opened so that the question is seen.
void confirmNaive(Demo& d, sim::Mode before, bool confirmed) {
    d.panel.boids = d.flock.count;
    if (askBeforeNaive(d.panel, before, confirmed, [&d] { return naiveStepSeconds(d); })) d.showPanel = true;
}

// Makes a fresh random flock (for a new count or seed) or wraps the present flock into a new domain.
// The caller has made the GPU idle. On bad input the status line says why and a flock remains: the
// old one, or the start state where the old one was already released.
void rebuildFlock(Demo& d, bool fresh) {
    PanelState& st = d.panel;
    try {
        sim::State state;
        if (fresh) {
            sim::checkFlockFits(d.ctx, uint32_t(st.boidInput));
            if (st.sim.density > 0 && uint32_t(st.boidInput) != d.flock.count) {
                st.sim = sim::configFor(st.sim, uint32_t(st.boidInput));
                d.camera.distance = defaultCamera(st.sim.params.domainHalf).distance;
            }
            state = sim::randomState(uint32_t(st.boidInput), st.seedInput, st.sim.params.domainHalf,
                                     st.sim.params.maxSpeed);
            if (state.count() != d.flock.count) {
                sim::destroyFlock(d.ctx, d.flock);
                d.flock = sim::createFlock(d.ctx, state.count());
            }
        } else {
            // When the user sets L, the density that later count changes keep becomes this one.
            if (st.sim.density > 0) st.sim.density = sim::densityOf(d.flock.count, st.sim.params.domainHalf);
            state = sim::downloadState(d.ctx, d.flock);
            sim::wrapPositions(state, st.sim.params.domainHalf);
            d.camera.distance = defaultCamera(st.sim.params.domainHalf).distance;
        }
        sim::uploadState(d.ctx, d.flock, state);
        st.status.clear();
    } catch (const io::InputError& e) {
        st.status = panelErrorText(e);
        if (!d.flock.count) {
            d.flock = sim::createFlock(d.ctx, d.initial.count());
            sim::uploadState(d.ctx, d.flock, d.initial);
        }
    }
    st.boids = d.flock.count; // read by requests before the panel is next drawn, such as the script's
}

// Applies what was asked for this frame, whether in the panel, by a key or by the harness's script.
// Returns whether the flock steps.
bool applyRequest(Demo& d, const PanelRequest& asked) {
    PanelState& st = d.panel;
    const std::optional<sim::ParamProblem> paramProblem = sim::validateParams(st.sim.params);
    if (paramProblem) st.status = sim::describeProblem(*paramProblem, sliderNames);
    if (asked.flock != PanelRequest::Flock::Keep) {
        // The flock's buffers are about to be replaced, and frames in flight may still read them.
        VK_CHECK(vkDeviceWaitIdle(d.ctx.device));
        for (FrameSlot& s : d.slots) harvest(d, s);
        rebuildFlock(d, asked.flock == PanelRequest::Flock::Fresh);
    }
    if (asked.presentMode) d.swapchainDirty = true;
    if (asked.resetCamera) d.camera = defaultCamera(st.sim.params.domainHalf);
    if (asked.capture && !d.capture) {
        try {
            checkCaptureFiles(st.capturePath);
            d.capture = Capture{.csvPath = st.capturePath, .framesLeft = uint64_t(st.captureFrames)};
            st.status = "capturing " + std::to_string(st.captureFrames) + " frames";
        } catch (const io::InputError& e) {
            st.status = e.what();
        }
    }
    if (asked.count && !paramProblem) {
        // The count runs between frames, outside the timings, and blocks until the GPU is done. A naive
        // step tests every boid, so its neighbours are counted on the grid it would have.
        const sim::Grid grid = currentGrid(d);
        sim::SearchCounts counts = sim::countSearch(d.ctx, d.flock, st.sim.params, grid);
        if (st.sim.mode == sim::Mode::Naive) { // naive's tiles keep every lane busy, so lanes are not counted
            counts.candidates = d.flock.count;
            counts.laneEfficiency = counts.ruleLanes = 0;
        }
        st.counted = counts;
    }
    return !paramProblem && (!st.paused || asked.stepOnce);
}

// Records the frame's commands: the simulation step (with the grid's statistics every 30 frames), the
// draw, the panel and any screenshot asked for. Returns the drawing path that drew the boids.
render::DrawPath recordFrame(Demo& d, FrameSlot& slot, uint32_t image, bool simulate) {
    const PanelState& st = d.panel;
    if (simulate) sim::prepareGrid(d.ctx, d.flock, st.grid, st.sim.mode, st.sim.gridBuild);
    VK_CHECK(vkResetFences(d.ctx.device, 1, &slot.fence));
    VkCommandBuffer cmd = slot.cmd;
    VK_CHECK(vkResetCommandBuffer(cmd, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
    gpu::beginProfilerFrame(d.profiler, cmd, uint32_t(&slot - d.slots));
    render::DrawPath drawn = render::DrawPath::Points;
    {
        gpu::Scope frameScope(&d.profiler, cmd, "frame");
        // The previous frames' draws read the state buffers that this step may overwrite.
        gpu::memoryBarrier(cmd,
                           VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, 0,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, 0);
        if (simulate) {
            sim::recordStep(cmd, d.flock, st.sim.params, st.sim.mode, st.grid, st.sim.gridBuild, &d.profiler);
            if (st.sim.mode != sim::Mode::Naive && d.frameNumber % 30 == 0) {
                sim::recordGridStats(cmd, d.flock, sim::stepConstants(st.sim.params, st.grid, d.flock.count),
                                     slot.gridStats, &d.profiler);
                slot.hasStats = true;
            }
        }
        const gpu::Swapchain& sc = d.swapchain;
        render::DrawSettings view =
            drawSettings(d.camera, sc.extent.width, sc.extent.height, st.sim.params, st.draw);
        showGrid(view, sim::stepConstants(st.sim.params, st.grid, d.flock.count));
        const gpu::Buffer &pos = d.flock.pos[d.flock.current], &vel = d.flock.vel[d.flock.current];
        const render::FrameTarget frame{sc.images[image], sc.views[image],  sc.depth.image, sc.depth.view,
                                        sc.extent.width,  sc.extent.height, sc.storage};
        {
            gpu::Scope scope(&d.profiler, cmd, "draw");
            render::recordDraw(cmd, d.ctx, d.renderer, frame, pos, vel, d.flock.count, view);
        }
        drawn = render::drawnPath(d.ctx, d.renderer, frame, view, d.flock.count);
        {
            gpu::Scope scope(&d.profiler, cmd, "ui");
            render::beginOverlay(cmd, d.renderer, frame);
            render::recordImGui(cmd, d.ctx, d.imgui, ImGui::GetDrawData(), d.swapchain.extent,
                                uint32_t(&slot - d.slots));
            render::endOverlay(cmd, d.renderer, frame);
        }
        const bool lastFrame = d.totalFrames && d.frameNumber + 1 == d.totalFrames;
        if (lastFrame && !d.options.screenshot.empty() && canScreenshot(sc))
            recordScreenshot(cmd, d.ctx, sc, image, d.shot);
        if (d.shotRequested) {
            if (canScreenshot(sc))
                recordScreenshot(cmd, d.ctx, sc, image, slot.keyShot);
            else
                d.panel.status = "no screenshot: the window's images cannot be copied to RGBA here";
            d.shotRequested = false;
        }
    }
    VK_CHECK(vkEndCommandBuffer(cmd));
    return drawn;
}

// The submission waits until the swapchain image is acquired; presentation waits on the image's own
// semaphore, which the submission signals.
void submitAndPresent(Demo& d, FrameSlot& slot, uint32_t image) {
    VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait.semaphore = slot.acquired;
    wait.stageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signal.semaphore = d.swapchain.renderDone[image];
    signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmdInfo.commandBuffer = slot.cmd;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.waitSemaphoreInfoCount = 1;
    submit.pWaitSemaphoreInfos = &wait;
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &cmdInfo;
    submit.signalSemaphoreInfoCount = 1;
    submit.pSignalSemaphoreInfos = &signal;
    VK_CHECK(vkQueueSubmit2(d.ctx.queue, 1, &submit, slot.fence));

    VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    present.waitSemaphoreCount = 1;
    present.pWaitSemaphores = &d.swapchain.renderDone[image];
    present.swapchainCount = 1;
    present.pSwapchains = &d.swapchain.swapchain;
    present.pImageIndices = &image;
    const VkResult presented = vkQueuePresentKHR(d.ctx.queue, &present);
    if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR)
        d.swapchainDirty = true;
    else
        VK_CHECK(presented);
}

// Fills the frame's row: CPU fields now, GPU times when harvested, and after a capture's warm-up its
// number and time. The first measured frame's configuration becomes the capture's.
void endFrame(Demo& d, FrameSlot& slot, Clock::time_point start, render::DrawPath drawn) {
    const PanelState& st = d.panel;
    slot.used = true;
    slot.row = FrameRow{.config = st.sim,
                        .boids = d.flock.count,
                        .presentMode = gpu::presentModeName(d.swapchain.presentMode),
                        .draw = render::drawPathName(drawn),
                        .shadersHash = gpu::shaderOrigin(d.ctx).hash};
    if (d.capture && measureFrame(*d.capture, start, slot.row)) {
        slot.captured = true;
        if (slot.row.frame == 0)
            d.capture->info = RunInfo{.config = st.sim,
                                      .boids = d.flock.count,
                                      .presentMode = slot.row.presentMode,
                                      .draw = slot.row.draw,
                                      .color = render::colorModeName(st.draw.colorMode),
                                      .seed = st.seedInput,
                                      .warmupFrames = d.options.warmup};
    }
    d.previousSlot = int(&slot - d.slots);
    d.frameNumber++;
}

// After the last frame, harvests the frames in flight and writes the capture and the screenshot.
// Returns false when the window closed before an output the command line asked for was written.
bool finishRun(Demo& d, const DemoHarness& harness) {
    VK_CHECK(vkDeviceWaitIdle(d.ctx.device));
    endCpuFrame(d, Clock::now());
    // Oldest first, so that captured rows stay in frame order.
    for (uint32_t i = 0; i < framesInFlight; ++i) harvest(d, d.slots[(d.frameNumber + i) % framesInFlight]);
    finishCaptureIfDone(d);
    collectPngWrites(d, true);
    const std::string ended = d.interrupted ? "interrupted after " + countOf(d.frameNumber, "frame")
                                            : "the window closed after " + std::to_string(d.frameNumber) +
                                                  " of " + std::to_string(d.totalFrames) + " frames";
    std::string missing; // an output the command line asked for that the run did not write
    if (d.capture && !d.options.capture.empty()) {
        missing = "no capture";
    } else if (d.capture) { // a capture started in the panel
        std::fprintf(stderr, "vkboids: note: the run ended before the capture finished; nothing written\n");
    }
    const std::string& screenshot = d.options.screenshot;
    if (d.shot.recorded) {
        writeScreenshot(screenshot, d.shot);
        std::fprintf(stderr, "vkboids: wrote %s\n", screenshot.c_str());
        destroyScreenshot(d.ctx, d.shot);
    } else if (!screenshot.empty() && d.frameNumber < d.totalFrames) {
        missing += missing.empty() ? "no screenshot" : " and no screenshot";
    } else if (!screenshot.empty()) {
        std::fprintf(stderr,
                     "vkboids: note: no screenshot: the swapchain images cannot be copied to RGBA here\n");
    }
    const bool complete = missing.empty();
    if (!complete) std::fprintf(stderr, "vkboids: error: %s: %s written\n", ended.c_str(), missing.c_str());
    if (complete && d.interrupted && !d.options.capture.empty())
        std::fprintf(stderr, "vkboids: note: %s: the capture holds the frames measured until then\n",
                     ended.c_str());
    std::printf("%s rendered, swapchain recreated %s, minimized %s\n",
                countOf(d.frameNumber, "frame").c_str(), countOf(d.recreations, "time").c_str(),
                countOf(d.minimizations, "time").c_str());
    harness.end(d);
    return complete;
}

} // namespace

int runDemo(const GlobalOptions& global, const DemoOptions& options, const DemoHarness& harness) {
    checkOutputs(options);
    Demo d;
    d.options = options;
    if (!options.loadState.empty()) d.initial = sim::loadNpy(options.loadState);

    d.window = openWindow(options.width, options.height);
    glfwSetWindowUserPointer(d.window, &d);
    // Our callbacks are installed before ImGui's, which chain to them, so that a key tapped between
    // two frames is never lost.
    installInputCallbacks(d);
    d.ctx = createWindowContext(d.window, global);
    createDemoFlock(d);
    createRendererAndSwapchain(d);
    createFrameSlots(d);
    createImGui(d);
    startLiveShaders(d.live, d.ctx, d.panel.shaders);
    runStepsBefore(d);
    startRun(d);
    io::os::onInterrupt(requestStop);

    PanelRequest asked; // the harness's requests, kept through minimized passes until a frame applies them
    while (!glfwWindowShouldClose(d.window) && !stopAtInterrupt(d)) {
        glfwPollEvents();
        asked.add(harness.frame(d));
        int width = 0, height = 0;
        glfwGetFramebufferSize(d.window, &width, &height);
        if (waitIfMinimized(d, width, height)) {
            if (d.interrupted) break;
            continue;
        }
        updateSwapchain(d, width, height);

        FrameSlot& slot = d.slots[d.frameNumber % framesInFlight];
        waitForSlot(d, slot);
        uint32_t image = 0;
        if (!acquireImage(d, slot, image)) continue;
        const Clock::time_point start = Clock::now();
        endCpuFrame(d, start);
        notePresetSpeed(d);

        beginImGuiFrame();
        const sim::Mode modeBefore = d.panel.sim.mode;
        asked.add(handleInput(d));
        asked.add(buildPanel(d));
        confirmNaive(d, modeBefore, asked.naiveConfirmed);
        const bool simulate = applyRequest(d, asked) && !d.interrupted;
        if (asked.reloadShaders && d.live.folder.empty())
            d.panel.status = "F5 compiles the shaders again only with --shaders (docs/LIVE_EDITING.md)";
        updateLiveShaders(d.live, d.ctx, d.frameNumber, framesInFlight, asked.reloadShaders, d.panel.shaders);
        asked = {};
        // Computed after the requests, which may change the mode, the cells, the order or the flock.
        d.panel.grid = currentGrid(d);

        const render::DrawPath drawn = recordFrame(d, slot, image, simulate);
        d.panel.drawn = drawn;
        submitAndPresent(d, slot, image);
        endFrame(d, slot, start, drawn);
        if (d.totalFrames && d.frameNumber >= d.totalFrames) break;
    }
    const bool complete = finishRun(d, harness);

    stopLiveShaders(d.live, d.ctx);
    destroyImGui(d);
    destroyFrameSlots(d);
    gpu::destroySwapchain(d.ctx, d.swapchain);
    render::destroyRenderer(d.ctx, d.renderer);
    sim::destroyFlock(d.ctx, d.flock);
    gpu::destroyContext(d.ctx);
    closeWindow(d.window);
    return finish(complete ? exitOk : exitFailure);
}

} // namespace app
