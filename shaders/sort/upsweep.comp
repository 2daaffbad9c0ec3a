#version 460
// Reduce-then-scan sort, first step of a pass: each work group counts the digits of its tile (the
// keys the downsweep's group of the same index ranks) in shared memory and writes the 256 counts to
// [digit][tile] for the spine. It reads the keys only, 16 bytes a load, every load of an
// invocation issued before its counting.
//
// Aggregation: an invocation's four keys often share a digit (grid keys arrive nearly sorted), and
// then one atomic counts all four; where a whole subgroup's keys share one, one atomic counts the
// subgroup's.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint KEYS_PER_THREAD = 8;  // the downsweep's: tiles of local size x this
#include "sort_types.h"
#include "../dispatch.glsl"

layout(std430, binding = 0) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 1) readonly buffer Keys4 { uvec4 keys4[]; };  // the same keys, 16 bytes a load
layout(std430, binding = 2) writeonly buffer TileCounts { uint tileCounts[]; };  // [digit][tile]
layout(push_constant) uniform Push { SortSweepConstants c; };

const uint TILE = gl_WorkGroupSize.x * KEYS_PER_THREAD;  // a multiple of 4 (createSorter checks)
const uint LOADS = (KEYS_PER_THREAD + 3) / 4;

shared uint sCounts[SORT_RADIX];

uvec4 digitsOf(uvec4 k) { return ((k & uvec4(c.keyMask)) >> c.shift) & uvec4(SORT_RADIX - 1); }

void countFour(uvec4 d) {
    const bool same = all(equal(d, d.xxxx));
    if (subgroupAll(same) && subgroupAllEqual(d.x)) {
        const uint lanes = subgroupBallotBitCount(subgroupBallot(true));  // before one lane is elected
        if (subgroupElect()) atomicAdd(sCounts[d.x], 4u * lanes);
    } else if (same) {
        atomicAdd(sCounts[d.x], 4u);
    } else {
        atomicAdd(sCounts[d.x], 1u);
        atomicAdd(sCounts[d.y], 1u);
        atomicAdd(sCounts[d.z], 1u);
        atomicAdd(sCounts[d.w], 1u);
    }
}

void main() {
    const uint tile = linearGroupIndex();
    if (tile >= c.tileCount) return;  // uniform: spare groups of a dispatch split over x and y
    const uint tid = gl_LocalInvocationID.x;
    for (uint d = tid; d < SORT_RADIX; d += gl_WorkGroupSize.x) sCounts[d] = 0;

    const uint start = tile * TILE;
    const uint end = min(start + TILE, c.count);
    const uint whole = (end - start) / 4;  // whole groups of four keys
    uvec4 loaded[LOADS];
    [[unroll]] for (uint j = 0; j < LOADS; ++j) {
        const uint v = j * gl_WorkGroupSize.x + tid;
        loaded[j] = v < whole ? keys4[start / 4 + v] : uvec4(0);
    }
    barrier();
    [[unroll]] for (uint j = 0; j < LOADS; ++j)
        if (j * gl_WorkGroupSize.x + tid < whole) countFour(digitsOf(loaded[j]));
    // The last tile may end in 1 to 3 keys, counted one by one.
    const uint tail = start + whole * 4 + tid;
    if (tail < end) atomicAdd(sCounts[digitsOf(uvec4(keys[tail])).x], 1u);
    barrier();
    for (uint d = tid; d < SORT_RADIX; d += gl_WorkGroupSize.x) tileCounts[d * c.rowStride + tile] = sCounts[d];
}
