// The simulation's GPU data, shared by C++ (namespace gpudata) and GLSL: std430 layouts.
#ifndef VKBOIDS_SIM_TYPES_H
#define VKBOIDS_SIM_TYPES_H

#ifdef __cplusplus
#include <cstdint>
namespace gpudata {
using u32 = uint32_t;
using f32 = float;
#else
#define u32 uint
#define f32 float
#endif

// Boids are stored as vec4 positions and vec4 velocities (w unused), so loads are 16-byte wide.

// Push constants of every flocking pass.
struct StepConstants {
    f32 cohesionRadiusSq;
    f32 separationRadiusSq;
    f32 alignmentRadiusSq;
    f32 filterThreshold; // naive filter: a pair can be a neighbour only if every | |d|-L | > this
    f32 cohesionScale;
    f32 separationScale;
    f32 alignmentScale;
    f32 maxSpeed;
    f32 dt;
    f32 domainHalf; // L: the domain is the periodic cube [-L, L)^3
    f32 cellWidth;  // 2L / gridDim
    f32 invCellWidth;
    u32 boidCount;
    u32 gridDim;             // cells per axis
    u32 rowsPerCell;         // rows a cell along y and along z: the row height is cellWidth / rowsPerCell
    f32 reach;               // max(r) with a rounding margin: rows and slices farther away are not scanned
    f32 halfFilterThreshold; // naive filter in float16 on positions / L: the same test, a wider margin
    u32 slicesPerCell;       // x slices a cell in the sort key: 1 (whole cells) or 8
    u32 cellOrder;           // CELL_ORDER_*: how the key numbers cells (sim::CellOrder)
    u32 pad0;
    // The predator (sim::Params): boids within its radius flee (rules.glsl: integrate).
    u32 predatorOn; // 0: no predator, and the step is exactly the one without
    f32 predatorX;  // its position, wrapped into the domain
    f32 predatorY;
    f32 predatorZ;
    f32 predatorRadiusSq;
    f32 predatorInvRadius;
    f32 predatorScale;
    f32 pad1;
};

// The grid's sort key (common.glsl: gridKey). The domain is cut into rows along x, rowsPerCell
// rows a cell along y and along z, and each row into slices along x, slicesPerCell a cell. With
// linear cell order a key is (row * gridDim + cell x) * slicesPerCell + slice, row = (row z) *
// rowsPerCell * gridDim + row y: the slices of a row are consecutive keys, so any x window of a row
// is one run of keys (two where it wraps around the domain). With Morton cell order (rowsPerCell
// 1) a key is mortonIndex(cell) * slicesPerCell + slice: consecutive within a cell only. One slice a
// cell and one row a cell is whole cells.
//
// keyStarts[k] is the first sorted position whose key is k or more, for every key k of the grid,
// empty or not, and keyStarts[keyCount] = boidCount: the boids of keys [a, b) are the sorted
// positions [keyStarts[a], keyStarts[b]).

// Cell keys (StepConstants::cellOrder): x + dim (y + dim z), or the Morton code of x, y, z (common.glsl:
// cellKey). Morton grids have one row a cell.
#define CELL_ORDER_LINEAR 0u
#define CELL_ORDER_MORTON 1u

// What the grid-stats pass reports for the panel.
struct GridStats {
    u32 occupiedCells;
    u32 largestCell; // boids in the fullest cell
    u32 pad0;
    u32 pad1;
};

#ifdef __cplusplus
static_assert(sizeof(StepConstants) == 112);
static_assert(sizeof(GridStats) == 16);
} // namespace gpudata
#endif

#endif
