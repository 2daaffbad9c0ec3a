#version 460
// The flocking step over the grid, in the scattered layout: each boid scans the rows within reach of
// it, each over its x window (grid_walk.glsl), and applies the rules (rules.glsl) to the neighbours
// it meets there.
//
// The sorted slots point into the unsorted state, and the key starts index the sorted slots.
// Invocation i takes the boid in sorted slot i, so that the boids of one subgroup share rows. The
// rules read each neighbour's velocity from a copy of the velocities in sorted order
// (gather_velocities.comp), so that only the positions are gathered through the slots.
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
#include "rules.glsl"

layout(std430, binding = 0) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 1) readonly buffer VelSorted { vec4 velSorted[]; };  // in sorted order
layout(std430, binding = 2) readonly buffer SortedSlots { uint sortedSlots[]; };
layout(std430, binding = 3) readonly buffer KeyStarts { uint keyStarts[]; };
layout(std430, binding = 4) writeonly buffer PosOut { vec4 posOut[]; };
layout(std430, binding = 5) writeonly buffer VelOut { vec4 velOut[]; };
layout(std430, binding = 6) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = 7) writeonly buffer SlotsOut { uint slotsOut[]; };
layout(push_constant) uniform Push { StepConstants c; };

// The velocity of the boid in sorted position k (rules.glsl calls this).
vec3 neighbourVelocity(uint k) { return velSorted[k].xyz; }

// This invocation's boid's neighbour sums, which visitRange adds to.
Neighbours sums;

// Adds the candidate in sorted position k, whose stored position is q, seen from origin. Where the
// grid is too small for fixed image shifts, the pair takes the minimum image.
void visitOne(uint k, vec4 q, vec3 origin, bool wrapPairs, inout Neighbours total) {
    vec3 d = q.xyz - origin;
    if (wrapPairs) d = minImage(d, c.domainHalf);
    addNeighbour(total, d, k, floatBitsToUint(q.w), c);
}

// Adds the candidates in sorted positions [start, end), at displacements p_j - origin. Each position
// is gathered through its sorted slot, so the loop loads four candidates before using any of them,
// to keep more loads in flight; the sums still add in order.
void visitRange(vec3 origin, uint start, uint end, bool wrapPairs) {
    uint k = start;
    for (; k + 3 < end; k += 4) {
        const uint j0 = sortedSlots[k], j1 = sortedSlots[k + 1], j2 = sortedSlots[k + 2], j3 = sortedSlots[k + 3];
        const vec4 q0 = posIn[j0], q1 = posIn[j1], q2 = posIn[j2], q3 = posIn[j3];
        visitOne(k, q0, origin, wrapPairs, sums);
        visitOne(k + 1, q1, origin, wrapPairs, sums);
        visitOne(k + 2, q2, origin, wrapPairs, sums);
        visitOne(k + 3, q3, origin, wrapPairs, sums);
    }
    for (; k < end; ++k) {
        visitOne(k, posIn[sortedSlots[k]], origin, wrapPairs, sums);
    }
}

#include "grid_walk.glsl"

void main() {
    const uint i = linearInvocationIndex();
    if (i >= c.boidCount) return;
    const uint self = sortedSlots[i];
    const vec4 stored = posIn[self];
    const vec3 p = stored.xyz;
    sums = noNeighbours();
    scanRows(p);
    // The boid met itself at d = 0, in its own slice, which is always scanned.
    const vec3 v = velSorted[i].xyz;
    removeSelf(sums, v, floatBitsToUint(stored.w));
    vec3 pNew, vNew;
    integrate(p, v, sums, c, pNew, vNew);
    posOut[self] = vec4(pNew, 0);
    velOut[self] = vec4(vNew, 0);
    // The next step's pairs, as grid_index.comp would make them from the new state. sim::recordStep
    // skips that pass while the grid stays the same.
    keysOut[self] = gridKey(pNew, c);
    slotsOut[self] = self;
}
