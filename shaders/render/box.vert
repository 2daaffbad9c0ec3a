#version 460
// The 12 edges of the domain [-L, L]^3 as 24 line-list vertices.
#extension GL_GOOGLE_include_directive : require
#include "draw_types.h"
#include "color.glsl"

layout(push_constant) uniform Push { DrawConstants c; };

const ivec3 ends[24] = ivec3[](
    ivec3(-1, -1, -1), ivec3(1, -1, -1), ivec3(-1, 1, -1), ivec3(1, 1, -1),
    ivec3(-1, -1, 1), ivec3(1, -1, 1), ivec3(-1, 1, 1), ivec3(1, 1, 1),
    ivec3(-1, -1, -1), ivec3(-1, 1, -1), ivec3(1, -1, -1), ivec3(1, 1, -1),
    ivec3(-1, -1, 1), ivec3(-1, 1, 1), ivec3(1, -1, 1), ivec3(1, 1, 1),
    ivec3(-1, -1, -1), ivec3(-1, -1, 1), ivec3(1, -1, -1), ivec3(1, -1, 1),
    ivec3(-1, 1, -1), ivec3(-1, 1, 1), ivec3(1, 1, -1), ivec3(1, 1, 1));

void main() {
    gl_Position = viewProjection(c) * vec4(vec3(ends[gl_VertexIndex]) * c.domainHalf, 1.0);
}
