#include "app/run.h"

#include "app/exit_codes.h"
#include "gpu/context.h"
#include "io/platform.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace app {
namespace {

std::string commit = "unknown";

} // namespace

void setBuildCommit(const std::string& stamped) {
    commit = stamped;
}

const std::string& buildCommit() {
    return commit;
}

Headless createHeadless(const gpu::Context& ctx) {
    Headless h;
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = ctx.queueFamily;
    VK_CHECK(vkCreateCommandPool(ctx.device, &poolInfo, nullptr, &h.pool));
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = h.pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VK_CHECK(vkAllocateCommandBuffers(ctx.device, &alloc, &h.cmd));
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK_CHECK(vkCreateFence(ctx.device, &fenceInfo, nullptr, &h.fence));
    h.profiler = gpu::createProfiler(ctx, 1);
    return h;
}

void destroyHeadless(const gpu::Context& ctx, Headless& h) {
    if (ctx.device) vkDeviceWaitIdle(ctx.device);
    gpu::destroyProfiler(ctx, h.profiler);
    if (h.fence) vkDestroyFence(ctx.device, h.fence, nullptr);
    if (h.pool) vkDestroyCommandPool(ctx.device, h.pool, nullptr);
    h = Headless{};
}

std::vector<gpu::ScopeTime>
runHeadlessFrame(const gpu::Context& ctx, Headless& h,
                 const std::function<void(VkCommandBuffer, gpu::Profiler*)>& record) {
    VK_CHECK(vkResetCommandBuffer(h.cmd, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(h.cmd, &begin));
    gpu::beginProfilerFrame(h.profiler, h.cmd, 0);
    {
        gpu::Scope frame(&h.profiler, h.cmd, "frame");
        record(h.cmd, &h.profiler);
    }
    gpu::submitAndWait(ctx, h.cmd, h.fence);
    return gpu::readProfilerFrame(ctx, h.profiler, 0);
}

void progress(const std::string& text) {
    if (io::os::isTerminal(stderr)) std::fprintf(stderr, "\r%-72s", text.c_str());
}

void endProgress() {
    if (io::os::isTerminal(stderr)) std::fprintf(stderr, "\r%-72s\r", "");
}

std::vector<gpu::SourceModule> compileShaderSources(const GlobalOptions& global, bool quiet) {
    if (global.shaders.empty()) return {};
    if (!std::filesystem::is_directory(io::os::fsPath(global.shaders)))
        throw io::InputError("--shaders: '" + global.shaders + "' is not a folder");
    const auto start = std::chrono::steady_clock::now();
    std::vector<gpu::SourceModule> modules;
    try {
        modules = gpu::compileAllModules(global.shaders);
    } catch (const gpu::ShaderError& e) {
        // One line: the first error, which the others often only follow from.
        const std::string all = e.what();
        const size_t more = size_t(std::count(all.begin(), all.end(), '\n'));
        throw gpu::ShaderError(all.substr(0, all.find('\n')) +
                               (more ? " (and " + countOf(more, "more error") + ")" : ""));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!quiet)
        std::fprintf(stderr, "vkboids: %zu shaders compiled from %s in %.1f s (sources %s)\n", modules.size(),
                     global.shaders.c_str(), seconds, gpu::sourceHash(modules).c_str());
    return modules;
}

void printTimestampNote(const gpu::TimestampProbe& p) {
    if (p.trust == gpu::TimestampTrust::Barriers)
        std::printf(
            "timestamps: each behind a barrier (after drawing, this driver writes them before the work "
            "recorded ahead of them has run: probe %.3f ms direct, %.3f behind barriers)\n",
            p.directMs, p.barriersMs);
    if (p.trust == gpu::TimestampTrust::Untrusted)
        std::printf(
            "timestamps: untrusted on this driver, GPU times not reported (probe %.3f ms direct, %.3f "
            "behind barriers, %.3f for a quarter of the work)\n",
            p.directMs, p.barriersMs, p.oneFillMs);
}

std::string timeLeft(double elapsedSeconds, double doneShare) {
    if (!(doneShare > 0) || !(elapsedSeconds > 0)) return "";
    const double left = elapsedSeconds * (1 - std::min(doneShare, 1.0)) / std::min(doneShare, 1.0);
    char text[48];
    if (left < 90)
        std::snprintf(text, sizeof text, "about %.0f s left", left);
    else if (left < 90 * 60)
        std::snprintf(text, sizeof text, "about %.0f min left", left / 60);
    else
        std::snprintf(text, sizeof text, "about %.1f h left", left / 3600);
    return text;
}

std::string countOf(uint64_t count, const std::string& noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string countList(const std::vector<uint32_t>& counts, const char* separator) {
    std::string text;
    for (uint32_t n : counts) text += (text.empty() ? "" : separator) + std::to_string(n);
    return text;
}

void keepBusy(uint64_t ms, const std::function<void()>& work) {
    if (ms == 0) return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    do {
        work();
    } while (std::chrono::steady_clock::now() < until);
}

int finish(int code) {
    const uint32_t errors = gpu::validationErrorCount();
    if (errors == 0) return code;
    std::fprintf(stderr, "vkboids: error: %u Vulkan validation error%s reported\n", errors,
                 errors == 1 ? "" : "s");
    return code == exitOk ? exitValidation : code;
}

} // namespace app
