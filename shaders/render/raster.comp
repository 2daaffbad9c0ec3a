#version 460
// The compute path: each boid projected and written into its pixels with one 64-bit atomicMin of
// (depth, colour), instead of a point primitive through the raster units (Schuetz, Kerbl and
// Wimmer, "Rendering Point Clouds with Compute Shaders", 2021).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x_id = 0) in;
#include "../dispatch.glsl"
#include "draw_types.h"
#include "color.glsl"

layout(std430, binding = 0) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = 1) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = 2) buffer Target { uint64_t target[]; };
layout(push_constant) uniform Push { DrawConstants c; };

void main() {
    const uint i = linearInvocationIndex();
    if (i >= c.count) return;
    const vec3 position = pos[i].xyz;
    const vec4 clip = viewProjection(c) * vec4(position, 1.0);
    // Behind the camera, or outside the depth range: not drawn (as the hardware clips it).
    if (!(clip.w > 0.0) || clip.z < 0.0 || clip.z > clip.w) return;
    const vec2 pixel = (clip.xy / clip.w * 0.5 + 0.5) * vec2(c.width, c.height);
    const int size = int(c.pointSize);
    // The footprint: size x size pixels around the point, corners cut from 3 px up so it reads round.
    const vec2 corner = floor(pixel - 0.5 * float(size - 1));
    // Written so that NaN fails too; huge coordinates leave here, before any conversion to int.
    if (!(corner.x < float(c.width) && corner.y < float(c.height) && corner.x + float(size) > 0.0 &&
          corner.y + float(size) > 0.0))
        return;
    const uint depth = floatBitsToUint(clip.z / clip.w);
    const ivec2 first = ivec2(corner);
    uint64_t word = 0;
    bool shaded = false;
    for (int dy = 0; dy < size; ++dy)
        for (int dx = 0; dx < size; ++dx) {
            const bool cut = size >= 3 && (dx == 0 || dx == size - 1) && (dy == 0 || dy == size - 1);
            const ivec2 q = first + ivec2(dx, dy);
            if (cut || q.x < 0 || q.y < 0 || q.x >= int(c.width) || q.y >= int(c.height)) continue;
            const uint p = uint(q.y) * c.width + uint(q.x);
            // Most boids of a dense flock lie behind a nearer one: a plain read spares them the
            // atomic, and the velocity read and colour until some pixel of theirs is in front. A word
            // only decreases between clears, so a stale read is never below the word itself: it can
            // cost an atomic, never skip one that would win.
            const uint64_t current = target[p];
            if (depth > uint(current >> 32)) continue;
            if (!shaded) {
                const uint color = packUnorm4x8(vec4(boidColor(position, vel[i].xyz, i, clip.w, c), 1.0));
                word = (uint64_t(depth) << 32) | uint64_t(color);
                shaded = true;
            }
            if (word < current) atomicMin(target[p], word);
        }
}
