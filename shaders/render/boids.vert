#version 460
// One point per boid, pulled straight from the simulation's buffers (vertex = boid).
#extension GL_GOOGLE_include_directive : require
#include "../shared.h"

layout(std430, binding = 0) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = 1) readonly buffer Vel { vec4 vel[]; };
layout(push_constant) uniform Push { DrawConstants c; };

layout(location = 0) out vec3 color;

// A perceptual ramp from deep purple (still) through teal to yellow (at the speed limit).
vec3 ramp(float t) {
    const vec3 a = vec3(0.27, 0.00, 0.33), b = vec3(0.13, 0.57, 0.55), d = vec3(0.99, 0.91, 0.14);
    return t < 0.5 ? mix(a, b, t * 2.0) : mix(b, d, t * 2.0 - 1.0);
}

void main() {
    const vec3 p = pos[gl_VertexIndex].xyz;
    const vec3 v = vel[gl_VertexIndex].xyz;
    const mat4 viewProj = mat4(c.viewProj[0], c.viewProj[1], c.viewProj[2], c.viewProj[3], c.viewProj[4],
                               c.viewProj[5], c.viewProj[6], c.viewProj[7], c.viewProj[8], c.viewProj[9],
                               c.viewProj[10], c.viewProj[11], c.viewProj[12], c.viewProj[13], c.viewProj[14],
                               c.viewProj[15]);
    gl_Position = viewProj * vec4(p, 1.0);
    gl_PointSize = c.pointSize;
    const float speed = length(v);
    if (c.colorMode == 0) color = ramp(clamp(speed / c.maxSpeed, 0.0, 1.0));
    else color = speed > 0.0 ? 0.5 + 0.5 * v / speed : vec3(0.5);
}
