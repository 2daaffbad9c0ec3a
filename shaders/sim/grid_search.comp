#version 460
// The flocking step over the grid: each boid visits the cells of its search block (3x3x3, or the
// 2x2x2 block on its side of its cell), each cell once even when the grid has fewer cells per
// axis than the block spans. Consecutive cells of a row that are also consecutive in sorted order
// are walked as one range.
//
// SCATTERED: ranges index the sorted slots, which point into the unsorted state. Invocation i
//            takes the boid of sorted slot i, so that a subgroup's boids share cells.
// COHERENT:  the state itself was reordered into cell order; ranges index it directly.
//
// With 3 or more cells per axis every visited cell is a distinct periodic image, so the image
// shift is fixed per cell and the minimum image needs no per-pair wrapping: any neighbour within
// r <= cell width lies in the block, and a displacement shorter than r <= L is the minimum image.
// Then rows and end cells of the block that lie wholly beyond max(r) of the boid are skipped (about
// a quarter of the 27-cell block's candidates).
//
// SUB-CELLS: with keys ordered by octant within each cell, the block is walked in its 216
// half-width sub-cells, skipping those beyond max(r). A subgroup whose boids all lie in one cell
// walks them together, skipping what none of its boids can reach (about half the block for a
// subgroup inside one octant): its control flow and loads are then the same for all lanes, and each
// candidate is one broadcast load. In a subgroup that straddles cells, each boid walks its own
// sub-cells where cells are crowded (SUB_CELL_WALKS 2), or whole cells as above.
//
// SLICES: with keys ordered by eighth of the cell along x, each row of the block is sorted by x,
// and a boid walks a row only over the x it can reach: sqrt(max(r)^2 - the row's y and z gaps^2)
// either side, in whole slices. Every sub-key's start is stored, so a window is one range of
// sorted positions: two loads, no cell ranges. QUARTERS: the same with rows half a cell high and
// deep, each sorted by x across the whole domain. Slices are eighths of a cell, or finer (sim_types.h).
//
// The pass also writes the next step's (key, slot) pairs for this grid, so that the next step on the
// same grid needs no grid-index pass.
//
// The boid itself is met once, in its own cell, at d = 0: rather than test j != i for every
// candidate, its contribution (one cohesion and one alignment count, v_i) is taken out afterwards.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
// Before the includes: common.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
// r1 == r3 (the lab's defaults): cohesion and alignment share one test and one count.
layout(constant_id = 1) const bool COHESION_IS_ALIGNMENT = false;
// The sub-cell walks compiled in or out, as the grid needs them (sim::gridWalk): where
// unused, a walk only costs registers. 0: none; 1: subgroups within one cell walk sub-cells
// together; 2: straddling subgroups also walk them, boid by boid (sim::Grid::straddleSubCells).
layout(constant_id = 2) const uint SUB_CELL_WALKS = 0;
const bool SUB_CELLS = SUB_CELL_WALKS != 0;
// With SUB_CELL_WALKS 0: 0 (no slices), 1 (rows of slices, SUB_CELLS_SLICES) or 4 (quarter rows,
// SUB_CELLS_QUARTERS).
layout(constant_id = 3) const uint SLICE_ROWS = 0;
// Coherent ranges of slices four candidates a step, where rows are long (sim::Grid::fourAStep).
layout(constant_id = 4) const bool FOUR_A_STEP = false;
// x slices a cell (StepConstants::slicesPerCell, which the host makes equal): 8, 16 or 32. A
// constant, so that the walks in eighths compile as they did before finer slices; 0 reads the push
// constant instead.
layout(constant_id = 5) const uint SLICES_PER_CELL = 8;
#define GRID_SLICES_PER_CELL (SLICES_PER_CELL != 0u ? SLICES_PER_CELL : c.slicesPerCell)
#include "sim_types.h"
#include "../common.glsl"


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
// Contiguous ranges go four a step only where they are long (octants, or long rows of slices): at
// 16 boids a cell, two a step is faster (BENCHMARKS runs 19 to 22 and 40).
#define BY_FOUR (SUB_CELLS || FOUR_A_STEP)
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
#define BY_FOUR true  // gathered through an index: the more loads in flight the better
#endif
layout(push_constant) uniform Push { StepConstants c; };

