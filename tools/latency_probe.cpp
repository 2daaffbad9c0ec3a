// vkboids-probe: how long the memory operations of the sort's look-back take on a device.
//
// chase: one invocation walks random cycles over a footprint (one word per 128-byte line), with
// plain, coherent or relaxed-atomic loads, 1 to 16 chains in step: ns per step is a dependent
// load's latency with that many loads in flight. pingpong: two work groups on different SMs pass a
// counter back and forth with relaxed atomics: ns per hop is what a published prefix takes to reach
// a polling group. Times come from GPU timestamps around each dispatch (and the device clock,
// where the device has one, for the ping-pong). Each walk's end is checked against the CPU's (exit
// code 4 on a mismatch), so a probe that loaded the wrong words would not pass for a fast one.

#include "gpu/buffer.h"
#include "gpu/commands.h"
#include "gpu/profiler.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

namespace {

struct ChasePush { // push constants are reflected rounded up to 16 bytes
    uint32_t steps;
    uint32_t pad[3];
};

struct PingPush {
    uint32_t rounds;
    uint32_t pad[3];
};

constexpr uint32_t lineWords = 32; // 128-byte lines

// A random cycle through `lines` lines (Sattolo), as next-index words at each line's first word,
// and `chains` starting words spread evenly along the cycle.
void makeCycle(uint32_t lines, uint32_t chains, std::vector<uint32_t>& words, std::vector<uint32_t>& starts) {
    std::vector<uint32_t> order(lines);
    std::iota(order.begin(), order.end(), 0u);
    std::mt19937 rng(12345);
    for (uint32_t i = lines - 1; i > 0; --i) std::swap(order[i], order[rng() % i]);
    words.assign(size_t(lines) * lineWords, 0u);
    for (uint32_t i = 0; i < lines; ++i)
        words[size_t(order[i]) * lineWords] = order[(i + 1) % lines] * lineWords;
    starts.resize(16);
    for (uint32_t c = 0; c < 16; ++c) starts[c] = order[uint64_t(c % chains) * lines / chains] * lineWords;
}

// Where the shader's walk ends: the XOR of each chain's word index after `steps` steps.
uint32_t walkChecksum(const std::vector<uint32_t>& words, const std::vector<uint32_t>& starts,
                      uint32_t chains, uint32_t steps) {
    uint32_t sum = 0;
    for (uint32_t c = 0; c < chains; ++c) {
        uint32_t at = starts[c];
        for (uint32_t s = 0; s < steps; ++s) at = words[at];
        sum ^= at;
    }
    return sum;
}

double timeDispatch(const gpu::Context& ctx, gpu::Profiler& profiler, const gpu::Program& program,
                    std::initializer_list<gpu::BufferRange> buffers, uint32_t groups, const void* push,
                    uint32_t pushSize) {
    VkCommandBuffer cmd = gpu::beginOneShot(ctx);
    gpu::beginProfilerFrame(profiler, cmd, 0);
    {
        gpu::Scope scope(&profiler, cmd, "probe");
        gpu::bindProgram(cmd, program, buffers);
        gpu::dispatchGroupsRaw(cmd, program, groups, push, pushSize);
    }
    gpu::endOneShot(ctx, cmd);
    const auto times = gpu::readProfilerFrame(ctx, profiler, 0);
    return times.empty() || !times[0].valid ? -1.0 : times[0].ms * 1e6;
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
    app.add_option("--steps", steps, "timed steps of each chase")->check(CLI::Range(1u, 1u << 24));
    app.add_option("--rounds", rounds, "ping-pong round trips")->check(CLI::Range(1u, 1u << 24));
    app.add_option("--footprints-kb", footprintsKb, "chase footprints in KB, comma-separated")
        ->delimiter(',')
        ->check(CLI::Range(1u, 1u << 22));
    app.add_option("--chains", chainCounts, "chains walked in step, comma-separated (1 to 16)")
        ->delimiter(',')
        ->check(CLI::Range(1u, 16u));
    CLI11_PARSE(app, argc, argv);

    try {
        gpu::ContextOptions options;
        options.validation = validation;
        options.deviceIndex = device;
        gpu::Context ctx = gpu::createContext(options);
        if (!ctx.deviceClock) {
            std::fprintf(stderr, "vkboids-probe: error: %s cannot read a device clock in shaders\n",
                         ctx.properties.deviceName);
            return 2;
        }
        std::printf("device: %s, %s %s\n", ctx.properties.deviceName, ctx.driverName.c_str(),
                    ctx.driverInfo.c_str());
        gpu::Profiler profiler = gpu::createProfiler(ctx, 1);
        gpu::Buffer result = gpu::createBuffer(ctx, 64, gpu::storageUsage, gpu::MemoryUse::Device);
        gpu::Buffer starts = gpu::createBuffer(ctx, 64, gpu::storageUsage, gpu::MemoryUse::Device);

        const char* modeNames[] = {"plain", "coherent", "atomic"};
        std::printf("\nchase: ns per step (each step: one dependent load per chain)\n");
        std::printf("%12s %6s %10s %10s %10s\n", "footprint", "chains", "plain", "coherent", "atomic");
        for (uint32_t kb : footprintsKb) {
            const uint32_t lines = std::max(2u, uint32_t(uint64_t(kb) * 1024 / (lineWords * 4)));
            gpu::Buffer chain = gpu::createBuffer(ctx, VkDeviceSize(lines) * lineWords * 4, gpu::storageUsage,
                                                  gpu::MemoryUse::Device);
            for (uint32_t chains : chainCounts) {
                std::vector<uint32_t> words, first;
                makeCycle(lines, chains, words, first);
                gpu::uploadBuffer(ctx, chain, words.data(), words.size() * 4);
                gpu::uploadBuffer(ctx, starts, first.data(), first.size() * 4);
                std::printf("%9u KB %6u", kb, chains);
                for (uint32_t mode = 0; mode < 3; ++mode) {
                    gpu::Program program =
                        gpu::createComputeProgram(ctx, "probe_chase", {{0, mode}, {1, chains}});
                    const ChasePush push{steps, {}};
                    const double ns = timeDispatch(ctx, profiler, program, {chain, chain, starts, result}, 1,
                                                   &push, sizeof push);
                    // The dispatch walks twice: once to warm the caches, once timed by the device clock.
                    uint32_t r[3] = {};
                    gpu::downloadBuffer(ctx, result, r, sizeof r);
                    if (r[2] != walkChecksum(words, first, chains, 2 * steps)) {
                        std::fprintf(
                            stderr,
                            "\nvkboids-probe: error: the GPU's %s walk ended elsewhere than the CPU's\n",
                            modeNames[mode]);
                        return 4;
                    }
                    std::printf(" %10.1f", ns / (2.0 * steps));
                    gpu::destroyProgram(ctx, program);
                }
                std::printf("\n");
            }
            gpu::destroyBuffer(ctx, chain);
        }

        std::printf("\npingpong: two groups pass a counter with relaxed device-scope atomics\n");
        gpu::Buffer flags = gpu::createBuffer(ctx, 1024, gpu::storageUsage, gpu::MemoryUse::Device);
        gpu::fillBuffer(ctx, flags, 0);
        gpu::Program ping = gpu::createComputeProgram(
            ctx, "probe_pingpong", {{1, ctx.properties.limits.maxComputeSharedMemorySize / 4 - 64}});
        const PingPush push{rounds, {}};
        const double ns = timeDispatch(ctx, profiler, ping, {flags, result}, 2, &push, sizeof push);
        uint32_t r[8] = {};
        gpu::downloadBuffer(ctx, result, r, sizeof r);
        const double ticks = double(r[0]) + 4294967296.0 * r[1];
        if (r[2] != rounds || r[6] != rounds) {
            // Lavapipe runs groups on a few CPU threads; under load its counts can even disagree.
            std::printf("no hop time: the groups' rounds disagree (%u and %u of %u), so they did not run "
                        "together\n",
                        r[2], r[6], rounds);
        } else {
            std::printf("%u round trips: %.1f ns per hop (timestamps), %.1f device-clock ticks per hop\n",
                        rounds, ns / (2.0 * rounds), ticks / (2.0 * rounds));
        }
        gpu::destroyProgram(ctx, ping);
        gpu::destroyBuffer(ctx, flags);
        gpu::destroyBuffer(ctx, starts);
        gpu::destroyBuffer(ctx, result);
        gpu::destroyProfiler(ctx, profiler);
        gpu::destroyContext(ctx);
        if (gpu::validationErrorCount() > 0) return 3;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkboids-probe: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
