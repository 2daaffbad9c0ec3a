#version 460
// The flocking step over the grid: each boid scans the rows within reach of it, each over its x
// window, and applies the rules (rules.glsl) to the neighbours it meets there.
//
// Rows and x windows (sim_types.h gives the keys): the grid's keys order boids by row, and within a
// row by x slice. A row within reach lies at a gap g (along y and z) from the boid, so its
// neighbours there lie within rho = sqrt(max(r)^2 - g^2) of the boid along x: its x window, taken in
// whole slices. A window's slices are consecutive keys, so the window is one range of sorted
// positions, read from two key starts. Rows are numbered across the domain (a row beyond a face is
// the periodic image of one inside), so each row and window has a fixed image shift and no pair
// needs wrapping: with 3 or more cells per axis, each at least max(r) wide, of a boid's images at
// most one lies within max(r). Smaller grids scan every boid, minimum-imaging each pair.
//
// SCATTERED: ranges index the sorted slots, which point into the unsorted state. Invocation i
//            takes the boid of sorted slot i, so that a subgroup's boids share rows. The rules'
//            velocities are read from a copy in sorted order (gather_velocities.comp), so that only
//            the positions are gathered.
// COHERENT:  the state itself was reordered into key order; ranges index it directly. With
//            PACKED_VELOCITY (a specialization constant) the rules sum the packed velocity that the
//            reorder wrote into each position's w (sim_types.h) instead of loading each neighbour's
//            velocity: the position's load brings it.
// COUNT:     (the scattered layout) counts each boid's candidates and neighbours instead of
//            stepping (sim::countSearch): the same rows and windows, nothing else written; and the
//            steps its subgroup ran for them (visitRange below).
//
// A step also writes the next step's (key, slot) pairs for this grid, so that the next step on the
// same grid needs no grid-index pass.
//
// The boid itself is met once, in its own row at d = 0: rather than test j != i for every
// candidate, its contribution is taken out afterwards (rules.glsl: removeSelf).
#extension GL_GOOGLE_include_directive : require
// Before the includes: dispatch.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "sim_types.h"
#include "common.glsl"
#ifdef COHERENT
#define PACKABLE_VELOCITY
#endif
#include "rules.glsl"

#ifdef COHERENT
layout(std430, binding = 0) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 1) readonly buffer VelSorted { vec4 velSorted[]; };  // the state's, sorted
layout(std430, binding = 2) readonly buffer KeyStarts { uint keyStarts[]; };
layout(std430, binding = 3) writeonly buffer PosOut { vec4 posOut[]; };
layout(std430, binding = 4) writeonly buffer VelOut { vec4 velOut[]; };
layout(std430, binding = 5) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = 6) writeonly buffer SlotsOut { uint slotsOut[]; };
#define SLOT(k) (k)
// Candidates two a step: contiguous loads, and ranges short enough that a four-step would mostly
// be left over.
#define BY_FOUR false
#elif defined(COUNT)
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require
layout(std430, binding = 0) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 1) readonly buffer SortedSlots { uint sortedSlots[]; };
layout(std430, binding = 2) readonly buffer KeyStarts { uint keyStarts[]; };
layout(std430, binding = 3) writeonly buffer Counts { uvec4 counts[]; };  // sim::SearchCounter
layout(std430, binding = 4) writeonly buffer Totals { uint totals[]; };   // [8]: the subgroup size
#define SLOT(k) sortedSlots[k]
#else
layout(std430, binding = 0) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 1) readonly buffer VelSorted { vec4 velSorted[]; };  // in sorted order
layout(std430, binding = 2) readonly buffer SortedSlots { uint sortedSlots[]; };
layout(std430, binding = 3) readonly buffer KeyStarts { uint keyStarts[]; };
layout(std430, binding = 4) writeonly buffer PosOut { vec4 posOut[]; };
layout(std430, binding = 5) writeonly buffer VelOut { vec4 velOut[]; };
layout(std430, binding = 6) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = 7) writeonly buffer SlotsOut { uint slotsOut[]; };
#define SLOT(k) sortedSlots[k]
#define BY_FOUR true // gathered through an index: the more loads in flight the better
#endif
layout(push_constant) uniform Push { StepConstants c; };

#ifndef COUNT
// The velocity of the boid in sorted position k (either mode).
vec3 neighbourVelocity(uint k) { return velSorted[k].xyz; }
#endif

#ifdef COUNT
// What the counting twin sums instead of the rules: every candidate the scan meets and those within
// max(r) (the boid itself among both); and, kept by one lane of each subgroup, the candidate steps the
// subgroup ran (each range as long as its longest lane's) and those of them in which some lane met a
// boid within max(r), so that the step's rule work ran in every lane.
struct Counted {
    uint candidates;
    uint reached;
    uint steps;
    uint ruleSteps;
};
#define Sums Counted

