#version 460
// The flock's totals of the counting twin's per-boid counts (sim::countSearch): candidates,
// neighbours, steps and rule steps, each a 64-bit sum in two words (low, high), one atomic pair per
// subgroup. Counts are split into 16-bit halves so that no subgroup's sum of a half can overflow 32
// bits.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Before the includes: dispatch.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "sim_types.h"
#include "common.glsl"

layout(std430, binding = 0) readonly buffer Counts { uvec4 counts[]; };
layout(std430, binding = 1) buffer Totals { uint totals[8]; };  // each count's low and high word
layout(push_constant) uniform Push { StepConstants c; };

// Adds a subgroup's sum of x (given as its 16-bit halves' sums) to the 64-bit total at totals[at].
void addTotal(uint at, uint lowHalves, uint highHalves) {
    // sum = highHalves * 2^16 + lowHalves, as two words.
    const uint low = (highHalves << 16) + lowHalves;
    const uint high = (highHalves >> 16) + (low < lowHalves ? 1u : 0u);
    const uint before = atomicAdd(totals[at], low);
    const uint carry = before + low < before ? 1u : 0u;
    if (high + carry != 0) atomicAdd(totals[at + 1], high + carry);
}

void main() {
    // Every invocation takes part in the subgroup sums; those past the last boid add zero.
    const uint i = linearInvocationIndex();
    const uvec4 n = i < c.boidCount ? counts[i] : uvec4(0);
    const uvec4 low = subgroupAdd(n & 0xffffu), high = subgroupAdd(n >> 16);
    if (subgroupElect())
        for (uint k = 0; k < 4; ++k) addTotal(2 * k, low[k], high[k]);
}
