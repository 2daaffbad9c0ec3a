#version 460
// The naive step: every boid tests every other, with the candidates' positions staged through shared
// memory. The work group stages TILE positions at a time, and each invocation owns BOIDS boids, so
// that a staged position is read once for all of them (register blocking).
//
// Each pair first takes a cheap test. With d = p_j - p_i in (-2L, 2L), the minimum-image distance
// along an axis is L - | |d| - L |, so a pair can be neighbours only if | |d| - L | > L - max(r) on
// all three axes, that is, if p_j lies in a cube around the boid. That costs 3 subtractions, 3 more
// and 2 minimums. The results for 8 candidates (4 in float32) are folded into one branch, because a
// warp takes a branch when any of its lanes does. Few pairs pass (about 1 in 10^4 at the default
// density), and only those take the exact float32 test and the rules.
//
// With FLOAT16_FILTER, built for devices with shaderFloat16, the cube test runs in float16 on
// positions divided by L, two candidates per packed instruction. Its margin covers float16 rounding,
// so it may let more pairs through than the float32 test but never fewer, and the exact test after
// it is unchanged.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#ifdef FLOAT16_FILTER
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
// Before the includes: dispatch.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
// Boids per invocation (sim::recordNaiveStep dispatches for it): a compile-time constant, so that
// the loops over them unroll in SPIR-V and the per-boid arrays become registers.
#define BOIDS 2
#include "sim_types.h"
#include "common.glsl"
#include "rules.glsl"

layout(std430, binding = 0) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 1) readonly buffer VelIn { vec4 velIn[]; };
layout(std430, binding = 2) writeonly buffer PosOut { vec4 posOut[]; };
layout(std430, binding = 3) writeonly buffer VelOut { vec4 velOut[]; };
layout(push_constant) uniform Push { StepConstants c; };

const uint TILE = gl_WorkGroupSize.x * BOIDS;
#ifdef FLOAT16_FILTER
// Candidates 2k and 2k+1 side by side, per axis, as float16 positions / L.
shared f16vec2 tileX[TILE / 2], tileY[TILE / 2], tileZ[TILE / 2];
#else
shared vec4 tile[TILE];
#endif

vec3 p[BOIDS];
uint self[BOIDS];
Neighbours sums[BOIDS];

// The cube test's margin: positive when q may be a neighbour of p.
float cubeMargin(vec3 q, vec3 p) {
    const vec3 h = abs(abs(q - p) - c.domainHalf);
    return min(min(h.x, h.y), h.z) - c.filterThreshold;
}

#ifdef FLOAT16_FILTER
// The cube test on a packed pair of candidates (positions / L): per candidate, the smallest
// | |d| - 1 | over the axes; a neighbour needs it above the threshold.
f16vec2 float16Cube(f16vec2 x, f16vec2 y, f16vec2 z, f16vec2 px, f16vec2 py, f16vec2 pz) {
    const f16vec2 one = f16vec2(1.0hf);
    return min(min(abs(abs(x - px) - one), abs(abs(y - py) - one)), abs(abs(z - pz) - one));
}
#endif

vec3 neighbourVelocity(uint j) { return velIn[j].xyz; }

void exactPair(uint b, vec3 q, uint j) {
    if (j == self[b]) return;
    addNeighbour(sums[b], minImage(q - p[b], c.domainHalf), j, 0u, c);
}

