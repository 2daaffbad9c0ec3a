#pragma once
// The uniform grid over the periodic domain: pure functions, shared by the passes and the tests.

#include "sim/params.h"

#include <cstdint>
#include <optional>
#include <string>

namespace sim {

// How the flock pass walks a boid's search block (shaders/sim/grid_search.comp).
enum class Walk {
    Cells,  // cell by cell, each cell's [start, end)
    Slices, // each row of the block cell by cell, over the x slices within reach
    Rows,   // each row (or quarter row) in one window of x slices within reach
};

// How a grid step orders boids by key: a radix sort of (key, slot) pairs, then each key's range from
// the sorted keys; or a counting sort: boids a key, their exclusive scan (every key's start), a
// scatter into each key's range and a rank within it by slot (deterministic, and the same order).
enum class GridBuild { Radix, Counting };

std::optional<GridBuild> parseGridBuild(const std::string& text);
const char* gridBuildName(GridBuild b);
// How cells are numbered in the sort key. Linear: x + dim (y + dim z), each row of cells contiguous
// in sorted order. Morton: the bits of x, y and z interleaved (x lowest), the order of an octree, so
// that cells near each other along any axis lie near each other in sorted order (and, in the coherent
// mode, in memory). Morton codes of a grid that is not a power of two per axis leave gaps: keys run up
// to mortonIndex(dim-1, dim-1, dim-1), up to 8x dim^3 for dims just above a power of two.
//
// Morton restricts the walks: a row of cells is no longer a run of keys, so the Rows walk (coherent
// slices, quarter rows), which takes a row's window as one range, does not apply. Morton grids walk
// whole cells (Walk::Cells) or each cell's slices in turn (Walk::Slices, key = code * 8 + slice), in
// either mode, and never take quarter rows.
enum class CellOrder { Linear, Morton };

std::optional<CellOrder> parseCellOrder(const std::string& text);
const char* cellOrderName(CellOrder order);

struct Grid {
    uint32_t dim = 1;       // cells per axis
    float cellWidth = 0;    // 2L / dim, at least the requested width (unless capped)
    uint32_t cellCount = 1; // dim^3
    CellOrder cellOrder = CellOrder::Linear;
    uint32_t keyCells = 1; // one past the largest cell key (cellKeyCount): the cell ranges' entries
    uint32_t keyBits = 1;  // bits of a sort key: the cell key, and log2 of the sub-keys a cell
    int searchCells = 27;  // 8: 2x2x2 block towards the boid's side, cells >= 2 max(r) wide;
                           // 27: 3x3x3 block, cells >= max(r) wide
    // Boids sorted by cell and, within a cell, by x slice: a row of cells is then sorted by x, and
    // each boid walks a row only over the x it can reach, about two thirds of the candidates of
    // whole cells.
    bool slices = false;
    // Slices within quarter rows: the domain is sorted by rows half a cell high and deep, each by x
    // (2 more bits than the cell index and the slice), and each is walked over its own window, one
    // range each.
    bool quarters = false;
    // x slices a cell: 8, or with quarter rows the finest of 16 and 32 whose sub-keys fit. Finer
    // slices trim each window's rounding (up to a slice at either end) and cost more starts to write.
    uint32_t slicesPerCell = 8;
    Mode mode = Mode::Coherent; // the grid mode it was made for: the walk depends on it
    Walk walk = Walk::Cells;
    GridBuild build = GridBuild::Radix; // not chosen by makeGrid: the caller's
};

// Sub-keys a cell is split into by the sort key: 4 x slicesPerCell (quarters), slicesPerCell
// (slices) or 1.
inline uint32_t subKeysPerCell(const Grid& g) {
    return g.quarters ? 4 * g.slicesPerCell : g.slices ? g.slicesPerCell : 1;
}

// Sort keys of the grid: every cell key's sub-keys (Morton gaps included).
inline uint32_t keyCount(const Grid& g) {
    return subKeysPerCell(g) * g.keyCells;
}

// Entries of the sub-key start buffer: each slice's start and one past the last; 1 (unused) without.
inline uint32_t subRangeCount(const Grid& g) {
    return g.slices ? subKeysPerCell(g) * g.keyCells + 1 : 1;
}

// Boids a cell on average from which Auto orders cells by slices, and by quarter rows instead: with 8
// cells from 20 in both grid modes, with 27 from 24 in coherent grids only. Below those the sort's
// extra bits and the starts of many empty sub-keys cost more than the candidates they save.
constexpr uint32_t slicesFrom = 12;
constexpr uint32_t quartersFrom8 = 20;
constexpr uint32_t coherentQuartersFrom27 = 24;

// The order of boids within cells: Auto (by density, as above), Slices, Quarters, or Off (whole
// cells). Slices and quarters need 3 or more cells per axis and at most 2^21 sub-keys (or one per
// boid); quarters asked for where they do not fit fall back to slices, slices to whole cells.
enum class SubCells { Auto, Slices, Quarters, Off };

std::optional<SubCells> parseSubCells(const std::string& text);
const char* subCellsName(SubCells s);

// The most sub-keys a grid may have (their starts are written every step): 2^21, or one per boid.
uint64_t maxSubCells(uint32_t boidCount);

// Grids with more cell keys than this are coarsened (cells widen, which stays correct): the cell
// ranges are cleared every step, so their size is kept in proportion to the flock. Morton grids count
// their key range (cellKeyCount), which their ranges span.
uint32_t maxGridCells(uint32_t boidCount);

// The grid a step of `mode` uses, and with it the keys and the walk, all chosen here:
// - cells per axis = floor(2L / w), at least 1, with w = 2 max(r) (8 cells) or max(r) (27 cells);
// - the order within cells (keys), as `subCells` asks (Auto: by boids a cell, and by mode: scattered
//   grids with 27 cells lose with quarter rows, each of their many short ranges starting a chain of
//   dependent gathers through the sorted index);
// - the walk: whole cells without slices; quarter rows, and coherent slices, by rows; scattered
//   slices cell by cell (Walk::Slices), where each cell's range of the index is gathered in turn.
//   Morton cell order: whole cells or slices cell by cell (see CellOrder), and a key range within the caps.
Grid makeGrid(const Params& params, int searchCells, uint32_t boidCount, SubCells subCells = SubCells::Auto,
              Mode mode = Mode::Coherent, CellOrder cellOrder = CellOrder::Linear);

// Cell coordinate of a position in [-L, L) along one axis; positions that round up to dim go to dim-1.
uint32_t cellCoordinate(float x, float halfDomain, float invCellWidth, uint32_t dim);

// Which half of its cell a coordinate lies in along one axis (0 or 1): a quarter row's bit. Compares
// the same float product as cellCoordinate(), so that GPU and CPU agree exactly.
uint32_t subCellBit(float x, float halfDomain, float invCellWidth, uint32_t cell);

// Which of its cell's slicesPerCell x slices a coordinate lies in: the slice of the sort key. The
// same float product as cellCoordinate(), then exact steps, so that GPU and CPU agree exactly.
uint32_t sliceOf(float x, float halfDomain, float invCellWidth, uint32_t cell, uint32_t slicesPerCell);

// Linear cell index, x fastest: cells of one row are contiguous in sorted order.
inline uint32_t cellIndex(uint32_t x, uint32_t y, uint32_t z, uint32_t dim) {
    return x + dim * (y + dim * z);
}

// Morton code of cell coordinates below 2^10: bit b of x, y, z at bits 3b, 3b + 1, 3b + 2.
uint32_t mortonIndex(uint32_t x, uint32_t y, uint32_t z);

// The cell's key in the sort (common.glsl: cellKey).
uint32_t cellKey(uint32_t x, uint32_t y, uint32_t z, uint32_t dim, CellOrder order);

// One past the largest cell key of a grid of dim^3 cells: dim^3, or the last cell's Morton code + 1
// (codes grow with each coordinate).
uint32_t cellKeyCount(uint32_t dim, CellOrder order);

} // namespace sim
