#version 460
// The flocking step over the grid, in the coherent layout: each boid scans the rows within reach of
// it, each over its x window (grid_walk.glsl), and applies the rules (rules.glsl) to the neighbours
// it meets there.
//
// The state itself was reordered into key order (key_starts.comp with REORDER), so the key starts
// index it directly and invocation i takes the boid in position i. With the specialization constant
// PACKED_VELOCITY, the rules sum the packed velocity that the reorder wrote into the w component of
// each position (sim_types.h) instead of loading each neighbour's velocity: the position's load
// brings the velocity with it.
//
// The step also writes the next step's (key, slot) pairs for this grid, so that the next step on
// the same grid needs no grid-index pass.
//
// Each boid meets itself once, in its own row at d = 0. Rather than test j != i for every candidate,
// the step takes its own contribution out afterwards (removeSelf in rules.glsl).
#extension GL_GOOGLE_include_directive : require
// This comes before the includes because dispatch.glsl uses gl_WorkGroupSize, which must already be
// specialized.
layout(local_size_x_id = 0) in;
#include "sim_types.h"
#include "common.glsl"
// Asks rules.glsl for its packed-velocity sums (the PACKED_VELOCITY specialization constant).
#define PACKABLE_VELOCITY
#include "rules.glsl"

layout(std430, binding = 0) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 1) readonly buffer VelSorted { vec4 velSorted[]; };  // the state's, in key order
layout(std430, binding = 2) readonly buffer KeyStarts { uint keyStarts[]; };
layout(std430, binding = 3) writeonly buffer PosOut { vec4 posOut[]; };
layout(std430, binding = 4) writeonly buffer VelOut { vec4 velOut[]; };
layout(std430, binding = 5) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = 6) writeonly buffer SlotsOut { uint slotsOut[]; };
layout(push_constant) uniform Push { StepConstants c; };

// The velocity of the boid in position k (rules.glsl calls this).
vec3 neighbourVelocity(uint k) { return velSorted[k].xyz; }

// This invocation's boid's neighbour sums, which visitRange adds to.
Neighbours sums;

// Adds the candidate in position k, whose stored position is q (with its packed velocity in w), seen
// from origin. Where the grid is too small for fixed image shifts, the pair takes the minimum image.
void visitOne(uint k, vec4 q, vec3 origin, bool wrapPairs, inout Neighbours total) {
    vec3 d = q.xyz - origin;
    if (wrapPairs) d = minImage(d, c.domainHalf);
    addNeighbour(total, d, k, floatBitsToUint(q.w), c);
}

// Adds the candidates in positions [start, end), at displacements p_j - origin, loading two before
// using either. The loads are contiguous here, and the ranges are short enough that a loop taking
// four at a time would mostly be left to its remainder.
void visitCandidates(vec3 origin, uint start, uint end, bool wrapPairs, inout Neighbours total) {
    uint k = start;
    for (; k + 1 < end; k += 2) {
        const vec4 q0 = posIn[k], q1 = posIn[k + 1];
        visitOne(k, q0, origin, wrapPairs, total);
        visitOne(k + 1, q1, origin, wrapPairs, total);
    }
    for (; k < end; ++k) {
        visitOne(k, posIn[k], origin, wrapPairs, total);
    }
}

void visitRange(vec3 origin, uint start, uint end, bool wrapPairs) {
    if (PACKED_VELOCITY) {
        // The packed sums can take at most sums.room more candidates before they must be decoded,
        // so a longer range (in a crowd of millions) is scanned in parts.
        for (;;) {
            const uint stop = start + min(end - start, sums.room);
            visitCandidates(origin, start, stop, wrapPairs, sums);
            sums.room -= stop - start;
            if (stop == end) return;
            decodeVelocities(sums, c);
            start = stop;
        }
    }
    visitCandidates(origin, start, end, wrapPairs, sums);
}

#include "grid_walk.glsl"

void main() {
    const uint i = linearInvocationIndex();
    if (i >= c.boidCount) return;
    const vec4 stored = posIn[i];
    const vec3 p = stored.xyz;
    sums = noNeighbours();
    scanRows(p);
    // The boid met itself at d = 0, in its own slice, which is always scanned.
    const vec3 v = velSorted[i].xyz;
    removeSelf(sums, v, floatBitsToUint(stored.w));
    if (PACKED_VELOCITY) decodeVelocities(sums, c);
    vec3 pNew, vNew;
    integrate(p, v, sums, c, pNew, vNew);
    posOut[i] = vec4(pNew, 0);
    velOut[i] = vec4(vNew, 0);
    // The next step's pairs, as grid_index.comp would make them from the new state. sim::recordStep
    // skips that pass while the grid stays the same.
    keysOut[i] = gridKey(pNew, c);
    slotsOut[i] = i;
}
