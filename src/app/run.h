#pragma once
// What the demo and the headless commands share: the global flags, frames without a window (record,
// submit, wait, read the frame's GPU timestamps; one in flight), progress on a terminal, and the exit
// code.

#include "gpu/profiler.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace app {

// The flags every command takes: which device, and what to check and report on it.
struct GlobalOptions {
    bool validation = false;
    int device = -1;
    bool pipelineStats = false; // print the driver's statistics of every compute pipeline
    std::string shaders;        // --shaders: the folder to compile the shaders from; empty: the embedded ones
};

// With --shaders, every shader compiled from its folder, said in one line on stderr unless `quiet`;
// for gpu::ContextOptions::shaderModules. Done before the device opens, so that an error comes at
// once. Empty without --shaders.
std::vector<gpu::SourceModule> compileShaderSources(const GlobalOptions& global, bool quiet);

struct Headless {
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    gpu::Profiler profiler;
};

Headless createHeadless(const gpu::Context& context);
void destroyHeadless(const gpu::Context& context, Headless& headless);

// Records `record` inside a "frame" scope, submits, waits, and returns the frame's scope times.
std::vector<gpu::ScopeTime>
runHeadlessFrame(const gpu::Context& context, Headless& headless,
                 const std::function<void(VkCommandBuffer, gpu::Profiler*)>& record);

// One line on stderr that each call overwrites, and its clearing: only where stderr is a terminal.
void progress(const std::string& text);
void endProgress();
// One line on how the profiler takes timestamps, where it is not directly (gpu::TimestampTrust).
void printTimestampNote(const gpu::TimestampProbe& probe);

// How long a run has left, from its time so far and the share of it done: "about 40 s left",
// "about 12 min left", "about 2.5 h left"; empty before anything is done.
std::string timeLeft(double elapsedSeconds, double doneShare);

// "1 frame", "3 frames": a count and its noun, for what is printed.
std::string countOf(uint64_t count, const std::string& noun);
// Counts joined by `separator`, as a sweep's note lists them: "5000, 50000" or "100000,1000000".
std::string countList(const std::vector<uint32_t>& counts, const char* separator);

// Calls `work` (a blocking GPU submission) again and again for `ms` milliseconds of wall time, at
// least once when ms > 0: the GPU's clock rises from idle before what is timed.
void keepBusy(uint64_t ms, const std::function<void()>& work);

// The commit the program was built from, which main() sets ("unknown" until then, as in the tests).
// Only main.cpp includes the build's stamp (generated/build_info.h): a new commit, or a working tree
// that becomes dirty, then recompiles that one file and relinks the binary alone.
void setBuildCommit(const std::string& commit);
const std::string& buildCommit();

// Exit code at the end of a run: validation errors turn success into exitValidation.
int finish(int code);

} // namespace app
