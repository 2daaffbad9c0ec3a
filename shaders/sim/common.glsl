// Helpers shared by the compute passes.
#ifndef VKBOIDS_COMMON_GLSL
#define VKBOIDS_COMMON_GLSL

#include "../dispatch.glsl"

// x wrapped into [-L, L).
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

// Minimum image of a displacement between two points of [-L, L)^3: each component into [-L, L).
// d lies in (-2L, 2L), so one conditional shift suffices, and it is exact (Sterbenz).
float minImageComponent(float d, float L) {
    if (d >= L) return d - 2.0 * L;
    if (d < -L) return d + 2.0 * L;
    return d;
}

vec3 minImage(vec3 d, float L) {
    return vec3(minImageComponent(d.x, L), minImageComponent(d.y, L), minImageComponent(d.z, L));
}

// Cell coordinate along one axis, as sim::cellCoordinate() computes it on the CPU.
uint cellCoordinate(float x, float L, float invCellWidth, uint dim) {
    const float c = floor((x + L) * invCellWidth);
    return c > 0.0 ? min(uint(c), dim - 1) : 0u;
}

uvec3 cellOf(vec3 p, StepConstants c) {
    return uvec3(cellCoordinate(p.x, c.halfDomain, c.invCellWidth, c.gridDim),
                 cellCoordinate(p.y, c.halfDomain, c.invCellWidth, c.gridDim),
                 cellCoordinate(p.z, c.halfDomain, c.invCellWidth, c.gridDim));
}

// Linear cell index, x fastest (sim::cellIndex).
uint cellIndex(uvec3 cell, uint dim) { return cell.x + dim * (cell.y + dim * cell.z); }

// The low 10 bits of v, bit b moved to bit 3b (sim::mortonIndex).
uint spreadBits(uint v) {
    v &= 0x3ffu;
    v = (v | v << 16) & 0x030000ffu;
    v = (v | v << 8) & 0x0300f00fu;
    v = (v | v << 4) & 0x030c30c3u;
    v = (v | v << 2) & 0x09249249u;
    return v;
}

// Morton code of cell coordinates below 2^10: x, y, z bit b at bits 3b, 3b + 1, 3b + 2.
uint mortonIndex(uvec3 cell) { return spreadBits(cell.x) | spreadBits(cell.y) << 1 | spreadBits(cell.z) << 2; }

// A cell's key in the sort, in the grid's cell order (sim::cellKey).
uint cellKey(uvec3 cell, StepConstants c) {
    return c.cellOrder == CELL_ORDER_MORTON ? mortonIndex(cell) : cellIndex(cell, c.gridDim);
}

// One past the largest cell key (sim::cellKeyCount): the cell ranges' entries.
uint cellKeyCount(StepConstants c) {
    const uint last = c.gridDim - 1;
    return c.cellOrder == CELL_ORDER_MORTON ? mortonIndex(uvec3(last)) + 1 : c.gridDim * c.gridDim * c.gridDim;
}

// The half of its cell a coordinate lies in (sim::subCellBit), for quarter rows: the same product as
// cellCoordinate().
uint subCellBit(float x, float L, float invCellWidth, uint cell) {
    precise const float f = (x + L) * invCellWidth;
    return f >= float(cell) + 0.5 ? 1u : 0u;
}

// The x slice of its cell a coordinate lies in, of `slices` (sim::sliceOf): the same product as
// cellCoordinate(); f - cell and the scaling by a power of two are exact, so CPU and GPU agree.
uint sliceOf(float x, float L, float invCellWidth, uint cell, uint slices) {
    precise const float f = (x + L) * invCellWidth;
    precise const float s = floor((f - float(cell)) * float(slices));
    return s > 0.0 ? min(uint(s), slices - 1) : 0u;  // NaN to 0
}

// Quarter row (sim_types.h, SUB_CELLS_QUARTERS) of half-cells hy and hz (of 2 dim along each axis), z major.
uint quarterRow(uint hy, uint hz, uint dim) { return hz * 2 * dim + hy; }

// The quarter row a position lies in.
uint quarterRowOf(vec3 p, uvec3 cell, StepConstants c) {
    const uint hy = 2 * cell.y + subCellBit(p.y, c.halfDomain, c.invCellWidth, cell.y);
    const uint hz = 2 * cell.z + subCellBit(p.z, c.halfDomain, c.invCellWidth, cell.z);
    return quarterRow(hy, hz, c.gridDim);
}

// The x slices a cell of slices and quarter rows: a shader that knows them at compile time defines
// this first.
#ifndef GRID_SLICES_PER_CELL
#define GRID_SLICES_PER_CELL c.slicesPerCell
#endif

// The sort key of a position: its cell's key, and below that (c.subCells) its x slice; or (linear
// order only) its quarter row, then its cell along x and x slice.
uint gridKey(vec3 p, StepConstants c) {
    const uvec3 cell = cellOf(p, c);
    const uint slice = sliceOf(p.x, c.halfDomain, c.invCellWidth, cell.x, GRID_SLICES_PER_CELL);
    if (c.subCells == SUB_CELLS_QUARTERS)
        return (quarterRowOf(p, cell, c) * c.gridDim + cell.x) * GRID_SLICES_PER_CELL + slice;
    const uint key = cellKey(cell, c);
    return c.subCells == SUB_CELLS_SLICES ? key * GRID_SLICES_PER_CELL + slice : key;
}

#endif