// Neighbour j at displacement d (minimum-imaged per pair when the grid is too small for fixed
// image shifts).
void visitOne(uint j, vec3 d, bool wrapPairs, inout Neighbours sums) {
    if (wrapPairs) d = minImage(d, c.halfDomain);
    const float dist2 = d.x * d.x + d.y * d.y + d.z * d.z;
    if (COHESION_IS_ALIGNMENT) {
        if (dist2 < c.cohesionRadiusSq) {
            sums.cohesion += d;
            sums.cohesionCount += 1.0;
            sums.alignment += velIn[j].xyz;
        }
        if (dist2 < c.separationRadiusSq) sums.separation += d;
    } else {
        if (dist2 < c.cohesionRadiusSq) {
            sums.cohesion += d;
            sums.cohesionCount += 1.0;
        }
        if (dist2 < c.separationRadiusSq) sums.separation += d;
        if (dist2 < c.alignmentRadiusSq) {
            sums.alignment += velIn[j].xyz;
            sums.alignmentCount += 1.0;
        }
    }
}

// Neighbours j in sorted positions [start, end), displacements p_j - origin. Several a step, so
// that an invocation has several candidate loads in flight (the sums still add in order): four,
// or two where ranges are short and a four-step would mostly be left over (BENCHMARKS runs 19-22).
// The driver unrolls these loops or not depending on the whole module (an unreachable function
// was enough to stop it), and that moves the walks by -16% to +52% (BENCHMARKS runs 69 to 71):
// after any change to this shader, compare every walk's timing against the previous build.
void visitRange(vec3 origin, uint start, uint end, bool wrapPairs, bool byFour, inout Neighbours sums) {
    uint k = start;
    if (byFour) {
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
    visitRange(origin, subRanges[lo].x, subRanges[hi].x, false, BY_FOUR, sums);
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

// Squared distance from x (the boid's offset inside its cell, in [0, w)) to half h of the cell at
// offset d along one axis.
float halfGap2(float x, int d, uint h) {
    const float lo = (float(d) + 0.5 * float(h)) * c.cellWidth;
    const float g = max(0.0, max(lo - x, x - (lo + 0.5 * c.cellWidth)));
    return g * g;
}

// Whether the walk needs a sub-cell, row or cell: for a subgroup walking together (all its boids in
// one cell), whether any of its boids does; otherwise the boid itself.
bool needed(bool need, bool together) { return together ? subgroupAny(need) : need; }

// The 3x3x3 block in sub-cells (3 or more cells per axis: fixed image shifts). With `together`
// (uniform across the subgroup) every condition is the same for all lanes.
void searchSubCells(vec3 p, uvec3 cell, bool together, inout Neighbours sums) {
    const vec3 inside = p + c.halfDomain - vec3(cell) * c.cellWidth;
    const int dim = int(c.gridDim);
    const float reach2 = c.reach * c.reach;
    for (int dz = -1; dz <= 1; ++dz) {
        const int z = int(cell.z) + dz;
        const int wz = wrapCell(z);
        const float shiftZ = imageShift(z, wz);
        const float gz0 = halfGap2(inside.z, dz, 0), gz1 = halfGap2(inside.z, dz, 1);
        for (int dy = -1; dy <= 1; ++dy) {
            const int y = int(cell.y) + dy;
            const int wy = wrapCell(y);
            const float shiftY = imageShift(y, wy);
            const float gy0 = halfGap2(inside.y, dy, 0), gy1 = halfGap2(inside.y, dy, 1);
            const float rowGap2 = min(gy0, gy1) + min(gz0, gz1);
            if (!needed(rowGap2 < reach2, together)) continue;
            const int rowBase = dim * (wy + dim * wz);
            uint runStart = 0, runEnd = 0;
            float runShift = 0.0;
            for (int dx = -1; dx <= 1; ++dx) {
                const float gx0 = halfGap2(inside.x, dx, 0), gx1 = halfGap2(inside.x, dx, 1);
                if (!needed(rowGap2 + min(gx0, gx1) < reach2, together)) continue;
                const int x = int(cell.x) + dx;
                const int wx = wrapCell(x);
                const float shiftX = imageShift(x, wx);
                const uint base = uint(rowBase + wx) * 8;
                for (uint o = 0; o < 8; ++o) {
                    const float gap2 = ((o & 1) != 0 ? gx1 : gx0) + ((o & 2) != 0 ? gy1 : gy0) +
                                       ((o & 4) != 0 ? gz1 : gz0);
                    if (!needed(gap2 < reach2, together)) continue;
                    const uvec2 range = subRanges[base + o];
                    if (range.x == CELL_EMPTY) continue;
                    if (range.x == runEnd && shiftX == runShift && runEnd > runStart) {
                        runEnd = range.y;
                        continue;
                    }
                    visitRange(p - vec3(runShift, shiftY, shiftZ), runStart, runEnd, false, true, sums);
                    runStart = range.x;
                    runEnd = range.y;
                    runShift = shiftX;
                }
            }
            visitRange(p - vec3(runShift, shiftY, shiftZ), runStart, runEnd, false, true, sums);
        }
    }
}

// The search block row by row (3 or more cells per axis: fixed image shifts), each row only where
// its x lies within rho = sqrt(max(r)^2 - the row's y and z gaps^2) of the boid. The window is taken
// in slices, as the keys were (sliceOf): whole slices at either end, whole cells between them.
void searchSlices(vec3 p, uvec3 cell, inout Neighbours sums) {
    const int dim = int(c.gridDim);
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
    const int S = int(GRID_SLICES_PER_CELL);
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
            const int rowBase = dim * (wy + dim * wz);
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
                const uint base = uint(rowBase + wx) * uint(S);
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

// Rows a cell is split into along y and z: 1 (slices) or 2 (quarter rows).
const int ROWS_PER_CELL = SLICE_ROWS == 4 ? 2 : 1;
// Quarter rows, and coherent slices taken two a step, walk rows with searchRows; other slices walk
// each row of the block cell by cell (searchSlices). Each is the faster on the H200 where it is
// used (docs/BENCHMARKS.md, run 58): the row walk made coherent slices at 1M 8% faster, but
// scattered slices and long rows 6 to 25% slower.
#ifdef COHERENT
const bool ROW_WALK = SLICE_ROWS == 4 || !FOUR_A_STEP;
#else
const bool ROW_WALK = SLICE_ROWS == 4;
#endif

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
    const int dim = int(c.gridDim), rows = ROWS_PER_CELL * dim, slices = int(GRID_SLICES_PER_CELL) * dim;
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
            const int rowBase = dim * (wy + dim * wz);
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
                const uvec2 range = cellRanges[rowBase + wx];
                if (range.x == CELL_EMPTY) continue;
                if (range.x == runEnd && shiftX == runShift && runEnd > runStart) {
                    runEnd = range.y;
                    continue;
                }
                visitRange(p - vec3(runShift, shiftY, shiftZ), runStart, runEnd, wrapPairs, BY_FOUR, sums);
                runStart = range.x;
                runEnd = range.y;
                runShift = shiftX;
            }
            visitRange(p - vec3(runShift, shiftY, shiftZ), runStart, runEnd, wrapPairs, BY_FOUR, sums);
        }
    }
}

