// Helpers shared by the simulation's compute passes. Where a comment names a function in sim::, the
// CPU computes the same thing there, and the two must agree.
#ifndef VKBOIDS_COMMON_GLSL
#define VKBOIDS_COMMON_GLSL

#include "../dispatch.glsl"

// Wraps x into [-L, L).
float wrapCoordinate(float x, float L) {
    float twoL = 2.0 * L;
    x -= twoL * floor((x + L) / twoL);
    // floor() of a rounded quotient can leave x at exactly L or just below -L.
    if (x >= L) x -= twoL;
    if (x < -L) x += twoL;
    return x;
}

vec3 wrapPosition(vec3 p, float L) {
    return vec3(wrapCoordinate(p.x, L), wrapCoordinate(p.y, L), wrapCoordinate(p.z, L));
}

// The minimum image of a displacement between two points of [-L, L)^3: each component is shifted into
// [-L, L). Because d lies in (-2L, 2L), one conditional shift suffices, and by Sterbenz's lemma the
// subtraction is exact.
float minImageComponent(float d, float L) {
    if (d >= L) return d - 2.0 * L;
    if (d < -L) return d + 2.0 * L;
    return d;
}

vec3 minImage(vec3 d, float L) {
    return vec3(minImageComponent(d.x, L), minImageComponent(d.y, L), minImageComponent(d.z, L));
}

// The cell coordinate along one axis, as sim::cellCoordinate() computes it on the CPU.
uint cellCoordinate(float x, float L, float invCellWidth, uint dim) {
    const float c = floor((x + L) * invCellWidth);
    return c > 0.0 ? min(uint(c), dim - 1) : 0u;
}

uvec3 cellOf(vec3 p, StepConstants c) {
    return uvec3(cellCoordinate(p.x, c.domainHalf, c.invCellWidth, c.gridDim),
                 cellCoordinate(p.y, c.domainHalf, c.invCellWidth, c.gridDim),
                 cellCoordinate(p.z, c.domainHalf, c.invCellWidth, c.gridDim));
}

// The packed velocity of v, described in sim_types.h beside PACKED_VELOCITY_ROOM; tests/reference.cpp
// computes the same.
uint packVelocity(vec3 v, StepConstants c) {
    const uvec3 q = uvec3(clamp(roundEven(v * c.velocityPackScale), -511.0, 511.0) + 512.0);
    return q.x | q.y << 10 | q.z << 20;
}

// The linear cell index, with x varying fastest (sim::cellIndex).
uint cellIndex(uvec3 cell, uint dim) { return cell.x + dim * (cell.y + dim * cell.z); }

// Spreads the low 10 bits of v so that bit b moves to bit 3b (as sim::mortonIndex does).
uint spreadBits(uint v) {
    v &= 0x3ffu;
    v = (v | v << 16) & 0x030000ffu;
    v = (v | v << 8) & 0x0300f00fu;
    v = (v | v << 4) & 0x030c30c3u;
    v = (v | v << 2) & 0x09249249u;
    return v;
}

// The Morton code of cell coordinates below 2^10: bit b of x, y and z goes to bits 3b, 3b + 1 and
// 3b + 2.
uint mortonIndex(uvec3 cell) { return spreadBits(cell.x) | spreadBits(cell.y) << 1 | spreadBits(cell.z) << 2; }

// A cell's key in the sort, in the grid's cell order (sim::cellKey).
uint cellKey(uvec3 cell, StepConstants c) {
    return c.cellOrder == CELL_ORDER_MORTON ? mortonIndex(cell) : cellIndex(cell, c.gridDim);
}

// Which of `parts` equal parts of its cell a coordinate lies in (sim::partOf). With parts set to
// slicesPerCell this is the coordinate's slice within its cell, and with rowsPerCell its row. It uses
// the same product as cellCoordinate(), and both f - cell and the scaling by a power of two are
// exact, so the CPU and the GPU agree.
uint partOf(float x, float L, float invCellWidth, uint cell, uint parts) {
    precise const float f = (x + L) * invCellWidth;
    precise const float s = floor((f - float(cell)) * float(parts));
    return s > 0.0 ? min(uint(s), parts - 1) : 0u;  // a NaN gives 0
}

// The grid's sort key of a position, as sim_types.h describes it: its row and x slice, in the grid's
// cell order.
uint gridKey(vec3 p, StepConstants c) {
    const uvec3 cell = cellOf(p, c);
    const uint slices = c.slicesPerCell, slice = partOf(p.x, c.domainHalf, c.invCellWidth, cell.x, slices);
    if (c.cellOrder == CELL_ORDER_MORTON) return mortonIndex(cell) * slices + slice;
    const uint R = c.rowsPerCell, dim = c.gridDim;
    const uint rowY = R * cell.y + partOf(p.y, c.domainHalf, c.invCellWidth, cell.y, R);
    const uint rowZ = R * cell.z + partOf(p.z, c.domainHalf, c.invCellWidth, cell.z, R);
    return ((rowZ * R * dim + rowY) * dim + cell.x) * slices + slice;
}

// The number of keys in the grid (sim::keyCount): the slices of every row, or in Morton order the
// slices of every Morton code up to the largest cell's.
uint keyCount(StepConstants c) {
    const uint dim = c.gridDim, R = c.rowsPerCell;
    const uint cells = c.cellOrder == CELL_ORDER_MORTON ? mortonIndex(uvec3(dim - 1)) + 1 : dim * dim * dim;
    return cells * R * R * c.slicesPerCell;
}

#endif
