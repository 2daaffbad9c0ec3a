#version 460
// Digit histograms of every pass at once (one read of the keys): each work group counts a chunk
// in shared memory, four keys per invocation per load, then adds its counts to the global
// histogram with one atomic per non-zero bin.
//
// Aggregation: an invocation's four keys often share a digit (the grid's keys arrive nearly sorted),
// and then one atomic counts all four. Subgroup-wide aggregation measured slower on the H200
// (subgroupPartitionNV: 1.34 ms for 64M keys; ballots with an all-equal test: 0.25 ms) than it saves.
#extension GL_GOOGLE_include_directive : require
// Before the includes: common.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "../shared.h"
#include "../common.glsl"

layout(std430, binding = 0) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 1) buffer Histogram { uint globalHistogram[]; };  // [pass][digit]
layout(std430, binding = 2) readonly buffer Keys4 { uvec4 keys4[]; };     // the same keys, 16 bytes a load
layout(push_constant) uniform Push { SortHistogramConstants c; };

shared uint localHistogram[SORT_MAX_PASSES * SORT_RADIX];

uint digitOf(uint key, uint pass) { return pass * SORT_RADIX + ((key >> (pass * SORT_RADIX_BITS)) & (SORT_RADIX - 1)); }

void countFour(uvec4 k) {
    k &= uvec4(c.keyMask);
    for (uint pass = 0; pass < c.passCount; ++pass) {
        const uint d0 = digitOf(k.x, pass), d1 = digitOf(k.y, pass), d2 = digitOf(k.z, pass), d3 = digitOf(k.w, pass);
        if (d0 == d1 && d1 == d2 && d2 == d3) {
            atomicAdd(localHistogram[d0], 4u);
        } else {
            atomicAdd(localHistogram[d0], 1u);
            atomicAdd(localHistogram[d1], 1u);
            atomicAdd(localHistogram[d2], 1u);
            atomicAdd(localHistogram[d3], 1u);
        }
    }
}

void main() {
    // A dispatch split over x and y (gpu::dispatchGroupsRaw) can launch a few groups too many.
    if (linearGroupIndex() * c.tileSize >= c.count) return;  // uniform: the whole group leaves
    const uint bins = c.passCount * SORT_RADIX;
    for (uint i = gl_LocalInvocationID.x; i < bins; i += gl_WorkGroupSize.x) localHistogram[i] = 0;
    barrier();

    // The chunk is a multiple of 4 keys; the last one may end in 1 to 3 keys read one by one.
    const uint start = linearGroupIndex() * c.tileSize;
    const uint end = min(start + c.tileSize, c.count);
    const uint wholeEnd = start + (end - start) / 4 * 4;
    for (uint i = start / 4 + gl_LocalInvocationID.x; i < wholeEnd / 4; i += gl_WorkGroupSize.x) countFour(keys4[i]);
    const uint tail = wholeEnd + gl_LocalInvocationID.x;
    if (tail < end) {
        const uint key = keys[tail] & c.keyMask;
        for (uint pass = 0; pass < c.passCount; ++pass) atomicAdd(localHistogram[digitOf(key, pass)], 1u);
    }
    barrier();
    for (uint i = gl_LocalInvocationID.x; i < bins; i += gl_WorkGroupSize.x)
        if (localHistogram[i] != 0) atomicAdd(globalHistogram[i], localHistogram[i]);
}
