#version 460
// Digit histograms of every pass at once (one read of the keys): each work group counts a chunk
// in shared memory, four keys per invocation per load, then adds its counts to an accumulator with
// one atomic per non-zero bin. The last group to finish moves the sums to the totals the passes
// read, and leaves the accumulator zero for the next sort.
//
// The pass also clears what the passes after it count on finding zero: their tile counters and the
// tile status words they will use. Together that replaces a clear before the sort, a dispatch of its
// own. Ending every tile of every pass with a release of its own instead was 5% slower at 16M pairs
// (measured on an H200, as below): each release waited for its tile's scattered writes.
//
// Aggregation: an invocation's four keys often share a digit (the grid's keys arrive nearly sorted),
// and then one atomic counts all four. Subgroup-wide aggregation cost more than it saves
// (subgroupPartitionNV: 1.34 ms for 64M keys; ballots with an all-equal test: 0.25 ms). Four loads in
// flight an invocation gained nothing: the counting bounds the pass, not the loads. The chunk each
// group counts: tuning::histogramMinKeysPerGroup.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_memory_scope_semantics : require
// Before the includes: dispatch.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "sort_types.h"
#include "../dispatch.glsl"

layout(std430, binding = 0) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 1) writeonly buffer Totals { uint totals[]; };  // [pass][digit], what the passes read
layout(std430, binding = 2) readonly buffer Keys4 { uvec4 keys4[]; };   // the same keys, 16 bytes a load
layout(std430, binding = 3) buffer Counters { uint counters[]; };       // SORT_COUNTER_WORDS
layout(std430, binding = 4) writeonly buffer Status { uvec4 status4[]; };  // every pass's status words
layout(std430, binding = 5) buffer Accumulator { uint accumulator[]; };  // [pass][digit]; zero between sorts
layout(push_constant) uniform Push { SortHistogramConstants c; };

shared uint localHistogram[SORT_MAX_PASSES * SORT_RADIX];
shared bool sLastToFinish;

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
    if (linearGroupIndex() >= c.groups) return;  // uniform: the whole group leaves
    const uint tid = gl_LocalInvocationID.x;
    const uint bins = c.passCount * SORT_RADIX;
    for (uint i = tid; i < bins; i += gl_WorkGroupSize.x) localHistogram[i] = 0;
    for (uint i = linearInvocationIndex(); i < c.statusWords / 4; i += c.groups * gl_WorkGroupSize.x)
        status4[i] = uvec4(0);
    if (linearGroupIndex() == 0 && tid < SORT_MAX_PASSES) counters[tid] = 0;  // the passes' tile counters
    barrier();

    // The chunk is a multiple of 4 keys; the last one may end in 1 to 3 keys read one by one.
    const uint start = linearGroupIndex() * c.tileSize;
    const uint end = min(start + c.tileSize, c.count);
    const uint wholeEnd = start + (end - start) / 4 * 4;
    for (uint i = start / 4 + tid; i < wholeEnd / 4; i += gl_WorkGroupSize.x) countFour(keys4[i]);
    const uint tail = wholeEnd + tid;
    if (tail < end) {
        const uint key = keys[tail] & c.keyMask;
        for (uint pass = 0; pass < c.passCount; ++pass) atomicAdd(localHistogram[digitOf(key, pass)], 1u);
    }
    barrier();
    for (uint i = tid; i < bins; i += gl_WorkGroupSize.x)
        if (localHistogram[i] != 0) atomicAdd(accumulator[i], localHistogram[i]);

    // Each group's additions happen before it counts itself finished, so the last to finish sees
    // every one of them.
    const int semantics = gl_StorageSemanticsBuffer | gl_StorageSemanticsShared;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, semantics, gl_SemanticsAcquireRelease);
    if (tid == 0)
        sLastToFinish = atomicAdd(counters[SORT_HISTOGRAM_FINISHED], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                                  gl_SemanticsAcquireRelease) == c.groups - 1;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, semantics, gl_SemanticsAcquireRelease);
    if (!sLastToFinish) return;
    for (uint i = tid; i < bins; i += gl_WorkGroupSize.x) totals[i] = atomicExchange(accumulator[i], 0u);
    if (tid == 0) counters[SORT_HISTOGRAM_FINISHED] = 0;
}
