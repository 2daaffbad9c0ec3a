// vkboids-probe: how long the memory operations of the sort's look-back take on a device.
//
// chase: one invocation walks random cycles over a footprint (one word per 128-byte line) with
// plain, coherent or relaxed-atomic loads, 1 to 16 chains in step. A step is one dependent load's
// latency with that many loads in flight. Each mode walks its own stretch of the cycle twice: the
// first walk meets lines no mode has touched since the upload, the second the same lines again.
// pingpong: two work groups pass a counter back and forth with relaxed atomics; a hop is what a
// published prefix takes to reach a polling group. Times come from GPU timestamps around each
// dispatch, split between the walks by the device clock (the tool needs VK_KHR_shader_clock's
// device clock). Each walk's end is checked against the CPU's (exit code 4 on a mismatch), so a
// probe that loaded the wrong words cannot pass for a fast one.

#include "gpu/buffer.h"
#include "gpu/commands.h"
#include "gpu/profiler.h"
#include "shared.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

namespace {

constexpr uint32_t lineWords = 32; // 128-byte lines
constexpr uint32_t maxChains = 16; // chase.comp's CHAINS
constexpr uint32_t modes = 3;      // plain, coherent, atomic
const char* modeNames[modes] = {"plain", "coherent", "atomic"};

uint32_t linesIn(uint32_t kb) {
    return kb * 1024 / (lineWords * 4);
}

// A 64-bit device-clock count the shaders write as two words, low first.
double ticksOf(const uint32_t* words) {
    return double(words[0]) + 4294967296.0 * words[1];
}

// A random cycle through `lines` lines (Sattolo), as next-index words at each line's first word.
// Returns the cycle's order of lines.
std::vector<uint32_t> makeCycle(uint32_t lines, std::vector<uint32_t>& words) {
    std::vector<uint32_t> order(lines);
    std::iota(order.begin(), order.end(), 0u);
    std::mt19937 rng(12345);
    for (uint32_t i = lines - 1; i > 0; --i) std::swap(order[i], order[rng() % i]);
    words.assign(size_t(lines) * lineWords, 0u);
    for (uint32_t i = 0; i < lines; ++i)
        words[size_t(order[i]) * lineWords] = order[(i + 1) % lines] * lineWords;
    return order;
}

// Mode m's chains start evenly spread over the m-th third of the cycle, so that no two chains, and
// no two modes, start on the same line (the caller keeps lines >= 2 * modes * chains).
std::vector<uint32_t> chainStarts(const std::vector<uint32_t>& order, uint32_t mode, uint32_t chains) {
    const uint64_t lines = order.size();
    std::vector<uint32_t> starts(maxChains, 0u);
    for (uint32_t c = 0; c < chains; ++c)
        starts[c] = order[(uint64_t(mode) * chains + c) * lines / (modes * chains)] * lineWords;
    return starts;
}

// chase.comp's hash of where its two walks end, each from the same starts.
uint32_t walkHash(const std::vector<uint32_t>& words, const std::vector<uint32_t>& starts, uint32_t chains,
                  uint32_t steps) {
    std::vector<uint32_t> ends(starts.begin(), starts.begin() + chains);
    for (uint32_t& at : ends)
        for (uint32_t s = 0; s < steps; ++s) at = words[at];
    uint32_t hash = 0;
    for (int walk = 0; walk < 2; ++walk)
        for (uint32_t at : ends) hash = hash * 16777619u ^ at;
    return hash;
}

double timeDispatch(const gpu::Context& ctx, gpu::Profiler& profiler, const gpu::Program& program,
                    std::initializer_list<gpu::BufferRange> buffers, uint32_t groups,
                    const gpudata::ProbeConstants& push) {
    VkCommandBuffer cmd = gpu::beginOneShot(ctx);
    gpu::beginProfilerFrame(profiler, cmd, 0);
    {
        gpu::Scope scope(&profiler, cmd, "probe");
        gpu::bindProgram(cmd, program, buffers);
        gpu::dispatchGroups(cmd, program, groups, push);
    }
    gpu::endOneShot(ctx, cmd);
    const auto times = gpu::readProfilerFrame(ctx, profiler, 0);
    return times.empty() || !times[0].valid ? -1.0 : times[0].ms * 1e6;
}

struct Resources {
    gpu::Profiler profiler;
    gpu::Buffer result, starts, flags;
};

// One row of the chase table: every mode over one footprint and chain count. Returns 0, or 4 when a
// walk ended elsewhere than the CPU's.
int chaseRow(const gpu::Context& ctx, Resources& r, const gpu::Buffer& chain,
             const std::vector<uint32_t>& words, const std::vector<uint32_t>& order, uint32_t chains,
             uint32_t steps) {
    for (uint32_t mode = 0; mode < modes; ++mode) {
        const std::vector<uint32_t> starts = chainStarts(order, mode, chains);
        gpu::uploadBuffer(ctx, r.starts, starts.data(), starts.size() * 4);
        gpu::Program program = gpu::createComputeProgram(ctx, "probe_chase", {{0, mode}, {1, chains}});
        const double ns =
            timeDispatch(ctx, r.profiler, program, {chain, chain, r.starts, r.result}, 1, {steps, 0, 0, 0});
        gpu::destroyProgram(ctx, program);
        uint32_t out[5] = {};
        gpu::downloadBuffer(ctx, r.result, out, sizeof out);
        if (out[4] != walkHash(words, starts, chains, steps)) {
            std::fprintf(stderr, "\nvkboids-probe: error: the GPU's %s walk ended elsewhere than the CPU's\n",
                         modeNames[mode]);
            return 4;
        }
        const double first = ticksOf(out), again = ticksOf(out + 2);
        const double perTick = first + again > 0 ? ns / (first + again) : 0.0;
        std::printf("   %7.1f / %-7.1f", first * perTick / steps, again * perTick / steps);
    }
    std::printf("\n");
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app("vkboids-probe: latency of the loads and stores the sort's look-back makes");
    int device = -1;
    bool validation = false;
    uint32_t steps = 20000, rounds = 20000;
    std::vector<uint32_t> footprintsKb{16, 4096, 524288};
    std::vector<uint32_t> chainCounts{1, 4, 16};
    app.add_option("--device", device, "device index of vkboids --list-devices");
    app.add_flag("--validation", validation, "Khronos validation layer");
    app.add_option("--steps", steps, "steps of each walk")->check(CLI::Range(1u, 1u << 24));
    app.add_option("--rounds", rounds, "ping-pong round trips")->check(CLI::Range(1u, 1u << 24));
    CLI::Option* footprintOption =
        app.add_option(
               "--footprints-kb", footprintsKb,
               "chase footprints in KB, comma-separated (default: 16, 4096 and 524288, those the device "
               "can bind)")
            ->delimiter(',')
            ->check(CLI::Range(1u, 1u << 22));
    app.add_option("--chains", chainCounts, "chains walked in step, comma-separated (1 to 16)")
        ->delimiter(',')
        ->check(CLI::Range(1u, maxChains));
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2; // help is not an error; a bad flag is bad input, as in vkboids
    }

