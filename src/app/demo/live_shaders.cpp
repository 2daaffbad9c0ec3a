#include "app/demo/live_shaders.h"

#include "io/platform.h"

#include <algorithm>
#include <cstdio>

namespace app {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// How often the files are looked at, and how long a changed file must stay unchanged before it is
// compiled: an editor that writes a file in pieces is given time to finish.
constexpr auto pollEvery = 50ms, stillFor = 100ms;
constexpr size_t maxErrorLines = 6;

LiveShaders::Stamp stampOf(const std::filesystem::path& path) {
    std::error_code error;
    LiveShaders::Stamp s;
    s.time = std::filesystem::last_write_time(path, error);
    if (error) return {};
    s.size = std::filesystem::file_size(path, error);
    s.exists = !error;
    return s;
}

void watchFilesOf(LiveShaders& live, const gpu::Context& ctx) {
    for (const auto& [name, module] : ctx.keptPrograms->sourceModules)
        for (const gpu::SourceFile& f : module.files)
            if (!live.stamps.count(f.path))
                live.stamps[f.path] = stampOf(io::os::fsPath(live.folder) / f.path);
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
    return text;
}

// The reload itself, on its own thread: each shader compiled, then each program's pipeline made
// again. Any failure leaves nothing made: the last good pipelines stay. On a CPU driver the frames
// already keep both cores of a small machine busy: what the frames use now runs below their priority,
// the rest (`later`) at the lowest, and one thread at a time, so that frames slow down as little as an
// edit that shows within a second allows.
Reload runReload(const gpu::Context& ctx, const std::string& folder, const std::vector<std::string>& names,
                 const std::vector<gpu::PipelineJob>& jobs, Reload r) {
    io::os::setThreadPriority(r.later ? io::os::Priority::Lowest : io::os::Priority::BelowNormal);
    // std::async may run the next task on this thread (a pool, with MSVC): it gets its priority back.
    struct Restore {
        ~Restore() { io::os::setThreadPriority(io::os::Priority::Normal); }
    } restore;
    r.attempted = names;
    std::vector<std::string> errors(names.size());
    std::vector<gpu::SourceModule> modules(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        try {
            modules[i] = gpu::compileModule(folder, *gpu::embeddedShader(names[i]));
        } catch (const gpu::ShaderError& e) {
            errors[i] = e.what();
            r.read.insert(r.read.end(), e.files.begin(), e.files.end());
        } catch (const std::exception& e) {
            errors[i] = e.what();
        }
    }
    std::vector<std::string> lines; // each line once: an error in an included file shows in every shader
    for (size_t i = 0; i < names.size(); ++i) {
        if (errors[i].empty()) continue;
        size_t start = 0;
        while (start < errors[i].size()) {
            size_t end = std::min(errors[i].find('\n', start), errors[i].size());
            const std::string line = errors[i].substr(start, end - start);
            if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
            start = end + 1;
        }
    }
    if (!lines.empty()) {
        // The first few: the others mostly follow from them (a file cut short breaks every line after).
        const size_t shown = std::min<size_t>(lines.size(), maxErrorLines);
        r.error = joined(std::vector<std::string>(lines.begin(), lines.begin() + shown), "\n");
        if (shown < lines.size()) r.error += "\n(and " + std::to_string(lines.size() - shown) + " more)";
        return r;
    }
    std::vector<VkPipeline> pipelines(jobs.size(), VK_NULL_HANDLE);
    std::vector<std::string> failures(jobs.size());
    for (size_t i = 0; i < jobs.size(); ++i) {
        try {
            pipelines[i] = gpu::buildPipeline(ctx, jobs[i], modules);
        } catch (const std::exception& e) {
            failures[i] = jobs[i].program.name + ": its pipeline could not be made: " + e.what();
        }
    }
    for (const std::string& f : failures)
        if (!f.empty() && r.error.empty()) r.error = f;
    if (!r.error.empty()) {
        gpu::destroyPipelines(ctx, pipelines);
        return r;
    }
    for (size_t i = 0; i < jobs.size(); ++i) r.built.push_back({jobs[i].key, pipelines[i]});
    r.modules = std::move(modules);
    return r;
}

void install(LiveShaders& live, const gpu::Context& ctx, uint64_t frameNumber, Reload r,
             ShaderStatus& status) {
    status.compiling = false;
    const double seconds = std::chrono::duration<double>(Clock::now() - r.changeSeen).count();
    const std::string what = r.files.empty() ? "reload all" : joined(r.files, ", ");
    std::vector<std::string> names;
    for (const gpu::SourceModule& m : r.modules) names.push_back(m.name);
    if (!r.error.empty()) {
        // Nothing of a failed reload is installed: its shaders, and those left for later, are tried
        // again with the next change, with those still pending from earlier failures.
        for (const std::vector<std::string>* pending : {&r.attempted, &live.deferred})
            for (const std::string& name : *pending)
                if (!std::ranges::count(live.failed, name)) live.failed.push_back(name);
        live.deferred.clear();
        // An include the edit added, even one not written yet, is watched from now on.
        for (const std::string& path : r.read)
            if (!live.stamps.count(path)) live.stamps[path] = stampOf(io::os::fsPath(live.folder) / path);
        status.files = live.stamps.size();
        if (r.error == status.error) return; // said already, by the reload of other shaders reading the file
        status.error = r.error;
        std::fprintf(stderr, "vkboids: %s: not reloaded; the last good shaders keep running:\n%s\n",
                     what.c_str(), r.error.c_str());
        return;
    }
    std::erase_if(live.failed, [&](const std::string& n) { return std::ranges::count(names, n) > 0; });
    const size_t pipelines = r.built.size();
    std::vector<VkPipeline> replaced = gpu::installModules(ctx, std::move(r.modules), r.built);
    if (!replaced.empty()) live.retired.push_back({frameNumber, std::move(replaced)});
    watchFilesOf(live, ctx); // an include the edit added is watched from now on
    status.files = live.stamps.size();
    status.error.clear();
    char text[80];
    std::snprintf(text, sizeof text, ": %zu pipeline%s in %.2f s", pipelines, pipelines == 1 ? "" : "s",
                  seconds);
    const std::string line = what + " -> " + joined(names, ", ") + text;
    if (r.later) {
        std::fprintf(stderr, "vkboids: shaders not in use compiled too: %s\n", line.c_str());
        return;
    }
    status.lastReload = line;
    std::fprintf(stderr, "vkboids: shaders reloaded: %s\n", line.c_str());
}

} // namespace

