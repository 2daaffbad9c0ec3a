#version 460
// Each boid's (grid key, slot) pair: what the radix sort orders.
#extension GL_GOOGLE_include_directive : require
// Before the includes: dispatch.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "sim_types.h"
#include "common.glsl"


layout(std430, binding = 0) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = 1) writeonly buffer Keys { uint cellKeys[]; };
layout(std430, binding = 2) writeonly buffer Slots { uint slots[]; };
layout(push_constant) uniform Push { StepConstants c; };

void main() {
    const uint i = linearInvocationIndex();
    if (i >= c.boidCount) return;
    cellKeys[i] = gridKey(pos[i].xyz, c);
    slots[i] = i;
}
