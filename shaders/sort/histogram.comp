#version 460
// Digit histograms of every pass at once (one read of the keys): each work group counts its chunk
// in shared memory, then adds its counts to the global histogram, one atomic per non-zero bin.
// Within a subgroup, lanes with the same digit are aggregated into one shared atomic.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require
#ifdef SORT_PARTITION_NV
#extension GL_NV_shader_subgroup_partitioned : require
#endif
// Before the includes: common.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "../shared.h"
#include "../common.glsl"


layout(std430, binding = 0) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 1) buffer Histogram { uint globalHistogram[]; };  // [pass][digit]
layout(push_constant) uniform Push { SortHistogramConstants c; };

shared uint localHistogram[SORT_MAX_PASSES * SORT_RADIX];

// Called by every lane of the subgroup (uniform control flow: lavapipe's ballots in divergent
// control flow miscounted partial subgroups); lanes without a key pass valid = false.
void countDigit(uint bin, bool valid) {
#ifdef SORT_PARTITION_NV
    const uvec4 peers = subgroupPartitionNV(valid ? bin : 0xffffffffu);
    if (valid && subgroupBallotFindLSB(peers) == gl_SubgroupInvocationID)
        atomicAdd(localHistogram[bin], subgroupBallotBitCount(peers));
#else
    // Keys that are already grouped (the grid's cell keys often are) would all hit one counter:
    // when every valid lane has the first valid lane's digit, that lane counts them all.
    const uvec4 validLanes = subgroupBallot(valid);
    const uint leader = subgroupBallotFindLSB(validLanes);
    const uint leaderBin = subgroupShuffle(bin, leader);
    if (subgroupAll(!valid || bin == leaderBin)) {
        if (gl_SubgroupInvocationID == leader && valid)
            atomicAdd(localHistogram[bin], subgroupBallotBitCount(validLanes));
    } else if (valid) {
        atomicAdd(localHistogram[bin], 1u);
    }
#endif
}

void main() {
    const uint bins = c.passCount * SORT_RADIX;
    for (uint i = gl_LocalInvocationID.x; i < bins; i += gl_WorkGroupSize.x) localHistogram[i] = 0;
    barrier();

    const uint start = linearGroupIndex() * c.tileSize;
    const uint end = min(start + c.tileSize, c.count);
    for (uint base = start; base < end; base += gl_WorkGroupSize.x) {
        const uint i = base + gl_LocalInvocationID.x;
        const bool valid = i < end;
        const uint key = valid ? keys[i] & c.keyMask : 0u;
        for (uint pass = 0; pass < c.passCount; ++pass)
            countDigit(pass * SORT_RADIX + ((key >> (pass * SORT_RADIX_BITS)) & (SORT_RADIX - 1)), valid);
    }
    barrier();
    for (uint i = gl_LocalInvocationID.x; i < bins; i += gl_WorkGroupSize.x)
        if (localHistogram[i] != 0) atomicAdd(globalHistogram[i], localHistogram[i]);
}
