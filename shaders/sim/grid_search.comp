#version 460
// The flocking step over the grid: each boid visits the cells of its search block (3x3x3, or the
// 2x2x2 block on its side of its cell), each cell once even when the grid has fewer cells per axis
// than the block spans, and applies the rules (rules.glsl) to the neighbours it finds.
//
// SCATTERED: ranges index the sorted slots, which point into the unsorted state. Invocation i
//            takes the boid of sorted slot i, so that a subgroup's boids share cells.
// COHERENT:  the state itself was reordered into cell order; ranges index it directly.
//
// With 3 or more cells per axis every visited cell is a distinct periodic image, so the image
// shift is fixed per cell and the minimum image needs no per-pair wrapping: any neighbour within
// r <= cell width lies in the block, and a displacement shorter than r <= L is the minimum image.
// Then rows and end cells of the block that lie wholly beyond max(r) of the boid are skipped.
//
// The walks (sim::Walk, chosen with the keys by sim::makeGrid):
// CELLS:  cell by cell through each cell's [start, end); consecutive cells of a row that are also
//         consecutive in sorted order are walked as one range. Either cell order (sim::CellOrder).
// SLICES: keys ordered by x slice within each cell, so each row of the block is sorted by x; a boid
//         walks a row only over the x it can reach, sqrt(max(r)^2 - the row's y and z gaps^2)
//         either side, in whole slices. Every sub-key's start is stored, so a window is one range of
//         sorted positions: two loads, no cell ranges. Either cell order.
// ROWS:   the same windows taken row by row across the domain rather than cell by cell, rows being
//         whole rows of cells or quarter rows (half a cell high and deep), each sorted by x: one
//         range a row, two where the window wraps around the domain. Linear cell order only.
//
// The pass also writes the next step's (key, slot) pairs for this grid, so that the next step on the
// same grid needs no grid-index pass.
//
// The boid itself is met once, in its own cell, at d = 0: rather than test j != i for every
// candidate, its contribution is taken out afterwards (rules.glsl: removeSelf).
#extension GL_GOOGLE_include_directive : require
// Before the includes: dispatch.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
// sim::Walk: 0 cells, 1 slices, 2 rows.
layout(constant_id = 2) const uint WALK = 0;
// Rows walk: 1 (rows of cells, slices) or 2 (quarter rows) rows a cell along y and z.
layout(constant_id = 3) const uint ROWS_PER_CELL = 1;
// x slices a cell (StepConstants::slicesPerCell, which the host makes equal): 8, 16 or 32, known
// when the walk compiles.
layout(constant_id = 4) const uint SLICES_PER_CELL = 8;
#define GRID_SLICES_PER_CELL SLICES_PER_CELL
#include "sim_types.h"
#include "common.glsl"
#include "rules.glsl"

#ifdef COHERENT
layout(std430, binding = 0) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 1) readonly buffer VelIn { vec4 velIn[]; };
layout(std430, binding = 2) readonly buffer CellRanges { uvec2 cellRanges[]; };
layout(std430, binding = 3) writeonly buffer PosOut { vec4 posOut[]; };
layout(std430, binding = 4) writeonly buffer VelOut { vec4 velOut[]; };
layout(std430, binding = 5) readonly buffer SubRanges { uvec2 subRanges[]; };
layout(std430, binding = 6) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = 7) writeonly buffer SlotsOut { uint slotsOut[]; };
#define SLOT(k) (k)
// Candidates two a step: contiguous loads, and ranges short enough that a four-step would mostly
// be left over.
#define BY_FOUR false
#else
layout(std430, binding = 0) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 1) readonly buffer VelIn { vec4 velIn[]; };
layout(std430, binding = 2) readonly buffer SortedSlots { uint sortedSlots[]; };
layout(std430, binding = 3) readonly buffer CellRanges { uvec2 cellRanges[]; };
layout(std430, binding = 4) writeonly buffer PosOut { vec4 posOut[]; };
layout(std430, binding = 5) writeonly buffer VelOut { vec4 velOut[]; };
layout(std430, binding = 6) readonly buffer SubRanges { uvec2 subRanges[]; };
layout(std430, binding = 7) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = 8) writeonly buffer SlotsOut { uint slotsOut[]; };
#define SLOT(k) sortedSlots[k]
#define BY_FOUR true // gathered through an index: the more loads in flight the better
#endif
layout(push_constant) uniform Push { StepConstants c; };

vec3 neighbourVelocity(uint j) { return velIn[j].xyz; }