void main() {
    const uint i = linearInvocationIndex();
    if (i >= c.boidCount) return;
    const uint self = SLOT(i);
    const vec3 p = posIn[self].xyz;
    const uvec3 cell = cellOf(p, c);

    Neighbours sums = noNeighbours();
    // SUB_CELLS pipelines run only for grids with sub-cells (sim::recordGridSearch).
    if (SLICE_ROWS != 0 && ROW_WALK)  // grids with slices or quarters have 3 or more cells per axis
        searchRows(p, sums);
    else if (SLICE_ROWS == 1)
        searchSlices(p, cell, sums);
    else if (SUB_CELLS && c.gridDim >= 3 && subgroupAllEqual(cellIndex(cell, c.gridDim)))
        searchSubCells(p, cell, true, sums);
    else if (SUB_CELL_WALKS == 2 && c.gridDim >= 3)
        searchSubCells(p, cell, false, sums);
    else
        searchCells(p, cell, sums);
    // The boid met itself at d = 0 (in its own cell, or its own slice, which is never skipped).
    const vec3 v = velIn[self].xyz;
    sums.cohesionCount -= 1.0;
    if (COHESION_IS_ALIGNMENT) {
        sums.alignment -= v;
        sums.alignmentCount = sums.cohesionCount;
    } else {
        sums.alignmentCount -= 1.0;
        sums.alignment -= v;
    }
    vec3 pNew, vNew;
    integrate(p, v, sums, c, pNew, vNew);
    posOut[self] = vec4(pNew, 0);
    velOut[self] = vec4(vNew, 0);
    // The next step's pairs, as grid_index.comp would make them from the new state (sim::recordStep
    // skips that pass while the grid stays the same).
    keysOut[self] = gridKey(pNew, c);
    slotsOut[self] = self;
}
