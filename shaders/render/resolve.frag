#version 460
// The compute path's target into the frame: each covered pixel's colour, and its depth, so that the
// box drawn next is hidden behind nearer boids.
#extension GL_GOOGLE_include_directive : require
#include "draw_types.h"

layout(std430, binding = 0) readonly buffer Target { uvec2 target[]; }; // (colour, depth bits)
layout(push_constant) uniform Push { DrawConstants c; };
layout(location = 0) out vec4 outColor;

void main() {
    const uvec2 word = target[uint(gl_FragCoord.y) * c.width + uint(gl_FragCoord.x)];
    if (word.y == DRAW_EMPTY_DEPTH) discard;
    outColor = unpackUnorm4x8(word.x);
    gl_FragDepth = uintBitsToFloat(word.y);
}