// Neighbour j at displacement d (minimum-imaged per pair when the grid is too small for fixed
// image shifts).
void visitOne(uint j, vec3 d, bool wrapPairs, inout Neighbours sums) {
    addNeighbour(sums, wrapPairs ? minImage(d, c.halfDomain) : d, j, c);
}

// Neighbours j in sorted positions [start, end), displacements p_j - origin. Several a step, so
// that an invocation has several candidate loads in flight (the sums still add in order).
void visitRange(vec3 origin, uint start, uint end, bool wrapPairs, inout Neighbours sums) {
    uint k = start;
    if (BY_FOUR) {
        for (; k + 3 < end; k += 4) {
            const uint j0 = SLOT(k), j1 = SLOT(k + 1), j2 = SLOT(k + 2), j3 = SLOT(k + 3);
            const vec3 p0 = posIn[j0].xyz, p1 = posIn[j1].xyz, p2 = posIn[j2].xyz, p3 = posIn[j3].xyz;
            visitOne(j0, p0 - origin, wrapPairs, sums);
            visitOne(j1, p1 - origin, wrapPairs, sums);
            visitOne(j2, p2 - origin, wrapPairs, sums);
            visitOne(j3, p3 - origin, wrapPairs, sums);
        }
    } else {
        for (; k + 1 < end; k += 2) {
            const uint j0 = SLOT(k), j1 = SLOT(k + 1);
            const vec3 p0 = posIn[j0].xyz, p1 = posIn[j1].xyz;
            visitOne(j0, p0 - origin, wrapPairs, sums);
            visitOne(j1, p1 - origin, wrapPairs, sums);
        }
    }
    for (; k < end; ++k) {
        const uint j = SLOT(k);
        visitOne(j, posIn[j].xyz - origin, wrapPairs, sums);
    }
}

// The boids of sub-keys [lo, hi) (slices or quarters): each sub-key's start is stored, empty or not.
void visitSubKeys(vec3 origin, uint lo, uint hi, inout Neighbours sums) {
    if (lo == hi) return;
    visitRange(origin, subRanges[lo].x, subRanges[hi].x, false, sums);
}

// An index at most one period of n outside [0, n), wrapped into it.
int wrapIndex(int x, int n) { return x < 0 ? x + n : (x >= n ? x - n : x); }

// The shift of the periodic image in which the cell, row or slice stored at wrapped index wx (of n
// across the domain) is seen at x.
float periodShift(int x, int wx, int n) { return float(x - wx) / float(n) * (2.0 * c.halfDomain); }

int wrapCell(int x) { return wrapIndex(x, int(c.gridDim)); }
float imageShift(int x, int wx) { return periodShift(x, wx, int(c.gridDim)); }

// Distance from a boid `inside` its cell (its offset from the cell's low face) to the cell at offset
// d along one axis.
float cellGap(float inside, int d) { return d < 0 ? inside : (d > 0 ? c.cellWidth - inside : 0.0); }

// First offset and number of distinct cells to visit along one axis.
void axisSpan(float x, uint cell, out int first, out uint count) {
    const uint dim = c.gridDim;
    if (c.searchCells == 27) {
        first = -1;
        count = min(3u, dim);
    } else {
        const float within = (x + c.halfDomain) * c.invCellWidth - float(cell);
        first = within < 0.5 ? -1 : 0;
        count = min(2u, dim);
    }
    if (dim == 1) first = 0;
}

