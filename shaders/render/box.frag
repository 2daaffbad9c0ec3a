#version 460
// The box's edges, faint. Over the compute path's frame there is no depth attachment: an edge
// fragment is hidden where the target holds a nearer boid.
#extension GL_GOOGLE_include_directive : require
#include "draw_types.h"

layout(push_constant) uniform Push { DrawConstants c; };
#ifdef OVER_TARGET
layout(std430, binding = 0) readonly buffer Target { uvec2 target[]; }; // (colour, depth bits)
#endif
layout(location = 0) out vec4 outColor;

void main() {
#ifdef OVER_TARGET
    const uint nearest = target[uint(gl_FragCoord.y) * c.width + uint(gl_FragCoord.x)].y;
    if (nearest != DRAW_EMPTY_DEPTH && gl_FragCoord.z > uintBitsToFloat(nearest)) discard;
#endif
    outColor = vec4(0.22, 0.24, 0.30, 0.45); // premultiplied alpha
}