    gpu::ContextOptions options;
    options.validation = validation;
    options.deviceIndex = device;
    gpu::Context ctx;
    try {
        ctx = gpu::createContext(options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkboids-probe: error: %s\n", e.what());
        return 1;
    }
    int status = 0;
    try {
        if (!ctx.deviceClock)
            throw gpu::Unsupported(std::string(ctx.properties.deviceName) +
                                   " cannot read a device clock in shaders (VK_KHR_shader_clock)");
        const uint64_t range = ctx.properties.limits.maxStorageBufferRange;
        const uint32_t most = *std::max_element(chainCounts.begin(), chainCounts.end());
        std::vector<uint32_t> footprints;
        for (uint32_t kb : footprintsKb) {
            const uint32_t lines = linesIn(kb);
            if (uint64_t(kb) * 1024 > range) {
                if (footprintOption->count() == 0) continue; // a default the device cannot bind
                throw gpu::Unsupported("a footprint of " + std::to_string(kb) +
                                       " KB exceeds this device's storage buffer range of " +
                                       std::to_string(range) + " bytes");
            }
            if (lines < 2 * modes * most)
                throw gpu::Unsupported("a footprint of " + std::to_string(kb) + " KB holds " +
                                       std::to_string(lines) + " lines: too few for " + std::to_string(most) +
                                       " chains a mode (at least " + std::to_string(2 * modes * most) + ")");
            footprints.push_back(kb);
        }

        std::printf("device: %s, %s %s\n", ctx.properties.deviceName, ctx.driverName.c_str(),
                    ctx.driverInfo.c_str());
        Resources r;
        r.profiler = gpu::createProfiler(ctx, 1);
        r.result = gpu::createBuffer(ctx, 64, gpu::storageUsage, gpu::MemoryUse::Device);
        r.starts = gpu::createBuffer(ctx, maxChains * 4, gpu::storageUsage, gpu::MemoryUse::Device);
        r.flags = gpu::createBuffer(ctx, 1024, gpu::storageUsage, gpu::MemoryUse::Device);

        std::printf("\nchase: ns per step, first walk / the same lines again (a step: one dependent load per "
                    "chain)\n");
        std::printf("%12s %6s   %-17s   %-17s   %-17s\n", "footprint", "chains", modeNames[0], modeNames[1],
                    modeNames[2]);
        for (uint32_t kb : footprints) {
            std::vector<uint32_t> words;
            const std::vector<uint32_t> order = makeCycle(linesIn(kb), words);
            gpu::Buffer chain = gpu::createBuffer(ctx, VkDeviceSize(words.size()) * 4, gpu::storageUsage,
                                                  gpu::MemoryUse::Device);
            for (uint32_t chains : chainCounts) {
                gpu::uploadBuffer(ctx, chain, words.data(), words.size() * 4); // every row starts alike
                std::printf("%9u KB %6u", kb, chains);
                status = chaseRow(ctx, r, chain, words, order, chains, steps);
                if (status != 0) break;
            }
            gpu::destroyBuffer(ctx, chain);
            if (status != 0) break;
        }

        if (status == 0) {
            std::printf("\npingpong: two groups pass a counter with relaxed device-scope atomics\n");
            gpu::fillBuffer(ctx, r.flags, 0);
            const auto& limits = ctx.properties.limits;
            const uint32_t width =
                std::min({1024u, limits.maxComputeWorkGroupInvocations, limits.maxComputeWorkGroupSize[0]});
            gpu::Program ping = gpu::createComputeProgram(
                ctx, "probe_pingpong", {{0, width}, {1, limits.maxComputeSharedMemorySize / 4 - 64}});
            const double ns = timeDispatch(ctx, r.profiler, ping, {r.flags, r.result}, 2, {0, rounds, 0, 0});
            gpu::destroyProgram(ctx, ping);
            uint32_t out[8] = {};
            gpu::downloadBuffer(ctx, r.result, out, sizeof out);
            const double ticks = ticksOf(out);
            if (out[2] != rounds || out[6] != rounds) {
                // Lavapipe runs groups on a few CPU threads; under load its counts can even disagree.
                std::printf("no hop time: the groups' rounds disagree (%u and %u of %u), so they did not run "
                            "together\n",
                            out[2], out[6], rounds);
            } else {
                std::printf("%u round trips: %.1f ns per hop (timestamps), %.1f device-clock ticks per hop\n",
                            rounds, ns / (2.0 * rounds), ticks / (2.0 * rounds));
            }
        }
        for (gpu::Buffer* b : {&r.flags, &r.starts, &r.result}) gpu::destroyBuffer(ctx, *b);
        gpu::destroyProfiler(ctx, r.profiler);
    } catch (const gpu::Unsupported& e) {
        std::fprintf(stderr, "vkboids-probe: error: %s\n", e.what());
        status = 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkboids-probe: error: %s\n", e.what());
        status = 1;
    }
    gpu::destroyContext(ctx);
    if (status == 0 && gpu::validationErrorCount() > 0) return 3;
    return status;
}
