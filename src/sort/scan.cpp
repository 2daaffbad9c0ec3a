#include "sort/scan.h"

#include "sort/sort_types.h"
#include "tuning.h"

#include <algorithm>
#include <vector>

namespace sort {
namespace {

// Each level's sums start on a 256-byte boundary (the largest minStorageBufferOffsetAlignment).
constexpr uint64_t levelAlignWords = 64;

// The element counts of the levels above `count`: each the number of chunks of the one below, down
// to (and including) the first that one group scans.
std::vector<uint32_t> levelCounts(uint32_t count, uint32_t chunk) {
    std::vector<uint32_t> levels;
    while (count > chunk) {
        count = gpu::groupCount(count, chunk);
        levels.push_back(count);
    }
    return levels;
}

uint64_t levelOffsetWords(const std::vector<uint32_t>& levels, size_t level) {
    uint64_t words = 0;
    for (size_t l = 0; l < level; ++l)
        words += (levels[l] + levelAlignWords - 1) / levelAlignWords * levelAlignWords;
    return words;
}

void scanLevel(VkCommandBuffer cmd, const Scanner& s, const gpu::Resource& in, const gpu::Resource& out,
               uint32_t count, uint32_t outStride, const std::vector<uint32_t>& levels, size_t level) {
    using gpudata::ScanConstants;
    if (count <= s.chunk) {
        gpu::bindProgram(cmd, s.program, {in, out, s.sums});
        gpu::dispatchGroups(cmd, s.program, 1, ScanConstants{count, outStride, 0, 0});
        // The scan is its consumer's input (the next level's add, or the caller's).
        gpu::computeBarrier(cmd);
        return;
    }
    const uint32_t groups = levels[level];
    const gpu::Resource sums(s.sums, 4 * levelOffsetWords(levels, level), 4ull * groups);
    gpu::bindProgram(cmd, s.program, {in, in, sums});
    gpu::dispatchGroups(cmd, s.program, groups, ScanConstants{count, 1, 1, 0});
    // The chunk totals are the next level's input.
    gpu::computeBarrier(cmd);
    scanLevel(cmd, s, sums, sums, groups, 1, levels, level + 1);
    gpu::bindProgram(cmd, s.program, {in, out, sums});
    gpu::dispatchGroups(cmd, s.program, groups, ScanConstants{count, outStride, 0, 1});
    // The scan is its consumer's input.
    gpu::computeBarrier(cmd);
}

} // namespace

Scanner createScanner(const gpu::Context& ctx, uint32_t capacity, const ScanOptions& options) {
    Scanner s;
    const uint32_t subgroup = gpu::preferredSubgroupSize(ctx);
    CHECK(subgroup > 0); // Vulkan 1.3 guarantees subgroup size control in compute
    const auto& limits = ctx.properties.limits;
    uint32_t wg = options.workgroupSize;
    if (!wg) {
        wg = std::min<uint32_t>({tuning::scanWorkgroupSize, limits.maxComputeWorkGroupInvocations,
                                 limits.maxComputeWorkGroupSize[0],
                                 subgroup * ctx.maxComputeWorkgroupSubgroups});
        wg = std::max(wg / subgroup * subgroup, subgroup);
    }
    if (wg % subgroup != 0 || wg > limits.maxComputeWorkGroupInvocations ||
        wg > limits.maxComputeWorkGroupSize[0])
        throw gpu::Error("scan: a work group of " + std::to_string(wg) +
                         " invocations does not fit this device's subgroups and limits");
    const uint32_t items =
        options.itemsPerInvocation ? options.itemsPerInvocation : tuning::scanItemsPerInvocation;
    s.chunk = wg * items;
    s.capacity = capacity;
    s.program =
        gpu::createComputeProgram(ctx, "sort_scan", {{gpu::localSizeX, wg}, {"ITEMS", items}}, subgroup);
    const std::vector<uint32_t> levels = levelCounts(std::max(capacity, 1u), s.chunk);
    const uint64_t words = std::max<uint64_t>(levelOffsetWords(levels, levels.size()), 1);
    try {
        s.sums = gpu::createBuffer(ctx, 4 * words, gpu::storageUsage, gpu::MemoryUse::Device);
    } catch (...) {
        gpu::destroyProgram(ctx, s.program);
        throw;
    }
    return s;
}

void destroyScanner(const gpu::Context& ctx, Scanner& s) {
    gpu::destroyProgram(ctx, s.program);
    gpu::destroyBuffer(ctx, s.sums);
    s = Scanner{};
}

void recordExclusiveScan(VkCommandBuffer cmd, const Scanner& s, const gpu::Resource& in,
                         const gpu::Resource& out, uint32_t count, uint32_t outStride) {
    CHECK(count <= s.capacity && outStride >= 1);
    if (count == 0) return;
    // The caller's writes of the input, and the previous scan's use of the sums, are done.
    gpu::computeBarrier(cmd);
    scanLevel(cmd, s, in, out, count, outStride, levelCounts(count, s.chunk), 0);
}

} // namespace sort
