#pragma once
// The uniform grid over the periodic domain: pure functions, shared by the passes and the tests.

#include "sim/params.h"

#include <cstdint>

namespace sim {

struct Grid {
    uint32_t dim = 1;       // cells per axis
    float cellWidth = 0;    // 2L / dim, at least the requested width (unless capped)
    uint32_t cellCount = 1; // dim^3
    uint32_t keyBits = 1;   // bits of a cell index: what the radix sort sorts
    int searchCells = 27;   // 8: 2x2x2 block towards the boid's side, cells >= 2 max(r) wide;
                            // 27: 3x3x3 block, cells >= max(r) wide
};

// Grids finer than this many cells are coarsened (cells widen, which stays correct): the cell
// ranges are cleared every step, so their size is kept in proportion to the flock.
uint32_t maxGridCells(uint32_t boidCount);

// cells per axis = floor(2L / w), at least 1, with w = 2 max(r) (8 cells) or max(r) (27 cells).
Grid makeGrid(const Params& params, int searchCells, uint32_t boidCount);

// Cell coordinate of a position in [-L, L) along one axis; positions that round up to dim go to dim-1.
uint32_t cellCoordinate(float x, float halfDomain, float invCellWidth, uint32_t dim);

// Linear cell index, x fastest: cells of one row are contiguous in sorted order.
inline uint32_t cellIndex(uint32_t x, uint32_t y, uint32_t z, uint32_t dim) {
    return x + dim * (y + dim * z);
}

} // namespace sim
