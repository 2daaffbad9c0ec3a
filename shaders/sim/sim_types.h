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
    f32 halfDomain; // L: the domain is the periodic cube [-L, L)^3
    f32 cellWidth;  // 2L / gridDim
    f32 invCellWidth;
    u32 boidCount;
    u32 gridDim;             // cells per axis
    u32 searchCells;         // 8 or 27
    f32 reach;               // grid search: max(r) with a rounding margin; cells farther away are skipped
    f32 halfFilterThreshold; // naive filter in float16 on positions / L: the same test, a wider margin
    u32 subCells;            // SUB_CELLS_*: what the key bits below the cell index hold, if any
    u32 slicesPerCell;       // x slices a cell: 8, 16 or 32 (sim::Grid::slicesPerCell)
    u32 cellOrder;           // CELL_ORDER_*: how the key numbers cells (sim::CellOrder)
    // The predator (sim::Params): boids within its radius flee (rules.glsl: integrate).
    u32 predatorOn; // 0: no predator, and the step is exactly the one without
    f32 predatorX;  // its position, wrapped into the domain
    f32 predatorY;
    f32 predatorZ;
    f32 predatorRadiusSq;
    f32 predatorInvRadius;
    f32 predatorScale;
    f32 pad3;
};

// A cell's range in the sorted arrays is [start, end); empty cells hold CELL_EMPTY in both.
#define CELL_EMPTY 0xffffffffu

// Sort keys below the cell index (StepConstants::subCells). SLICES: cell * 8 + the eighth of the
// cell along x the boid lies in, and for every sub-key s, empty cells included, its start: the first
// sorted position with a key of s or more (one more entry, n, past the last). A row of cells is then
// sorted by x at an eighth of a cell, and any run of its sub-keys [a, b) is [start a, start b).
// QUARTERS: the domain cut into rows half a cell high and deep (quarter rows: (2 dim)^2 of them, z
// half-cell major), each row sorted by x: (quarter row * dim + cell x) * S + x slice, S x slices a
// cell (StepConstants::slicesPerCell: 8, 16 or 32), with the same starts. A quarter row's window is
// then one range across its cells; a cell's boids lie in four runs, so quarters write no cell ranges.
#define SUB_CELLS_NONE 0u
#define SUB_CELLS_SLICES 2u
#define SUB_CELLS_QUARTERS 3u

// Cell keys (StepConstants::cellOrder): x + dim (y + dim z), or the Morton code of x, y, z (common.glsl:
// cellKey). Morton grids take no quarter rows.
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
