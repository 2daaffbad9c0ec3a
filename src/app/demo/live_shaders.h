#pragma once
// Live shader editing in the demo (--shaders DIR). The files the shaders were compiled from are
// watched; when one is saved, every shader that reads it is compiled again and its pipelines made
// again on another thread, and the new pipelines take the old ones' place between two frames. The
// old pipelines are destroyed once no frame in flight uses them. An edit that fails leaves the last
// good pipelines flying, and its message (FILE:LINE: error: ...) goes to the panel and to stderr.

#include "gpu/program.h"

#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace app {

// What a reload made, off the frame loop: the modules and their programs' new pipelines, or why not.
struct Reload {
    std::vector<std::string> files; // the files whose change started it; empty for "reload all"
    std::vector<gpu::SourceModule> modules;
    std::vector<gpu::BuiltPipeline> built;
    std::vector<std::string> attempted; // the shaders it compiles
    std::vector<std::string> read;      // the files a failed compile read or looked for: watched too
    std::string error;                  // empty on success
    std::chrono::steady_clock::time_point changeSeen; // the first change this reload answers
    // The shaders of programs not in use, left by an earlier reload: compiled at the lowest
    // priority, and not the panel's "last reload".
    bool later = false;
};

struct LiveShaders {
    std::string folder; // empty: the built-in shaders, nothing watched

    // Each file the shaders were compiled from, relative to the folder, as last seen.
    struct Stamp {
        std::filesystem::file_time_type time{};
        uintmax_t size = 0;
        bool exists = false;
        bool operator==(const Stamp&) const = default;
    };
    std::map<std::string, Stamp> stamps;
    std::set<std::string> changed;   // changed since the last reload began
    std::vector<std::string> failed; // shaders whose last compile failed: tried again on any change
    // Shaders that no program in use reads, left for the reload after the one under way, and the
    // files whose change they answer.
    std::vector<std::string> deferred, deferredFiles;
    std::chrono::steady_clock::time_point nextPoll, lastChange, firstChange;
    std::future<Reload> job;
    bool reloadAllAsked = false; // F5 while a reload was under way: the next one reloads all
    // Pipelines replaced before the frame of that number, destroyed once it and those before it are done.
    std::vector<std::pair<uint64_t, std::vector<VkPipeline>>> retired;
};

// What the panel shows of it.
struct ShaderStatus {
    std::string folder; // empty without --shaders
    size_t files = 0;
    bool compiling = false;
    std::string lastReload; // "sim/rules.glsl: 4 shaders, 7 pipelines in 0.62 s"
    std::string error;      // the last edit's error, until an edit compiles
};

// Starts watching the files that the context's shaders were compiled from (none without --shaders).
void startLiveShaders(LiveShaders& live, const gpu::Context& context, ShaderStatus& status);

// Once a frame, between recording frames, with the number of the frame about to be recorded, whose
// slot's previous frame has finished: installs a finished reload, destroys the pipelines no frame
// uses any more, looks for saved files (every 50 ms) and starts a reload of the shaders they touch
// once they have been still for 100 ms, or of all of them when `reloadAll`.
void updateLiveShaders(LiveShaders& live, const gpu::Context& context, uint64_t frameNumber,
                       uint32_t framesInFlight, bool reloadAll, ShaderStatus& status);

// After the device is idle: waits for a reload still running and destroys what it and earlier
// reloads left.
void stopLiveShaders(LiveShaders& live, const gpu::Context& context);

} // namespace app