void main() {
    const uint n = c.boidCount;
    const uint first = linearGroupIndex() * TILE + gl_LocalInvocationID.x;
    [[unroll]] for (uint b = 0; b < BOIDS; ++b) {
        self[b] = first + b * gl_WorkGroupSize.x;
        p[b] = self[b] < n ? posIn[self[b]].xyz : vec3(0);
        sums[b] = noNeighbours();
    }

#ifdef FLOAT16_FILTER
    const float invL = 1.0 / c.domainHalf;
    f16vec2 px[BOIDS], py[BOIDS], pz[BOIDS];
    [[unroll]] for (uint b = 0; b < BOIDS; ++b) {
        px[b] = f16vec2(float16_t(p[b].x * invL));
        py[b] = f16vec2(float16_t(p[b].y * invL));
        pz[b] = f16vec2(float16_t(p[b].z * invL));
    }
    const float16_t threshold = float16_t(c.float16FilterThreshold);
#endif

    // No early return: every invocation takes part in staging and barriers.
    for (uint base = 0; base < n; base += TILE) {
#ifdef FLOAT16_FILTER
        for (uint pair = gl_LocalInvocationID.x; pair < TILE / 2; pair += gl_WorkGroupSize.x) {
            const uint j = base + 2 * pair;
            const vec3 a = j < n ? posIn[j].xyz * invL : vec3(0), b = j + 1 < n ? posIn[j + 1].xyz * invL : vec3(0);
            tileX[pair] = f16vec2(a.x, b.x);
            tileY[pair] = f16vec2(a.y, b.y);
            tileZ[pair] = f16vec2(a.z, b.z);
        }
#else
        [[unroll]] for (uint b = 0; b < BOIDS; ++b) {
            const uint j = base + gl_LocalInvocationID.x + b * gl_WorkGroupSize.x;
            tile[gl_LocalInvocationID.x + b * gl_WorkGroupSize.x] = j < n ? posIn[j] : vec4(0);
        }
#endif
        barrier();
        const uint count = min(TILE, n - base);
        uint k = 0;
#ifdef FLOAT16_FILTER
        // Eight candidates per branch: four packed pairs, folded with three packed maximums.
        for (; k + 8 <= count; k += 8) {
            const uint pair = k / 2;
            f16vec2 x[4], y[4], z[4];
            [[unroll]] for (uint q = 0; q < 4; ++q) {
                x[q] = tileX[pair + q];
                y[q] = tileY[pair + q];
                z[q] = tileZ[pair + q];
            }
            [[unroll]] for (uint b = 0; b < BOIDS; ++b) {
                f16vec2 m[4];
                [[unroll]] for (uint q = 0; q < 4; ++q)
                    m[q] = float16Cube(x[q], y[q], z[q], px[b], py[b], pz[b]);
                const f16vec2 top = max(max(m[0], m[1]), max(m[2], m[3]));
                if (max(top.x, top.y) > threshold) {
                    [[unroll]] for (uint q = 0; q < 4; ++q) {
                        const uint j = base + k + 2 * q;
                        if (m[q].x > threshold) exactPair(b, posIn[j].xyz, j);
                        if (m[q].y > threshold) exactPair(b, posIn[j + 1].xyz, j + 1);
                    }
                }
            }
        }
#endif
        for (; k + 4 <= count; k += 4) {
#ifdef FLOAT16_FILTER
            const uint pair = k / 2;
            const f16vec2 x0 = tileX[pair], y0 = tileY[pair], z0 = tileZ[pair];
            const f16vec2 x1 = tileX[pair + 1], y1 = tileY[pair + 1], z1 = tileZ[pair + 1];
            [[unroll]] for (uint b = 0; b < BOIDS; ++b) {
                const f16vec2 m0 = float16Cube(x0, y0, z0, px[b], py[b], pz[b]);
                const f16vec2 m1 = float16Cube(x1, y1, z1, px[b], py[b], pz[b]);
                const f16vec2 m = max(m0, m1);
                if (max(m.x, m.y) > threshold) {
                    const uint j = base + k;
                    if (m0.x > threshold) exactPair(b, posIn[j].xyz, j);
                    if (m0.y > threshold) exactPair(b, posIn[j + 1].xyz, j + 1);
                    if (m1.x > threshold) exactPair(b, posIn[j + 2].xyz, j + 2);
                    if (m1.y > threshold) exactPair(b, posIn[j + 3].xyz, j + 3);
                }
            }
#else
            const vec3 q0 = tile[k].xyz, q1 = tile[k + 1].xyz, q2 = tile[k + 2].xyz, q3 = tile[k + 3].xyz;
            [[unroll]] for (uint b = 0; b < BOIDS; ++b) {
                const float m0 = cubeMargin(q0, p[b]), m1 = cubeMargin(q1, p[b]);
                const float m2 = cubeMargin(q2, p[b]), m3 = cubeMargin(q3, p[b]);
                if (max(max(m0, m1), max(m2, m3)) > 0.0) {
                    if (m0 > 0.0) exactPair(b, q0, base + k);
                    if (m1 > 0.0) exactPair(b, q1, base + k + 1);
                    if (m2 > 0.0) exactPair(b, q2, base + k + 2);
                    if (m3 > 0.0) exactPair(b, q3, base + k + 3);
                }
            }
#endif
        }
        // The last tile's remainder, in float32 from the positions themselves.
        for (; k < count; ++k) {
            const vec3 q = posIn[base + k].xyz;
            [[unroll]] for (uint b = 0; b < BOIDS; ++b)
                if (cubeMargin(q, p[b]) > 0.0) exactPair(b, q, base + k);
        }
        barrier();
    }
    [[unroll]] for (uint b = 0; b < BOIDS; ++b) {
        if (self[b] >= n) continue;
        vec3 pNew, vNew;
        integrate(p[b], velIn[self[b]].xyz, sums[b], c, pNew, vNew);
        posOut[self[b]] = vec4(pNew, 0);
        velOut[self[b]] = vec4(vNew, 0);
    }
}
