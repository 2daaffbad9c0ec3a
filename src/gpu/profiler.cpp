#include "gpu/profiler.h"

namespace gpu {

Profiler createProfiler(const Context& ctx, uint32_t framesInFlight) {
    Profiler p;
    p.supported = ctx.timestampValidBits > 0 && ctx.properties.limits.timestampPeriod > 0;
    p.periodNs = ctx.properties.limits.timestampPeriod;
    p.validMask = ctx.timestampValidBits >= 64 ? ~0ull : (1ull << ctx.timestampValidBits) - 1;
    p.names.resize(framesInFlight);
    if (!p.supported) return p;
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
    if (p.supported) vkCmdResetQueryPool(cmd, p.pools[p.frame], 0, 2 * Profiler::maxScopes);
}

std::vector<ScopeTime> readProfilerFrame(const Context& ctx, const Profiler& p, uint32_t frame) {
    frame %= uint32_t(p.names.size());
    const std::vector<std::string>& names = p.names[frame];
    std::vector<ScopeTime> out(names.size());
    for (size_t i = 0; i < names.size(); ++i) out[i].name = names[i];
    if (!p.supported || names.empty()) return out;
    // Pairs of (timestamp, availability); no WAIT flag: the caller has seen the frame's fence.
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
    if (profiler->supported)
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, profiler->pools[profiler->frame],
                             2 * index);
}

Scope::~Scope() {
    if (profiler && profiler->supported)
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, profiler->pools[profiler->frame],
                             2 * index + 1);
}

} // namespace gpu