// The search block row by row (3 or more cells per axis: fixed image shifts), each row only where
// its x lies within rho = sqrt(max(r)^2 - the row's y and z gaps^2) of the boid. The window is taken
// in slices, as the keys were (sliceOf): whole slices at either end, whole cells between them.
void searchSlices(vec3 p, uvec3 cell, inout Neighbours sums) {
    ivec3 first;
    uvec3 count;
    axisSpan(p.x, cell.x, first.x, count.x);
    axisSpan(p.y, cell.y, first.y, count.y);
    axisSpan(p.z, cell.z, first.z, count.z);
    const vec3 inside = p + c.halfDomain - vec3(cell) * c.cellWidth;
    const float reach2 = c.reach * c.reach;
    // The boid's x in cells from its cell's low face, from the product the keys were sliced by; the
    // reach's margin covers the rounding of this and of rho.
    precise const float f = (p.x + c.halfDomain) * c.invCellWidth;
    const float fx = f - float(cell.x);
    const int S = int(SLICES_PER_CELL);
    const int blockLo = S * first.x, blockHi = S * (first.x + int(count.x)) - 1;

    for (uint oz = 0; oz < count.z; ++oz) {
        const int dz = first.z + int(oz);
        const int z = int(cell.z) + dz;
        const int wz = wrapCell(z);
        const float shiftZ = imageShift(z, wz);
        const float gapZ = cellGap(inside.z, dz);
        for (uint oy = 0; oy < count.y; ++oy) {
            const int dy = first.y + int(oy);
            const int y = int(cell.y) + dy;
            const int wy = wrapCell(y);
            const float shiftY = imageShift(y, wy);
            const float gapY = cellGap(inside.y, dy);
            const float rowGap2 = gapY * gapY + gapZ * gapZ;
            if (rowGap2 >= reach2) continue;
            const float rho = sqrt(reach2 - rowGap2) * c.invCellWidth;
            // Slices from the boid's cell's first one: the window, within the block.
            const int lo = max(int(floor((fx - rho) * float(S))), blockLo);
            const int hi = min(int(floor((fx + rho) * float(S))), blockHi);
            // A run of sub-keys [runLo, runHi), contiguous and under one image shift: the whole
            // window unless it wraps around the domain.
            uint runLo = 0, runHi = 0;
            float runShift = 0.0;
            for (uint ox = 0; ox < count.x; ++ox) {
                const int dx = first.x + int(ox);
                const int s0 = max(lo - S * dx, 0), s1 = min(hi - S * dx, S - 1);
                if (s0 > s1) continue;
                const int x = int(cell.x) + dx;
                const int wx = wrapCell(x);
                const float shiftX = imageShift(x, wx);
                const uint base = cellKey(uvec3(wx, wy, wz), c) * uint(S);
                if (base + s0 == runHi && shiftX == runShift) {
                    runHi = base + s1 + 1;
                    continue;
                }
                visitSubKeys(p - vec3(runShift, shiftY, shiftZ), runLo, runHi, sums);
                runLo = base + s0;
                runHi = base + s1 + 1;
                runShift = shiftX;
            }
            visitSubKeys(p - vec3(runShift, shiftY, shiftZ), runLo, runHi, sums);
        }
    }
}

// Distance, in cells, from f (a coordinate in cells) to row h (which covers [h, h + 1) / ROWS_PER_CELL).
float rowGap(float f, int h) {
    const float rows = float(ROWS_PER_CELL);
    return max(0.0, max(float(h) / rows - f, f - float(h + 1) / rows));
}

// The rows within reach (3 or more cells per axis: each is a distinct periodic image), each only
// over the x within rho = sqrt(max(r)^2 - its y and z gaps^2) of the boid, in whole slices. A row is
// sorted by x across the domain, so its window is one range of sub-keys, or two where it wraps
// around the domain along x. Rows, gaps and windows are in cells, from the products the keys were
// made from; the reach's margin covers their rounding. Every neighbour within max(r) lies in the
// search block (3x3x3, or 2x2x2 on the boid's side), so the walk stays inside it.
void searchRows(vec3 p, inout Neighbours sums) {
    const int dim = int(c.gridDim), rows = int(ROWS_PER_CELL) * dim, slices = int(GRID_SLICES_PER_CELL) * dim;
    precise const vec3 f = (p + c.halfDomain) * c.invCellWidth;
    const float reach = c.reach * c.invCellWidth, reach2 = reach * reach;
    const float perCell = float(ROWS_PER_CELL);
    const int zLo = int(floor(perCell * (f.z - reach))), zHi = int(floor(perCell * (f.z + reach)));
    const int yLo = int(floor(perCell * (f.y - reach))), yHi = int(floor(perCell * (f.y + reach)));
    for (int hz = zLo; hz <= zHi; ++hz) {
        const float gapZ = rowGap(f.z, hz);
        const int wz = wrapIndex(hz, rows);
        const float shiftZ = periodShift(hz, wz, rows);
        for (int hy = yLo; hy <= yHi; ++hy) {
            const float gapY = rowGap(f.y, hy);
            const float rowGap2 = gapY * gapY + gapZ * gapZ;
            if (rowGap2 >= reach2) continue;
            const int wy = wrapIndex(hy, rows);
            const float shiftY = periodShift(hy, wy, rows);
            const uint rowBase = uint(wz * rows + wy) * uint(slices);
            const float rho = sqrt(reach2 - rowGap2);
            // The window in slices from the domain's low face: at most 2 max(r) + 1 slice wide, so
            // shorter than the domain, and split only where it crosses the domain's face.
            int lo = int(floor((f.x - rho) * float(GRID_SLICES_PER_CELL)));
            const int hi = int(floor((f.x + rho) * float(GRID_SLICES_PER_CELL)));
            while (lo <= hi) {
                const int wrapped = wrapIndex(lo, slices);
                const int end = min(hi, lo - wrapped + slices - 1);  // last slice of this image
                const float shiftX = periodShift(lo, wrapped, slices);
                visitSubKeys(p - vec3(shiftX, shiftY, shiftZ), rowBase + wrapped, rowBase + wrapped + (end - lo) + 1,
                             sums);
                lo = end + 1;
            }
        }
    }
}

