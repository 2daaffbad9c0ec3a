#version 460
// The scattered mode's velocities in sorted order: velSorted[k] is the velocity of the boid in sorted
// position k. The search reads its neighbours' positions through the sorted slots, but the rules'
// velocities from here, in order, rather than as a second gather per neighbour.
#extension GL_GOOGLE_include_directive : require
// Before the includes: dispatch.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "sim_types.h"
#include "common.glsl"

layout(std430, binding = 0) readonly buffer SortedSlots { uint sortedSlots[]; };
layout(std430, binding = 1) readonly buffer VelIn { vec4 velIn[]; };
layout(std430, binding = 2) writeonly buffer VelSorted { vec4 velSorted[]; };
layout(push_constant) uniform Push { StepConstants c; };

void main() {
    const uint k = linearInvocationIndex();
    if (k < c.boidCount) velSorted[k] = velIn[sortedSlots[k]];
}
