#version 460
// The hardware path: one point per boid, pulled straight from the simulation's buffers.
#extension GL_GOOGLE_include_directive : require
#include "draw_types.h"
#include "color.glsl"

layout(std430, binding = 0) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = 1) readonly buffer Vel { vec4 vel[]; };
layout(push_constant) uniform Push { DrawConstants c; };

layout(location = 0) out vec3 color;

void main() {
    const uint i = uint(gl_VertexIndex);
    gl_Position = viewProjection(c) * vec4(pos[i].xyz, 1.0);
    gl_PointSize = c.pointSize;
    color = boidColor(pos[i].xyz, vel[i].xyz, i, gl_Position.w, c);
}