void startLiveShaders(LiveShaders& live, const gpu::Context& ctx, ShaderStatus& status) {
    live.folder = ctx.keptPrograms->sourceFolder;
    if (live.folder.empty()) return;
    watchFilesOf(live, ctx);
    status.folder = live.folder;
    status.files = live.stamps.size();
}

void updateLiveShaders(LiveShaders& live, const gpu::Context& ctx, uint64_t frameNumber,
                       uint32_t framesInFlight, bool reloadAll, ShaderStatus& status) {
    if (live.folder.empty()) return;
    // The frames before frameNumber + 1 - framesInFlight have finished.
    std::erase_if(live.retired, [&](const auto& retired) {
        if (frameNumber + 1 < retired.first + framesInFlight) return false;
        gpu::destroyPipelines(ctx, retired.second);
        return true;
    });
    if (live.job.valid() && live.job.wait_for(0s) == std::future_status::ready)
        install(live, ctx, frameNumber, live.job.get(), status);

    const Clock::time_point now = Clock::now();
    if (now >= live.nextPoll) {
        live.nextPoll = now + pollEvery;
        for (auto& [path, stamp] : live.stamps) {
            const LiveShaders::Stamp seen = stampOf(io::os::fsPath(live.folder) / path);
            if (seen == stamp) continue;
            stamp = seen;
            if (live.changed.empty()) live.firstChange = now;
            live.changed.insert(path);
            live.lastChange = now;
        }
    }
    live.reloadAllAsked = live.reloadAllAsked || reloadAll;
    if (live.job.valid()) return;

    std::vector<std::string> names;
    Reload r;
    if (live.reloadAllAsked) {
        live.reloadAllAsked = false;
        for (const gpu::EmbeddedShader& s : gpu::embeddedShaders()) names.emplace_back(s.name);
        r.changeSeen = now;
    } else if (!live.changed.empty() && now - live.lastChange >= stillFor) {
        for (const auto& [name, module] : ctx.keptPrograms->sourceModules) {
            const bool reads = std::ranges::any_of(
                module.files, [&](const gpu::SourceFile& f) { return live.changed.count(f.path) > 0; });
            if (reads || std::ranges::count(live.failed, name) || std::ranges::count(live.deferred, name))
                names.push_back(name);
        }
        r.files.assign(live.changed.begin(), live.changed.end());
        r.changeSeen = live.firstChange;
    } else if (!live.deferred.empty()) {
        names = live.deferred;
        r.files = live.deferredFiles;
        r.changeSeen = now;
        r.later = true;
    } else {
        return;
    }
    live.changed.clear();
    live.deferred.clear();
    // The shaders of the programs in use are compiled first, and the others by the next reload, so
    // that an edit shows sooner: on a CPU driver the frames and the compiles share the same cores.
    std::vector<gpu::PipelineJob> jobs = gpu::pipelinesUsing(ctx, names);
    std::vector<std::string> inUse;
    for (const std::string& name : names) {
        if (std::ranges::any_of(jobs, [&](const gpu::PipelineJob& j) {
                return j.inUse && std::ranges::count(j.recipe.shaders, name) > 0;
            }))
            inUse.push_back(name);
        else
            live.deferred.push_back(name);
    }
    if (inUse.empty() || r.later) { // all of them: nothing in use to put first
        inUse = names;
        live.deferred.clear();
    } else {
        std::erase_if(jobs, [&](const gpu::PipelineJob& j) {
            return std::ranges::find_first_of(j.recipe.shaders, inUse) == j.recipe.shaders.end();
        });
    }
    live.deferredFiles = r.files;
    status.compiling = true;
    live.job = std::async(std::launch::async, [&ctx, folder = live.folder, names = std::move(inUse),
                                               jobs = std::move(jobs), r = std::move(r)]() mutable {
        return runReload(ctx, folder, names, jobs, std::move(r));
    });
}

void stopLiveShaders(LiveShaders& live, const gpu::Context& ctx) {
    if (live.job.valid()) {
        Reload r = live.job.get();
        for (const gpu::BuiltPipeline& b : r.built) gpu::destroyPipelines(ctx, {b.pipeline});
    }
    for (const auto& retired : live.retired) gpu::destroyPipelines(ctx, retired.second);
    live.retired.clear();
}

} // namespace app
