#pragma once
// GPU timestamps by named scope: one query pool per frame in flight, read back after that frame's
// fence has signalled (never stalls). Where the queue cannot write timestamps, or where the probe
// below finds that they do not bracket the work, every time reads as unavailable, not as zero.
//
// Scopes begin and end outside renderings (vkCmdBeginRendering): where timestamps need a barrier
// behind them (TimestampTrust::Barriers), such a barrier inside a rendering is invalid, and validation
// says so.

#include "gpu/context.h"

#include <string>
#include <vector>

namespace gpu {

// How far the queue's timestamps can be believed, as probeTimestamps measured it.
enum class TimestampTrust {
    Unavailable, // the queue writes none
    Direct,      // each waits for the work recorded before it, as Vulkan says
    Barriers,    // only with an execution barrier behind each timestamp (lavapipe; see profiler.cpp)
    Untrusted,   // not even with barriers, so no time is reported
};

const char* timestampTrustName(TimestampTrust trust);

// Whether the profiler writes timestamps and reports their times: for Direct and Barriers.
bool timesReported(TimestampTrust trust);

// What the probe measured, each the fastest of a few runs after a small rendering: four fills of
// probeFillBytes between two timestamps as they are written, the same with a barrier behind each
// timestamp, and (only where the two disagree) one fill with barriers.
struct TimestampProbe {
    TimestampTrust trust = TimestampTrust::Unavailable;
    double directMs = 0, barriersMs = 0, oneFillMs = 0;
};

constexpr uint64_t probeFillBytes = 4ull << 20;

// The verdict on the probe's times: untrusted where even the timestamps behind barriers see no work;
// direct where the plain ones see at least half of what those behind barriers see; else barriers
// where four fills behind barriers take at least 1.5 times as long as one (the times grow with the
// work); else untrusted.
TimestampTrust judgeTimestamps(double directMs, double barriersMs, double oneFillMs);

// Runs the probe on the context's queue (blocking; tens of milliseconds on a CPU driver).
TimestampProbe probeTimestamps(const Context& context);

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
    TimestampProbe probe;
    double periodNs = 0;
    uint64_t validMask = 0;
};

// Probes the queue's timestamps first (probeTimestamps).
Profiler createProfiler(const Context& context, uint32_t framesInFlight);
void destroyProfiler(const Context& context, Profiler& profiler);

// Starts recording frame `frame` (modulo the frames in flight) by resetting its queries. Call it outside
// a rendering.
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
