#version 460
// All pairs, tiled through shared memory. Each invocation owns one boid; the work group stages
// TILE positions at a time and every invocation tests them all.
//
// Per pair, a cheap test runs first: with d = p_j - p_i in (-2L, 2L), the minimum-image distance
// along an axis is L - | |d| - L |, so a pair can be a neighbour only if | |d| - L | > L - max(r)
// on all three axes (a cube around the boid). That is 8 instructions. Few pairs pass (about 1 in
// 10^4 at the default density), and only those take the exact branch of the contract.
#extension GL_GOOGLE_include_directive : require
// Before the includes: common.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "../shared.h"
#include "../common.glsl"


layout(std430, binding = 0) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 1) readonly buffer VelIn { vec4 velIn[]; };
layout(std430, binding = 2) writeonly buffer PosOut { vec4 posOut[]; };
layout(std430, binding = 3) writeonly buffer VelOut { vec4 velOut[]; };
layout(push_constant) uniform Push { StepConstants c; };

shared vec4 tile[gl_WorkGroupSize.x];

void main() {
    const uint n = c.boidCount;
    const uint i = linearInvocationIndex();
    const bool owned = i < n;
    const float L = c.halfDomain;
    const vec3 p = owned ? posIn[i].xyz : vec3(0);
    Neighbours sums = noNeighbours();

    // No early return: every invocation takes part in staging and barriers.
    for (uint base = 0; base < n; base += gl_WorkGroupSize.x) {
        const uint j = base + gl_LocalInvocationID.x;
        tile[gl_LocalInvocationID.x] = j < n ? posIn[j] : vec4(0);
        barrier();
        const uint count = min(gl_WorkGroupSize.x, n - base);
        for (uint k = 0; k < count; ++k) {
            const vec3 d = tile[k].xyz - p;
            const vec3 h = abs(abs(d) - L);
            if (min(min(h.x, h.y), h.z) > c.filterThreshold && base + k != i) {
                const vec3 e = minImage(d, L);
                const float dist2 = e.x * e.x + e.y * e.y + e.z * e.z;
                addNeighbour(sums, e, dist2, velIn[base + k].xyz, c);
            }
        }
        barrier();
    }
    if (!owned) return;
    vec3 pNew, vNew;
    integrate(p, velIn[i].xyz, sums, c, pNew, vNew);
    posOut[i] = vec4(pNew, 0);
    velOut[i] = vec4(vNew, 0);
}
