#version 460
// One screen-facing quad per boid, straight from the simulation's buffers (instance = boid).
#extension GL_GOOGLE_include_directive : require
#include "../shared.h"

layout(std430, binding = 0) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = 1) readonly buffer Vel { vec4 vel[]; };
layout(push_constant) uniform Push { DrawConstants c; };

layout(location = 0) out vec3 color;
layout(location = 1) out vec2 corner;

const vec2 corners[4] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, 1));

// A perceptual ramp from deep blue (still) through teal and green to yellow (at the speed limit).
vec3 ramp(float t) {
    const vec3 a = vec3(0.27, 0.00, 0.33), b = vec3(0.13, 0.57, 0.55), d = vec3(0.99, 0.91, 0.14);
    return t < 0.5 ? mix(a, b, t * 2.0) : mix(b, d, t * 2.0 - 1.0);
}

void main() {
    const vec3 p = pos[gl_InstanceIndex].xyz;
    const vec3 v = vel[gl_InstanceIndex].xyz;
    const mat4 viewProj = mat4(c.viewProj[0], c.viewProj[1], c.viewProj[2], c.viewProj[3], c.viewProj[4],
                               c.viewProj[5], c.viewProj[6], c.viewProj[7], c.viewProj[8], c.viewProj[9],
                               c.viewProj[10], c.viewProj[11], c.viewProj[12], c.viewProj[13], c.viewProj[14],
                               c.viewProj[15]);
    vec4 clip = viewProj * vec4(p, 1.0);
    corner = corners[gl_VertexIndex];
    clip.xy += corner * c.pointSize / vec2(c.viewportWidth, c.viewportHeight) * clip.w;
    gl_Position = clip;
    const float speed = length(v);
    if (c.colorMode == 0) color = ramp(clamp(speed / c.maxSpeed, 0.0, 1.0));
    else color = speed > 0.0 ? 0.5 + 0.5 * v / speed : vec3(0.5);
}
