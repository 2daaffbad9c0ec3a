#pragma once
// The uniform grid over the periodic domain: pure functions, shared by the passes and the tests.

#include "sim/params.h"

#include <cstdint>
#include <optional>
#include <string>

namespace sim {

struct Grid {
    uint32_t dim = 1;       // cells per axis
    float cellWidth = 0;    // 2L / dim, at least the requested width (unless capped)
    uint32_t cellCount = 1; // dim^3
    uint32_t keyBits = 1;   // bits of a sort key: the cell index, and log2 of the sub-keys a cell
    int searchCells = 27;   // 8: 2x2x2 block towards the boid's side, cells >= 2 max(r) wide;
                            // 27: 3x3x3 block, cells >= max(r) wide
    // Boids sorted by cell and, within a cell, by octant (sub-cell): a subgroup whose boids share
    // a cell then skips the sub-cells of its block that none of them can reach.
    bool subCells = false;
    // With sub-cells, a subgroup whose boids straddle cells walks sub-cells boid by boid where cells
    // hold 150 boids or more on average, and whole cells below that, where walking 216 sub-cells
    // apart costs each boid more than the candidates it skips (docs/BENCHMARKS.md, run 27).
    bool straddleSubCells = false;
    // Boids sorted by cell and, within a cell, by eighth of the cell along x (slices): a row of
    // cells is then sorted by x, and each boid walks a row only over the x it can reach, about two
    // thirds of the candidates of whole cells.
    bool slices = false;
    // Slices within quarter rows: the domain is sorted by rows half a cell high and deep, each by x
    // (2 more bits than the cell index and the slice), and each is walked over its own window, one
    // range each.
    bool quarters = false;
    // x slices a cell: 8, 16 or 32 (makeGrid). Finer slices trim each window's rounding, at up to
    // max(r) / 4 at either end in eighths of a cell 2 max(r) wide, and cost more starts to write.
    uint32_t slicesPerCell = 8;
    // The search walk reads slicesPerCell from the push constant rather than having it compiled in:
    // a choice of how the driver compiles the walk, not of what it computes.
    bool slicesFromPushConstant = false;
    // With slices, coherent steps take a row's candidates four a step rather than two: from 48
    // boids a row of a cell (a cell's, or a quarter of it with quarters).
    bool fourAStep = false;
};

// Sub-keys a cell is split into by the sort key: 4 x slicesPerCell (quarters), slicesPerCell
// (slices), 8 (octants) or 1.
inline uint32_t subKeysPerCell(const Grid& g) {
    return g.quarters ? 4 * g.slicesPerCell : g.slices ? g.slicesPerCell : g.subCells ? 8 : 1;
}

// What one x slice of a cell is: "eighth", "sixteenth" or "32nd" (for the panel and the bench).
inline const char* sliceName(uint32_t slicesPerCell) {
    return slicesPerCell == 32 ? "32nd" : slicesPerCell == 16 ? "sixteenth" : "eighth";
}

// Entries of the sub-range buffer: each octant's [start, end), or each slice's start and one past the
// last (sim_types.h); 1 (unused) without sub-keys.
inline uint32_t subRangeCount(const Grid& g) {
    return g.subCells ? 8 * g.cellCount : g.slices ? subKeysPerCell(g) * g.cellCount + 1 : 1;
}

// Boids a cell on average from which straddling subgroups walk sub-cells (Grid::straddleSubCells).
constexpr uint32_t straddleSubCellsFrom = 150;

// Boids a cell on average from which Auto orders cells by slices, and by quarter rows instead: with 8
// cells (cells 2 max(r) wide) from 20 in both grid modes, with 27 from 24 in coherent grids only
// (docs/BENCHMARKS.md, runs 36 to 38, 54, 55 and 58).
constexpr uint32_t slicesFrom = 12;
constexpr uint32_t quartersFrom8 = 20;
constexpr uint32_t coherentQuartersFrom27 = 24;
constexpr uint32_t fourAStepFrom = 48;               // boids a row of a cell (Grid::fourAStep)
constexpr uint32_t coherentThirtySecondsFrom8 = 250; // boids a cell (Grid::slicesPerCell)
constexpr uint32_t scatteredPushedSlicesFrom = 640;  // boids a cell (Grid::slicesFromPushConstant)

// Octants, slices and quarters need 3 or more cells per axis and at most 2^21 sub-keys (or one
// per boid): 8 a cell, 32 for quarters (finer slices where they fit, else eighths). Within that, Auto takes
// slices from 12 boids a cell, and quarters from 20 with 8 cells or from 24 in coherent grids with 27; below
// those, the sort's extra bits and the starts of many empty sub-keys cost more than the pairs they save.
// Scattered grids with 27 cells lose with quarters (each of their many short ranges starts a chain of
// dependent gathers through the index). Octants, measured slower than slices or quarters in every grid that
// has either, are taken only when asked for. Octants, Slices and Quarters take them wherever allowed.
enum class SubCells { Auto, Octants, Slices, Quarters, Off };

std::optional<SubCells> parseSubCells(const std::string& text);
const char* subCellsName(SubCells s);

// The most sub-keys a grid may have (their ranges or starts are written every step): 2^21, or one
// per boid.
uint64_t maxSubCells(uint32_t boidCount);

// Grids finer than this many cells are coarsened (cells widen, which stays correct): the cell
// ranges are cleared every step, so their size is kept in proportion to the flock.
uint32_t maxGridCells(uint32_t boidCount);

// cells per axis = floor(2L / w), at least 1, with w = 2 max(r) (8 cells) or max(r) (27 cells).
// Auto's choice depends on the mode the grid steps (a live switch may change the grid).
// slicesPerCell: 0 for Auto's choice, or 8, 16 or 32 asked for (grids with slices or quarters take
// the finest up to that whose sub-keys fit).
Grid makeGrid(const Params& params, int searchCells, uint32_t boidCount, SubCells subCells = SubCells::Auto,
              Mode mode = Mode::Coherent, uint32_t slicesPerCell = 0);

// Cell coordinate of a position in [-L, L) along one axis; positions that round up to dim go to dim-1.
uint32_t cellCoordinate(float x, float halfDomain, float invCellWidth, uint32_t dim);

// Which half of its cell a coordinate lies in along one axis (0 or 1): the octant's bit. Compares
// the same float product as cellCoordinate(), so that GPU and CPU agree exactly.
uint32_t subCellBit(float x, float halfDomain, float invCellWidth, uint32_t cell);

// Which of its cell's slicesPerCell x slices a coordinate lies in: the slice of the sort key. The
// same float product as cellCoordinate(), then exact steps, so that GPU and CPU agree exactly.
uint32_t sliceOf(float x, float halfDomain, float invCellWidth, uint32_t cell, uint32_t slicesPerCell);

// Linear cell index, x fastest: cells of one row are contiguous in sorted order.
inline uint32_t cellIndex(uint32_t x, uint32_t y, uint32_t z, uint32_t dim) {
    return x + dim * (y + dim * z);
}

} // namespace sim
