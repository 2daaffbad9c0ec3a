// The walk that the three grid search programs share: which rows of the grid lie within reach of a
// boid, and which x window of each row its sphere of reach covers.
//
// The grid's keys order boids by row, and within a row by x slice (sim_types.h defines the keys).
// A row within reach lies at a gap g from the boid along y and z, so the boid's neighbours in that
// row lie within rho = sqrt(max(r)^2 - g^2) of it along x. That stretch, widened to whole slices, is
// the row's x window. A window's slices are consecutive keys, so the window is one range of sorted
// positions, read from two key starts.
//
// Rows are numbered across the domain, and a row beyond a face is the periodic image of a row
// inside it. Each row and window therefore has a fixed image shift, and no pair needs wrapping: with
// 3 or more cells per axis, each at least max(r) wide, at most one of a boid's periodic images lies
// within max(r) of another boid. Smaller grids scan every boid and take the minimum image of each
// pair instead.
//
// A program that includes this file first declares the push constants `c` (StepConstants) and the
// keyStarts buffer, and defines
//     void visitRange(vec3 origin, uint start, uint end, bool wrapPairs);
// which meets the boids in sorted positions [start, end) at displacements p_j - origin and adds what
// it meets to that program's own running sums. The sums are a variable of the program rather than a
// parameter here because GLSL has no generic functions, and the step and the count sum different
// types.
#ifndef VKBOIDS_GRID_WALK_GLSL
#define VKBOIDS_GRID_WALK_GLSL

// An index at most one period of n outside [0, n), wrapped into it.
int wrapIndex(int x, int n) { return x < 0 ? x + n : (x >= n ? x - n : x); }

// The shift of the periodic image in which the row or slice stored at wrapped index wx is seen at x.
// Since x - wx is -n, 0 or n (with n rows or slices across the domain), the shift is exactly -2L, 0
// or 2L. It is computed with sign() rather than a select such as (x < wx ? -2L : ...) because the
// select made NVIDIA's compiler spill registers in the scattered search.
float periodShift(int x, int wx) { return float(sign(x - wx)) * (2.0 * c.domainHalf); }

// The distance, in cells, from f (a coordinate in cells) to row h, which covers
// [h, h + 1) / rowsPerCell.
float rowGap(float f, int h, float rowsPerCell) {
    precise const float gap = max(0.0, max(float(h) / rowsPerCell - f, f - float(h + 1) / rowsPerCell));
    return gap;
}

// Scans slices [lo, hi] of one row. The slices are numbered from the domain's low face and lie at
// most one period outside it. In linear order the row's first key is rowKey; in Morton order the row
// is the row of cells (y, z). A run of consecutive keys ends where the window crosses the domain's
// face, and in Morton order also where it leaves a cell, because a cell's neighbours along x are not
// consecutive keys there.
void scanWindow(vec3 p, int lo, int hi, uint rowKey, uint y, uint z, float shiftY, float shiftZ) {
    const int S = int(c.slicesPerCell), slices = S * int(c.gridDim);
    const bool byCell = c.cellOrder == CELL_ORDER_MORTON;
    while (lo <= hi) {
        const int wrapped = wrapIndex(lo, slices);
        int end = min(hi, lo - wrapped + slices - 1);  // the last slice of this periodic image
        if (byCell) end = min(end, lo - wrapped % S + S - 1);  // the last slice of this cell
        const uint first = c.cellOrder == CELL_ORDER_MORTON
                               ? mortonIndex(uvec3(uint(wrapped / S), y, z)) * uint(S) + uint(wrapped % S)
                               : rowKey + uint(wrapped);
        const float shiftX = periodShift(lo, wrapped);
        visitRange(p - vec3(shiftX, shiftY, shiftZ), keyStarts[first], keyStarts[first + uint(end - lo) + 1],
                   false);
        lo = end + 1;
    }
}

// Trims a span [lo, hi] of rows or slices along one axis to at most n (one period). On a grid of
// exactly 3 cells of max(r), the reach's rounding margin can take in one row or slice too many: the
// far periodic image of the span's other end, which holds nothing within max(r). The end farther
// from f (in the same units) is dropped.
void clampSpan(float f, int n, inout int lo, inout int hi) {
    if (hi - lo < n) return;
    if (f - float(lo + 1) > float(hi) - f) ++lo;
    else --hi;
}

// Visits the rows within reach of the boid at p, each over its x window. Rows, gaps and windows are
// measured in cells and computed from the same products the keys were made from; the reach's margin
// covers their rounding. They are `precise` so that the CPU's count of the same rows and windows
// (in the tests) meets exactly the same slices.
void scanRows(vec3 p) {
    const int dim = int(c.gridDim), rows = int(c.rowsPerCell) * dim;
    if (dim < 3) {
        visitRange(p, 0, c.boidCount, true);  // every boid, each pair minimum-imaged
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
            scanWindow(p, lo, hi, rowKey, uint(wy), uint(wz), periodShift(hy, wy), shiftZ);
        }
    }
}

#endif
