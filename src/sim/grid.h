#pragma once
// The uniform grid over the periodic domain: pure functions, shared by the passes and the tests.

#include "sim/params.h"

#include <cstdint>
#include <optional>
#include <string>

namespace sim {

// How a grid step orders boids by key: a radix sort of (key, slot) pairs, then each key's range from
// the sorted keys; or a counting sort: boids a key, their exclusive scan (every key's start), a
// scatter into each key's range and a rank within it by slot (deterministic, and the same order).
enum class GridBuild { Radix, Counting };
constexpr io::NameTable<GridBuild, 2> gridBuildNames{{"radix", "counting"}};

inline std::optional<GridBuild> parseGridBuild(const std::string& text) {
    return io::valueIn(gridBuildNames, text);
}
inline const char* gridBuildName(GridBuild b) {
    return io::nameIn(gridBuildNames, b);
}
// How cells are numbered in the sort key. Linear: x + dim (y + dim z), so that a row of cells is a
// run of keys. Morton: the bits of x, y and z interleaved (x lowest), the order of an octree, so that
// cells near each other along any axis lie near each other in sorted order (and, in the coherent
// mode, in memory). Morton codes of a grid that is not a power of two per axis leave gaps: keys run up
// to mortonIndex(dim-1, dim-1, dim-1), up to 8x dim^3 for dims just above a power of two. A row of
// cells is no longer a run of keys, so Morton grids have rows one cell high, and scan each window
// cell by cell.
enum class CellOrder { Linear, Morton };
constexpr io::NameTable<CellOrder, 2> cellOrderNames{{"linear", "morton"}};

inline std::optional<CellOrder> parseCellOrder(const std::string& text) {
    return io::valueIn(cellOrderNames, text);
}
inline const char* cellOrderName(CellOrder order) {
    return io::nameIn(cellOrderNames, order);
}

// How wide the cells are: at least max(r), so that a boid's neighbours lie in the 3x3x3 block of
// cells around its own (the CUDA lab's "27 cells"), or at least 2 max(r), so that they lie in the
// 2x2x2 block on its side of its cell (the lab's "8 cells"). The search scans rows and x windows
// either way; the width sets how many boids a cell, row and window holds.
enum class CellWidth { Reach, TwoReach };
constexpr io::NameTable<CellWidth, 2> cellWidthNames{{"r", "2r"}};
// The CUDA lab's names of the same widths, by the cells a search visits; parsed too.
constexpr io::NameTable<CellWidth, 2> labCellNames{{"27", "8"}};

std::optional<CellWidth> parseCellWidth(const std::string& text); // either table's name
inline const char* cellWidthName(CellWidth width) {
    return io::nameIn(cellWidthNames, width);
}
int labCells(CellWidth width); // the lab's name for it: 27 or 8

// The grid: cells, and the rows and slices its sort key orders boids by (sim_types.h). The search
// scans the rows within reach of each boid, each over its x window: the slices whose x lies within
// sqrt(max(r)^2 - the row's gap^2) of the boid. One row and one slice a cell is whole cells.
struct Grid {
    uint32_t dim = 1;       // cells per axis
    float cellWidth = 0;    // 2L / dim, at least the requested width (unless capped)
    uint32_t cellCount = 1; // dim^3
    CellOrder cellOrder = CellOrder::Linear;
    uint32_t keyCells = 1;      // one past the largest cell key (cellKeyCount)
    uint32_t rowsPerCell = 1;   // rows a cell along y and along z: 1, 2 or 4 (linear order)
    uint32_t slicesPerCell = 1; // x slices a cell: 1 (whole cells) or tuning::windowSlicesPerCell
    uint32_t keyBits = 1;       // bits of a sort key
};

// Keys of the grid: every row's slices (Morton gaps included).
inline uint32_t keyCount(const Grid& g) {
    return g.keyCells * g.rowsPerCell * g.rowsPerCell * g.slicesPerCell;
}

// The row height: the cell width over the rows a cell.
inline float rowHeight(const Grid& g) {
    return g.cellWidth / float(g.rowsPerCell);
}

// The rows and slices of a grid in words, for the panel and the commands' output.
std::string describeRows(const Grid& g);

// How the grid cuts cells into rows. Auto picks by density (makeGrid). Cells keeps whole cells and
// scans no x windows. OnePerCell, TwoPerCell and FourPerCell cut each cell into 1, 2 or 4 rows along
// y and z (rows a full, a half or a quarter of a cell high and deep), each row scanned over an x
// window in slices. The command line and the docs name them full, half and quarter (rowsName).
enum class Rows { Auto, Cells, OnePerCell, TwoPerCell, FourPerCell };
constexpr io::NameTable<Rows, 5> rowsNames{{"auto", "cells", "full", "half", "quarter"}};

inline std::optional<Rows> parseRows(const std::string& text) {
    return io::valueIn(rowsNames, text);
}
inline const char* rowsName(Rows rows) {
    return io::nameIn(rowsNames, rows);
}

// The most keys a grid with x windows may have (every key's start is written every step): 2^21, or
// one per boid. Whole cells stay within maxGridCells.
uint64_t maxGridKeys(uint32_t boidCount);

// Grids with more cell keys than this are coarsened (cells widen, which stays correct): the key
// starts are rewritten every step, so their number is kept in proportion to the flock. Morton grids
// count their key range (cellKeyCount).
uint32_t maxGridCells(uint32_t boidCount);

// The grid a step uses: cells per axis = floor(2L / w), at least 1, with w = max(r) or 2 max(r)
// (CellWidth); rows as `rows` asks (Auto: by density), x windows only with 3 or more cells per
// axis; rows whose keys do not fit maxGridKeys are made taller, and windows that do not fit give
// whole cells.
Grid makeGrid(const Params& params, CellWidth width, uint32_t boidCount, Rows rows = Rows::Auto,
              CellOrder cellOrder = CellOrder::Linear);

// Cell coordinate of a position in [-L, L) along one axis; positions that round up to dim go to dim-1.
uint32_t cellCoordinate(float x, float domainHalf, float invCellWidth, uint32_t dim);

// Which of `parts` equal parts of its cell a coordinate lies in: its slice (parts: slicesPerCell) or
// its row within the cell (parts: rowsPerCell). The same float product as cellCoordinate(), then
// exact steps, so that GPU and CPU agree exactly (common.glsl: partOf).
uint32_t partOf(float x, float domainHalf, float invCellWidth, uint32_t cell, uint32_t parts);

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