// Candidates in sorted positions [start, end), displacements p_j - origin, in the subgroup's steps:
// the lanes that call this together (those at the same row of the walk) step together, one candidate
// a lane a step, for as long as the longest range among them. `precise`, so that a CPU replica
// (tests) finds the same boids within max(r).
void visitRange(vec3 origin, uint start, uint end, bool wrapPairs, inout Counted sums) {
    const float reach2 = max(max(c.cohesionRadiusSq, c.separationRadiusSq), c.alignmentRadiusSq);
    const uint length = end - start, longest = subgroupMax(length);
    uint ruleSteps = 0;
    for (uint s = 0; s < longest; ++s) {
        bool reached = false;
        if (s < length) {
            precise vec3 d = posIn[SLOT(start + s)].xyz - origin;
            if (wrapPairs) d = minImage(d, c.domainHalf);
            precise const float dist2 = d.x * d.x + d.y * d.y + d.z * d.z;
            reached = dist2 < reach2;
        }
        if (subgroupAny(reached)) ++ruleSteps;
        if (reached) ++sums.reached;
    }
    sums.candidates += length;
    if (subgroupElect()) {
        sums.steps += longest;
        sums.ruleSteps += ruleSteps;
    }
}
#else
#define Sums Neighbours

// The candidate in sorted position k, stored as q (its position, and in w its packed velocity), seen
// from origin (minimum-imaged per pair where the grid is too small for fixed image shifts).
void visitOne(uint k, vec4 q, vec3 origin, bool wrapPairs, inout Neighbours sums) {
    vec3 d = q.xyz - origin;
    if (wrapPairs) d = minImage(d, c.domainHalf);
    addNeighbour(sums, d, k, floatBitsToUint(q.w), c);
}

// Candidates in sorted positions [start, end), displacements p_j - origin. Several a step, so that
// an invocation has several candidate loads in flight (the sums still add in order).
void visitCandidates(vec3 origin, uint start, uint end, bool wrapPairs, inout Neighbours sums) {
    uint k = start;
    if (BY_FOUR) {
        for (; k + 3 < end; k += 4) {
            const uint j0 = SLOT(k), j1 = SLOT(k + 1), j2 = SLOT(k + 2), j3 = SLOT(k + 3);
            const vec4 q0 = posIn[j0], q1 = posIn[j1], q2 = posIn[j2], q3 = posIn[j3];
            visitOne(k, q0, origin, wrapPairs, sums);
            visitOne(k + 1, q1, origin, wrapPairs, sums);
            visitOne(k + 2, q2, origin, wrapPairs, sums);
            visitOne(k + 3, q3, origin, wrapPairs, sums);
        }
    } else {
        for (; k + 1 < end; k += 2) {
            const uint j0 = SLOT(k), j1 = SLOT(k + 1);
            const vec4 q0 = posIn[j0], q1 = posIn[j1];
            visitOne(k, q0, origin, wrapPairs, sums);
            visitOne(k + 1, q1, origin, wrapPairs, sums);
        }
    }
    for (; k < end; ++k) {
        visitOne(k, posIn[SLOT(k)], origin, wrapPairs, sums);
    }
}

void visitRange(vec3 origin, uint start, uint end, bool wrapPairs, inout Neighbours sums) {
#ifdef PACKABLE_VELOCITY
    if (PACKED_VELOCITY) {
        // The packed sums take at most sums.room more candidates before they must be decoded: a
        // range longer than that (a crowd of millions) is scanned in parts.
        for (;;) {
            const uint stop = start + min(end - start, sums.room);
            visitCandidates(origin, start, stop, wrapPairs, sums);
            sums.room -= stop - start;
            if (stop == end) return;
            decodeVelocities(sums, c);
            start = stop;
        }
    }
#endif
    visitCandidates(origin, start, end, wrapPairs, sums);
}

#endif

// An index at most one period of n outside [0, n), wrapped into it.
int wrapIndex(int x, int n) { return x < 0 ? x + n : (x >= n ? x - n : x); }

// The shift of the periodic image in which the row or slice stored at wrapped index wx is seen at x:
// x - wx is -n, 0 or n (of n across the domain), so the shift is exactly -2L, 0 or 2L. A select
// (x < wx ? -2L : ...) made NVIDIA's compiler spill registers in the scattered search.
float periodShift(int x, int wx) { return float(sign(x - wx)) * (2.0 * c.domainHalf); }

// Distance, in cells, from f (a coordinate in cells) to row h, which covers [h, h + 1) / rowsPerCell.
float rowGap(float f, int h, float rowsPerCell) {
    precise const float gap = max(0.0, max(float(h) / rowsPerCell - f, f - float(h + 1) / rowsPerCell));
    return gap;
}

