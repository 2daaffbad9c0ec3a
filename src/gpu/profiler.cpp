#include "gpu/profiler.h"

#include "gpu/buffer.h"
#include "gpu/commands.h"
#include "gpu/image.h"

#include <algorithm>
#include <limits>

namespace gpu {
namespace {

// lavapipe runs a dispatch (or a fill) to completion when its queue thread reaches it, but bins a
// timestamp into the current scene of its rasterizer, which writes it when the scene is next flushed
// and rasterized; once a rendering has bound its attachments (even in an earlier submission), a
// scope's begin timestamp is written after the scope's own dispatch has run. A pipeline barrier makes
// lavapipe flush and wait for the rasterizer, so a barrier behind each timestamp writes it in order.
void executionBarrier(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0);
}

void writeTimestamp(VkCommandBuffer cmd, VkQueryPool pool, uint32_t query, bool barrier) {
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, query);
    if (barrier) executionBarrier(cmd);
}

struct ProbeObjects {
    Buffer fills;
    Image image;
    VkQueryPool pool = VK_NULL_HANDLE;
};

// One probe run: a small cleared rendering, which binds the attachments a driver may bin its work
// into, then `fills` fills of probeFillBytes between two timestamps. Returns the milliseconds between
// the timestamps.
double timeFills(const Context& ctx, const ProbeObjects& o, uint32_t fills, bool barriers) {
    VkCommandBuffer cmd = beginOneShot(ctx);
    // The previous run's clear and fills are over before these overwrite them.
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    imageBarrier(cmd, o.image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                 VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    vkCmdResetQueryPool(cmd, o.pool, 0, 2);
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = o.image.view;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
    rendering.renderArea = {{0, 0}, {o.image.width, o.image.height}};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachments = &color;
    vkCmdBeginRendering(cmd, &rendering);
    vkCmdEndRendering(cmd);
    writeTimestamp(cmd, o.pool, 0, barriers);
    for (uint32_t i = 0; i < fills; ++i)
        vkCmdFillBuffer(cmd, o.fills.buffer, i * probeFillBytes, probeFillBytes, i);
    writeTimestamp(cmd, o.pool, 1, barriers);
    endOneShot(ctx, cmd);
    uint64_t ticks[2] = {};
    VK_CHECK(vkGetQueryPoolResults(ctx.device, o.pool, 0, 2, sizeof ticks, ticks, sizeof(uint64_t),
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    const uint64_t mask = ctx.timestampValidBits >= 64 ? ~0ull : (1ull << ctx.timestampValidBits) - 1;
    return double((ticks[1] - ticks[0]) & mask) * ctx.properties.limits.timestampPeriod * 1e-6;
}

} // namespace

const char* timestampTrustName(TimestampTrust trust) {
    switch (trust) {
    case TimestampTrust::Unavailable: return "unavailable";
    case TimestampTrust::Direct: return "direct";
    case TimestampTrust::Barriers: return "behind barriers";
    case TimestampTrust::Untrusted: return "untrusted";
    }
    return "?";
}

bool timesReported(TimestampTrust trust) {
    return trust == TimestampTrust::Direct || trust == TimestampTrust::Barriers;
}

TimestampTrust judgeTimestamps(double directMs, double barriersMs, double oneFillMs) {
    if (barriersMs <= 0) return TimestampTrust::Untrusted; // 16 MiB of fills take time on any device
    if (directMs >= barriersMs / 2) return TimestampTrust::Direct;
    if (oneFillMs > 0 && barriersMs >= 1.5 * oneFillMs) return TimestampTrust::Barriers;
    return TimestampTrust::Untrusted;
}

TimestampProbe probeTimestamps(const Context& ctx) {
    TimestampProbe probe;
    if (ctx.timestampValidBits == 0 || ctx.properties.limits.timestampPeriod <= 0) return probe;
    ProbeObjects o;
    o.fills = createBuffer(ctx, 4 * probeFillBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Device);
    o.image = createImage(ctx, 64, 64, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = 2;
    VK_CHECK(vkCreateQueryPool(ctx.device, &info, nullptr, &o.pool));
    // The fastest of five runs counts, because a loaded machine only ever adds time. The two kinds of
    // run are interleaved so that a GPU's clock rising from idle favours neither.
    constexpr int runs = 5;
    constexpr double none = std::numeric_limits<double>::infinity();
    double direct = none, barriers = none, one = none;
    for (int run = 0; run < runs; ++run) {
        direct = std::min(direct, timeFills(ctx, o, 4, false));
        barriers = std::min(barriers, timeFills(ctx, o, 4, true));
    }
    if (judgeTimestamps(direct, barriers, 0) != TimestampTrust::Direct)
        for (int run = 0; run < runs; ++run) one = std::min(one, timeFills(ctx, o, 1, true));
    vkDestroyQueryPool(ctx.device, o.pool, nullptr);
    destroyImage(ctx, o.image);
    destroyBuffer(ctx, o.fills);
    probe.directMs = direct;
    probe.barriersMs = barriers;
    probe.oneFillMs = one == none ? 0 : one;
    probe.trust = judgeTimestamps(direct, barriers, probe.oneFillMs);
    return probe;
}

Profiler createProfiler(const Context& ctx, uint32_t framesInFlight) {
    Profiler p;
    p.probe = probeTimestamps(ctx);
    p.periodNs = ctx.properties.limits.timestampPeriod;
    p.validMask = ctx.timestampValidBits >= 64 ? ~0ull : (1ull << ctx.timestampValidBits) - 1;
    p.names.resize(framesInFlight);
    if (!timesReported(p.probe.trust)) return p;
    p.pools.resize(framesInFlight);
    for (VkQueryPool& pool : p.pools) {
        VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        info.queryCount = 2 * Profiler::maxScopes;
        VK_CHECK(vkCreateQueryPool(ctx.device, &info, nullptr, &pool));
    }
    return p;
}

void destroyProfiler(const Context& ctx, Profiler& p) {
    for (VkQueryPool pool : p.pools) vkDestroyQueryPool(ctx.device, pool, nullptr);
    p = Profiler{};
}

void beginProfilerFrame(Profiler& p, VkCommandBuffer cmd, uint32_t frame) {
    p.frame = frame % uint32_t(p.names.size());
    p.names[p.frame].clear();
    if (timesReported(p.probe.trust)) vkCmdResetQueryPool(cmd, p.pools[p.frame], 0, 2 * Profiler::maxScopes);
}

std::vector<ScopeTime> readProfilerFrame(const Context& ctx, const Profiler& p, uint32_t frame) {
    frame %= uint32_t(p.names.size());
    const std::vector<std::string>& names = p.names[frame];
    std::vector<ScopeTime> out(names.size());
    for (size_t i = 0; i < names.size(); ++i) out[i].name = names[i];
    if (!timesReported(p.probe.trust) || names.empty()) return out;
    // Each query gives a pair (timestamp, availability). No WAIT flag is needed, because the caller
    // has already seen the frame's fence.
    std::vector<uint64_t> data(names.size() * 4);
    VkResult r = vkGetQueryPoolResults(ctx.device, p.pools[frame], 0, uint32_t(names.size() * 2),
                                       data.size() * sizeof(uint64_t), data.data(), 2 * sizeof(uint64_t),
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
    if (r != VK_SUCCESS && r != VK_NOT_READY) VK_CHECK(r);
    for (size_t i = 0; i < names.size(); ++i) {
        const uint64_t begin = data[4 * i], beginReady = data[4 * i + 1];
        const uint64_t end = data[4 * i + 2], endReady = data[4 * i + 3];
        if (!beginReady || !endReady) continue;
        const uint64_t ticks = (end - begin) & p.validMask;
        out[i].ms = double(ticks) * p.periodNs * 1e-6;
        out[i].valid = true;
    }
    return out;
}

Scope::Scope(Profiler* profiler, VkCommandBuffer cmd, const char* name) : profiler(profiler), cmd(cmd) {
    if (!profiler) return;
    std::vector<std::string>& names = profiler->names[profiler->frame];
    if (names.size() >= Profiler::maxScopes) throw Error("profiler: more than 128 scopes in one frame");
    index = uint32_t(names.size());
    names.emplace_back(name);
    if (timesReported(profiler->probe.trust))
        writeTimestamp(cmd, profiler->pools[profiler->frame], 2 * index,
                       profiler->probe.trust == TimestampTrust::Barriers);
}

Scope::~Scope() {
    if (profiler && timesReported(profiler->probe.trust))
        writeTimestamp(cmd, profiler->pools[profiler->frame], 2 * index + 1,
                       profiler->probe.trust == TimestampTrust::Barriers);
}

} // namespace gpu
