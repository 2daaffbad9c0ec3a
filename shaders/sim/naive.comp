#version 460
// All pairs, tiled through shared memory. Each invocation owns BOIDS boids (register blocking: a
// staged position is read once for all of them); the work group stages TILE positions at a time.
//
// Per pair a cheap test runs first: with d = p_j - p_i in (-2L, 2L), the minimum-image distance
// along an axis is L - | |d| - L |, so a pair can be a neighbour only if | |d| - L | > L - max(r)
// on all three axes (a cube around the boid): 3 subtractions, 3 more, 2 minimums. The test's
// results for 4 candidates are folded into one branch; few pass (about 1 pair in 10^4 at the
// default density), and only those take the exact path of the contract.
#extension GL_GOOGLE_include_directive : require
// Before the includes: common.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint BOIDS = 2;  // boids per invocation
#include "../shared.h"
#include "../common.glsl"

layout(std430, binding = 0) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 1) readonly buffer VelIn { vec4 velIn[]; };
layout(std430, binding = 2) writeonly buffer PosOut { vec4 posOut[]; };
layout(std430, binding = 3) writeonly buffer VelOut { vec4 velOut[]; };
layout(push_constant) uniform Push { StepConstants c; };

const uint TILE = gl_WorkGroupSize.x * BOIDS;
shared vec4 tile[TILE];

vec3 p[BOIDS];
uint self[BOIDS];
Neighbours sums[BOIDS];

// The cube test's margin: positive when q may be a neighbour of p.
float cubeMargin(vec3 q, vec3 p) {
    const vec3 h = abs(abs(q - p) - c.halfDomain);
    return min(min(h.x, h.y), h.z) - c.filterThreshold;
}

void exactPair(uint b, vec3 q, uint j) {
    if (j == self[b]) return;
    const vec3 e = minImage(q - p[b], c.halfDomain);
    const float dist2 = e.x * e.x + e.y * e.y + e.z * e.z;
    addNeighbour(sums[b], e, dist2, velIn[j].xyz, c);
}

void main() {
    const uint n = c.boidCount;
    const uint first = linearGroupIndex() * TILE + gl_LocalInvocationID.x;
    for (uint b = 0; b < BOIDS; ++b) {
        self[b] = first + b * gl_WorkGroupSize.x;
        p[b] = self[b] < n ? posIn[self[b]].xyz : vec3(0);
        sums[b] = noNeighbours();
    }

    // No early return: every invocation takes part in staging and barriers.
    for (uint base = 0; base < n; base += TILE) {
        for (uint b = 0; b < BOIDS; ++b) {
            const uint j = base + gl_LocalInvocationID.x + b * gl_WorkGroupSize.x;
            tile[gl_LocalInvocationID.x + b * gl_WorkGroupSize.x] = j < n ? posIn[j] : vec4(0);
        }
        barrier();
        const uint count = min(TILE, n - base);
        uint k = 0;
        for (; k + 4 <= count; k += 4) {
            const vec3 q0 = tile[k].xyz, q1 = tile[k + 1].xyz, q2 = tile[k + 2].xyz, q3 = tile[k + 3].xyz;
            for (uint b = 0; b < BOIDS; ++b) {
                const float m0 = cubeMargin(q0, p[b]), m1 = cubeMargin(q1, p[b]);
                const float m2 = cubeMargin(q2, p[b]), m3 = cubeMargin(q3, p[b]);
                if (max(max(m0, m1), max(m2, m3)) > 0.0) {
                    if (m0 > 0.0) exactPair(b, q0, base + k);
                    if (m1 > 0.0) exactPair(b, q1, base + k + 1);
                    if (m2 > 0.0) exactPair(b, q2, base + k + 2);
                    if (m3 > 0.0) exactPair(b, q3, base + k + 3);
                }
            }
        }
        for (; k < count; ++k) {
            const vec3 q = tile[k].xyz;
            for (uint b = 0; b < BOIDS; ++b)
                if (cubeMargin(q, p[b]) > 0.0) exactPair(b, q, base + k);
        }
        barrier();
    }
    for (uint b = 0; b < BOIDS; ++b) {
        if (self[b] >= n) continue;
        vec3 pNew, vNew;
        integrate(p[b], velIn[self[b]].xyz, sums[b], c, pNew, vNew);
        posOut[self[b]] = vec4(pNew, 0);
        velOut[self[b]] = vec4(vNew, 0);
    }
}
