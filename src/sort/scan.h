#pragma once
// GPU exclusive scan (prefix sum) of 32-bit unsigned integers, in levels: each group reduces a chunk
// to its total, the totals are scanned (the same way, one level up, until one group holds them all),
// then each group scans its chunk again and adds its chunk's scanned total (shaders/sort/scan.comp).
// Records into the caller's command buffer and ends with a compute-to-compute barrier; sums wrap
// modulo 2^32.

#include "gpu/commands.h"

namespace sort {

// Tests set these to small chunks to reach several levels with few elements.
struct ScanOptions {
    uint32_t workgroupSize = 0;      // 0: tuning::scanWorkgroupSize or fewer, whole subgroups
    uint32_t itemsPerInvocation = 0; // 0: tuning::scanItemsPerInvocation
};

struct Scanner {
    gpu::Program program;
    gpu::Buffer sums; // each level's chunk totals
    uint32_t capacity = 0;
    uint32_t chunk = 0; // elements a group
};

// Throws gpu::Error (or gpu::OutOfMemory) when the options or the capacity do not fit the device.
Scanner createScanner(const gpu::Context& context, uint32_t capacity, const ScanOptions& options = {});
void destroyScanner(const gpu::Context& context, Scanner& scanner);

// out[i * outStride] = in[0] + ... + in[i - 1] for i < count (count <= capacity): outStride 2 writes
// the first word of each of `count` uvec2s. `in` may be `out` when outStride is 1. Begins with a
// compute-to-compute barrier (the caller's writes of `in`, the previous scan's reads of the sums).
void recordExclusiveScan(VkCommandBuffer cmd, const Scanner& scanner, const gpu::Resource& in,
                         const gpu::Resource& out, uint32_t count, uint32_t outStride = 1);

} // namespace sort
