#version 460
// The glyph path: each boid an arrowhead in the screen's plane along its velocity's screen direction
// (draw_types.h, GLYPH_*), one instance of GLYPH_VERTICES vertices a boid, pulled straight from the
// simulation's buffers. Every vertex takes the boid's depth: glyphs are depth-tested as points are.
#extension GL_GOOGLE_include_directive : require
#include "draw_types.h"
#include "color.glsl"

layout(std430, binding = 0) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = 1) readonly buffer Vel { vec4 vel[]; };
layout(push_constant) uniform Push { DrawConstants c; };

layout(location = 0) flat out vec3 color;

// Two triangles, (tip, left wing, notch) and (tip, notch, right wing): corners as (forward, side).
const uint corners[GLYPH_VERTICES] = uint[](0u, 1u, 2u, 0u, 2u, 3u);
const vec2 arrow[4] = vec2[](vec2(GLYPH_TIP, 0.0), vec2(-GLYPH_WING_BACK, GLYPH_WING_SIDE),
                             vec2(-GLYPH_NOTCH_BACK, 0.0), vec2(-GLYPH_WING_BACK, -GLYPH_WING_SIDE));
const vec2 diamond[4] = vec2[](vec2(GLYPH_DIAMOND_RADIUS, 0.0), vec2(0.0, GLYPH_DIAMOND_RADIUS),
                               vec2(-GLYPH_DIAMOND_RADIUS, 0.0), vec2(0.0, -GLYPH_DIAMOND_RADIUS));

void main() {
    const uint i = uint(gl_InstanceIndex);
    const mat4 m = viewProjection(c);
    const vec3 p = pos[i].xyz, v = vel[i].xyz;
    const vec4 clip = m * vec4(p, 1.0);
    color = boidColor(p, v, i, clip.w, c);
    if (!(clip.w > 0.0)) {
        gl_Position = vec4(0.0, 0.0, -1.0, 1.0); // behind the camera: every vertex here, clipped
        return;
    }
    // The screen motion, in pixels, of moving along each axis (the projection's derivative, up to the
    // common factor 1 / w^2), and of moving along the heading.
    const vec2 toPixels = 0.5 * vec2(c.width, c.height);
    const vec2 dx = (m[0].xy * clip.w - clip.xy * m[0].w) * toPixels;
    const vec2 dy = (m[1].xy * clip.w - clip.xy * m[1].w) * toPixels;
    const vec2 dz = (m[2].xy * clip.w - clip.xy * m[2].w) * toPixels;
    const float speed = length(v);
    const vec3 h = speed > 0.0 ? v / speed : vec3(0.0);
    const vec2 heading = dx * h.x + dy * h.y + dz * h.z;
    // Half the sum of squares is the squared motion of a sideways step: a heading far shorter points
    // along the view ray. Written so that NaN takes the diamond too.
    const float sideways = 0.5 * (dot(dx, dx) + dot(dy, dy) + dot(dz, dz));
    const bool pointed = dot(heading, heading) > GLYPH_MIN_SCREEN_HEADING * GLYPH_MIN_SCREEN_HEADING * sideways;
    const vec2 forward = pointed ? normalize(heading) : vec2(1.0, 0.0);
    const uint k = corners[gl_VertexIndex];
    const vec2 corner = pointed ? arrow[k] : diamond[k];
    const vec2 offset = (corner.x * forward + corner.y * vec2(-forward.y, forward.x)) * c.glyphSize;
    gl_Position = vec4(clip.xy + offset / toPixels * clip.w, clip.z, clip.w);
}