// The search block cell by cell, each boid on its own.
void searchCells(vec3 p, uvec3 cell, inout Neighbours sums) {
    const int dim = int(c.gridDim);
    const bool wrapPairs = dim < 3;

    ivec3 first;
    uvec3 count;
    axisSpan(p.x, cell.x, first.x, count.x);
    axisSpan(p.y, cell.y, first.y, count.y);
    axisSpan(p.z, cell.z, first.z, count.z);

    // How far the boid is inside its cell along each axis, for skipping cells beyond max(r).
    const vec3 inside = p + c.halfDomain - vec3(cell) * c.cellWidth;
    const float reach2 = c.reach * c.reach;

    for (uint oz = 0; oz < count.z; ++oz) {
        const int dz = first.z + int(oz);
        const int z = int(cell.z) + dz;
        const int wz = wrapCell(z);
        const float shiftZ = wrapPairs ? 0.0 : imageShift(z, wz);
        const float gapZ = cellGap(inside.z, dz);
        for (uint oy = 0; oy < count.y; ++oy) {
            const int dy = first.y + int(oy);
            const int y = int(cell.y) + dy;
            const int wy = wrapCell(y);
            const float shiftY = wrapPairs ? 0.0 : imageShift(y, wy);
            const float gapY = cellGap(inside.y, dy);
            const float rowGap2 = gapY * gapY + gapZ * gapZ;
            if (!wrapPairs && rowGap2 >= reach2) continue;  // the whole row is out of reach
            // Walk the row's cells, merging those that are adjacent in sorted order and share a shift.
            uint runStart = 0, runEnd = 0;
            float runShift = 0.0;
            for (uint ox = 0; ox < count.x; ++ox) {
                const int dx = first.x + int(ox);
                const float gapX = cellGap(inside.x, dx);
                if (!wrapPairs && rowGap2 + gapX * gapX >= reach2) continue;
                const int x = int(cell.x) + dx;
                const int wx = wrapCell(x);
                const float shiftX = wrapPairs ? 0.0 : imageShift(x, wx);
                const uvec2 range = cellRanges[cellKey(uvec3(wx, wy, wz), c)];
                if (range.x == CELL_EMPTY) continue;
                if (range.x == runEnd && shiftX == runShift && runEnd > runStart) {
                    runEnd = range.y;
                    continue;
                }
                visitRange(p - vec3(runShift, shiftY, shiftZ), runStart, runEnd, wrapPairs, sums);
                runStart = range.x;
                runEnd = range.y;
                runShift = shiftX;
            }
            visitRange(p - vec3(runShift, shiftY, shiftZ), runStart, runEnd, wrapPairs, sums);
        }
    }
}

void main() {
    const uint i = linearInvocationIndex();
    if (i >= c.boidCount) return;
    const uint self = SLOT(i);
    const vec3 p = posIn[self].xyz;

    Neighbours sums = noNeighbours();
    // Grids with slices have 3 or more cells per axis.
    if (WALK == 2)
        searchRows(p, sums);
    else if (WALK == 1)
        searchSlices(p, cellOf(p, c), sums);
    else
        searchCells(p, cellOf(p, c), sums);
    // The boid met itself at d = 0 (in its own cell, or its own slice, which is never skipped).
    const vec3 v = velIn[self].xyz;
    removeSelf(sums, v);
    vec3 pNew, vNew;
    integrate(p, v, sums, c, pNew, vNew);
    posOut[self] = vec4(pNew, 0);
    velOut[self] = vec4(vNew, 0);
    // The next step's pairs, as grid_index.comp would make them from the new state (sim::recordStep
    // skips that pass while the grid stays the same).
    keysOut[self] = gridKey(pNew, c);
    slotsOut[self] = self;
}
