#pragma once
// GPU timestamps by named scope: one query pool per frame in flight, read back after that frame's
// fence has signalled (never stalls). Where the queue cannot write timestamps, every time reads
// as unavailable, not as zero.

#include "gpu/context.h"

#include <string>
#include <vector>

namespace gpu {

struct ScopeTime {
    std::string name;
    double ms = 0;
    bool valid = false;
};

struct Profiler {
    static constexpr uint32_t maxScopes = 128;
    std::vector<VkQueryPool> pools;              // one per frame in flight
    std::vector<std::vector<std::string>> names; // scope names recorded into each frame
    uint32_t frame = 0;                          // the frame being recorded
    bool supported = false;
    double periodNs = 0;
    uint64_t validMask = 0;
};

Profiler createProfiler(const Context& context, uint32_t framesInFlight);
void destroyProfiler(const Context& context, Profiler& profiler);

// Starts recording frame `frame` (mod frames in flight): resets its queries. Outside render passes.
void beginProfilerFrame(Profiler& profiler, VkCommandBuffer cmd, uint32_t frame);

// Scope times of `frame`, in the order the scopes began. Call once that frame's work has completed.
std::vector<ScopeTime> readProfilerFrame(const Context& context, const Profiler& profiler, uint32_t frame);

// A timed region of a command buffer; a null profiler makes it a no-op.
class Scope {
  public:
    Scope(Profiler* profiler, VkCommandBuffer cmd, const char* name);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

  private:
    Profiler* profiler;
    VkCommandBuffer cmd;
    uint32_t index = 0;
};

} // namespace gpu