// Scans slices [lo, hi] (numbered from the domain's low face, at most one period outside it) of the
// row whose first key is rowKey (linear order) or of the row of cells (y, z) (Morton order). A run
// of keys ends where the window crosses the domain's face, and in Morton order where it leaves a
// cell (whose cells along x are not consecutive keys).
void scanWindow(vec3 p, int lo, int hi, uint rowKey, uint y, uint z, float shiftY, float shiftZ, inout Sums sums) {
    const int S = int(c.slicesPerCell), slices = S * int(c.gridDim);
    const bool byCell = c.cellOrder == CELL_ORDER_MORTON;
    while (lo <= hi) {
        const int wrapped = wrapIndex(lo, slices);
        int end = min(hi, lo - wrapped + slices - 1);  // last slice of this image
        if (byCell) end = min(end, lo - wrapped % S + S - 1);  // last slice of this cell
        const uint first = c.cellOrder == CELL_ORDER_MORTON
                               ? mortonIndex(uvec3(uint(wrapped / S), y, z)) * uint(S) + uint(wrapped % S)
                               : rowKey + uint(wrapped);
        const float shiftX = periodShift(lo, wrapped);
        visitRange(p - vec3(shiftX, shiftY, shiftZ), keyStarts[first], keyStarts[first + uint(end - lo) + 1],
                   false, sums);
        lo = end + 1;
    }
}

// A span [lo, hi] of rows or slices reached along one axis, at most `n` (one period) long: the reach's
// rounding margin can take in one more on a grid of exactly 3 cells of max(r), the far image of the
// span's other end, which holds nothing within max(r). The end farther from f (in the same units)
// goes.
void clampSpan(float f, int n, inout int lo, inout int hi) {
    if (hi - lo < n) return;
    if (f - float(lo + 1) > float(hi) - f) ++lo;
    else --hi;
}

// The rows within reach of the boid at p, each over its x window. Rows, gaps and windows are in
// cells, from the products the keys were made from; the reach's margin covers their rounding. They
// are `precise`, so that a CPU count of the same rows and windows (tests) meets the same slices.
void scanRows(vec3 p, inout Sums sums) {
    const int dim = int(c.gridDim), rows = int(c.rowsPerCell) * dim;
    if (dim < 3) {
        visitRange(p, 0, c.boidCount, true, sums);  // every boid, each pair minimum-imaged
        return;
    }
    precise const vec3 f = (p + c.domainHalf) * c.invCellWidth;
    precise const float reach = c.reach * c.invCellWidth, reach2 = reach * reach;
    const float perCell = float(c.rowsPerCell), S = float(c.slicesPerCell);
    precise const vec4 rowsReached = floor(perCell * (f.zzyy + vec4(-reach, reach, -reach, reach)));
    int zLo = int(rowsReached.x), zHi = int(rowsReached.y), yLo = int(rowsReached.z), yHi = int(rowsReached.w);
    clampSpan(perCell * f.z, rows, zLo, zHi);
    clampSpan(perCell * f.y, rows, yLo, yHi);
    for (int hz = zLo; hz <= zHi; ++hz) {
        const float gapZ = rowGap(f.z, hz, perCell);
        const int wz = wrapIndex(hz, rows);
        const float shiftZ = periodShift(hz, wz);
        for (int hy = yLo; hy <= yHi; ++hy) {
            const float gapY = rowGap(f.y, hy, perCell);
            precise const float rowGap2 = gapY * gapY + gapZ * gapZ;
            if (rowGap2 >= reach2) continue;
            const int wy = wrapIndex(hy, rows);
            precise const float rho = sqrt(reach2 - rowGap2);
            // The window in slices from the domain's low face, at most one period long.
            precise const vec2 window = floor((f.xx + vec2(-rho, rho)) * S);
            int lo = int(window.x), hi = int(window.y);
            clampSpan(f.x * S, int(c.slicesPerCell) * dim, lo, hi);
            const uint rowKey = uint(wz * rows + wy) * uint(dim) * c.slicesPerCell;
            scanWindow(p, lo, hi, rowKey, uint(wy), uint(wz), periodShift(hy, wy), shiftZ, sums);
        }
    }
}

void main() {
    const uint i = linearInvocationIndex();
    if (i >= c.boidCount) return;
    const uint self = SLOT(i);
    const vec4 stored = posIn[self];
    const vec3 p = stored.xyz;
#ifdef COUNT
    Counted counted = Counted(0, 0, 0, 0);
    scanRows(p, counted);
    // Neighbours: less the boid itself, met at d = 0 unless max(r)^2 rounds to 0.
    const float reach2 = max(max(c.cohesionRadiusSq, c.separationRadiusSq), c.alignmentRadiusSq);
    counts[self] = uvec4(counted.candidates, counted.reached - (reach2 > 0.0 ? 1u : 0u), counted.steps,
                         counted.ruleSteps);
    if (i == 0) totals[8] = gl_SubgroupSize;
#else
    Neighbours sums = noNeighbours();
    scanRows(p, sums);
    // The boid met itself at d = 0 (in its own slice, which is always scanned).
    const vec3 v = velSorted[i].xyz;
    removeSelf(sums, v, floatBitsToUint(stored.w));
#ifdef PACKABLE_VELOCITY
    if (PACKED_VELOCITY) decodeVelocities(sums, c);
#endif
    vec3 pNew, vNew;
    integrate(p, v, sums, c, pNew, vNew);
    posOut[self] = vec4(pNew, 0);
    velOut[self] = vec4(vNew, 0);
    // The next step's pairs, as grid_index.comp would make them from the new state (sim::recordStep
    // skips that pass while the grid stays the same).
    keysOut[self] = gridKey(pNew, c);
    slotsOut[self] = self;
#endif
}
