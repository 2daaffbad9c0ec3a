#version 460
// The compute path's target into the frame's colour image: each pixel's nearest boid, or the
// background. A compute pass, because the raster units this would otherwise take are few on some
// GPUs (Hopper): a full-screen fragment pass cost more than drawing a million boids.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 0) in;
#include "../dispatch.glsl"
#include "draw_types.h"

layout(std430, binding = 0) readonly buffer Target { uvec2 target[]; }; // (colour, depth bits)
layout(binding = 1) writeonly uniform image2D frame; // any 8-bit colour format: stores convert
layout(push_constant) uniform Push { DrawConstants c; };

void main() {
    const uint p = linearInvocationIndex();
    if (p >= c.width * c.height) return;
    const uvec2 word = target[p];
    const vec4 color = word.y == DRAW_EMPTY_DEPTH ? DRAW_BACKGROUND : unpackUnorm4x8(word.x);
    imageStore(frame, ivec2(p % c.width, p / c.width), color);
}
