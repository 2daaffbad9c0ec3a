#version 460
// Reduce-then-scan sort, second step of a pass: work group d scans row d of the upsweep's
// [digit][tile] counts in place into exclusive prefix sums, in chunks of 4 x local size tiles with a
// running carry (any number of tiles), and writes the row's sum, the count of digit d, for the
// downsweep. Rows in parallel, one group each, rather than one group over the whole array: each
// group reads and writes only its own row.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint MAX_SUBGROUPS = 8;  // local size / subgroup size
#include "sort_types.h"
#include "../dispatch.glsl"
#include "subgroup_index.glsl"

layout(std430, binding = 0) buffer TileCounts { uvec4 tileCounts4[]; };  // [digit][tile], rows of rowStride
layout(std430, binding = 1) writeonly buffer DigitTotals { uint digitTotals[]; };
layout(push_constant) uniform Push { SortSweepConstants c; };

shared uint sSubgroupSums[MAX_SUBGROUPS];
shared uint sChunkSum;

void main() {
    const uint digit = linearGroupIndex();
    if (digit >= SORT_RADIX) return;  // uniform
    const uint tid = subgroupMajorIndex();
    const uint row = digit * (c.rowStride / 4);
    uint carry = 0;
    for (uint first = 0; first < c.tileCount; first += 4 * gl_WorkGroupSize.x) {
        const uint v = first / 4 + tid;
        const uint t = v * 4;  // the first tile of this invocation's four
        uvec4 x = t < c.tileCount ? tileCounts4[row + v] : uvec4(0);
        // Past the last tile the row's padding holds whatever was there.
        x *= uvec4(lessThan(uvec4(t) + uvec4(0, 1, 2, 3), uvec4(c.tileCount)));
        const uint sum = x.x + x.y + x.z + x.w;
        const uint inclusive = subgroupInclusiveAdd(sum);
        if (gl_SubgroupInvocationID == gl_SubgroupSize - 1) sSubgroupSums[gl_SubgroupID] = inclusive;
        barrier();
        // Subgroup 0 scans the subgroups' sums, a subgroup's worth at a time.
        if (gl_SubgroupID == 0) {
            uint run = 0;
            for (uint s = 0; s < gl_NumSubgroups; s += gl_SubgroupSize) {
                const uint i = s + gl_SubgroupInvocationID;
                const uint y = i < gl_NumSubgroups ? sSubgroupSums[i] : 0u;
                const uint before = subgroupExclusiveAdd(y);
                if (i < gl_NumSubgroups) sSubgroupSums[i] = run + before;
                run += subgroupAdd(y);
            }
            if (gl_SubgroupInvocationID == 0) sChunkSum = run;
        }
        barrier();
        const uint e = carry + sSubgroupSums[gl_SubgroupID] + inclusive - sum;
        if (t < c.tileCount) tileCounts4[row + v] = uvec4(e, e + x.x, e + x.x + x.y, e + x.x + x.y + x.z);
        carry += sChunkSum;
        barrier();  // sSubgroupSums and sChunkSum are read before the next chunk writes them
    }
    if (tid == 0) digitTotals[digit] = carry;
}
