#version 460
// The 12 edges of the domain [-L, L]^3 as 24 line-list vertices.
#extension GL_GOOGLE_include_directive : require
#include "../shared.h"

layout(push_constant) uniform Push { DrawConstants c; };

const ivec3 ends[24] = ivec3[](
    ivec3(-1, -1, -1), ivec3(1, -1, -1), ivec3(-1, 1, -1), ivec3(1, 1, -1),
    ivec3(-1, -1, 1), ivec3(1, -1, 1), ivec3(-1, 1, 1), ivec3(1, 1, 1),
    ivec3(-1, -1, -1), ivec3(-1, 1, -1), ivec3(1, -1, -1), ivec3(1, 1, -1),
    ivec3(-1, -1, 1), ivec3(-1, 1, 1), ivec3(1, -1, 1), ivec3(1, 1, 1),
    ivec3(-1, -1, -1), ivec3(-1, -1, 1), ivec3(1, -1, -1), ivec3(1, -1, 1),
    ivec3(-1, 1, -1), ivec3(-1, 1, 1), ivec3(1, 1, -1), ivec3(1, 1, 1));

void main() {
    const mat4 viewProj = mat4(c.viewProj[0], c.viewProj[1], c.viewProj[2], c.viewProj[3], c.viewProj[4],
                               c.viewProj[5], c.viewProj[6], c.viewProj[7], c.viewProj[8], c.viewProj[9],
                               c.viewProj[10], c.viewProj[11], c.viewProj[12], c.viewProj[13], c.viewProj[14],
                               c.viewProj[15]);
    gl_Position = viewProj * vec4(vec3(ends[gl_VertexIndex]) * c.halfDomain, 1.0);
}
