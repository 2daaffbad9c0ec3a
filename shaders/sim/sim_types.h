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

// Boids are stored as vec4 positions and vec4 velocities, so loads are 16-byte wide. Velocities' w is
// unused; so is positions', except in the coherent search's input, where it holds the packed velocity
// below.

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
    u32 gridDim;                // cells per axis
    u32 rowsPerCell;            // rows a cell along y and along z: the row height is cellWidth / rowsPerCell
    f32 reach;                  // max(r) with a rounding margin: rows and slices farther away are not scanned
    f32 float16FilterThreshold; // naive filter in float16 on positions / L: the same test, a wider margin
    u32 slicesPerCell;          // x slices a cell in the sort key: 1 (whole cells) or 8
    u32 cellOrder;              // CELL_ORDER_*: how the key numbers cells (sim::CellOrder)
    f32 velocityPackScale;      // PACKED_VELOCITY_LEVELS / maxSpeed: a velocity component in packing steps
    // The predator (sim::Params): boids within its radius flee (rules.glsl: integrate).
    u32 predatorOn; // 0: no predator, and the step is exactly the one without
    f32 predatorX;  // its position, wrapped into the domain
    f32 predatorY;
    f32 predatorZ;
    f32 predatorRadiusSq;
    f32 predatorInvRadius;
    f32 predatorScale;
    f32 velocityPackStep; // maxSpeed / PACKED_VELOCITY_LEVELS: one packing step as a velocity
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

// The packed velocity (common.glsl: packVelocity), which the coherent mode's reorder writes into each
// position's w: three fields of 10 bits, x from bit 0, y from bit 10, z from bit 20, bits 30 and 31
// zero. A field holds 512 + q, q = clamp(roundEven(v * velocityPackScale), -511, 511): steps of
// maxSpeed / 511 around 0, zero exactly 512.
//
// The search sums the words of a boid's neighbours as integers, modulo 2^32, in three sums: s0 of w,
// s1 of w >> 10, s2 of w >> 20 (one integer add each a neighbour, no decode). With S_x, S_y, S_z the
// sums of the fields over m words, s2 = S_z, s1 = S_y + 2^10 S_z and s0 = S_x + 2^10 S_y + 2^20 S_z,
// so that S_x = s0 - 2^10 s1, S_y = s1 - 2^10 s2 and S_z = s2, all modulo 2^32 whatever the carries.
// Each D = S - 512 m (the sum of the q) lies in [-511 m, 511 m]: read as a signed 32-bit integer it is
// exact while 511 m < 2^31, that is for m up to 4,202,512 words. The search decodes its sums (and
// starts them again) before they hold more than PACKED_VELOCITY_ROOM candidates, one word fewer,
// since the boid's own word is taken out afterwards; so no sum is ever ambiguous, for any count. The
// bias 512 m takes m from the float neighbour count, exact below 2^24 neighbours a boid: the same bound
// as the full-precision mean's, which divides by that count.
#define PACKED_VELOCITY_LEVELS 511.0
#define PACKED_VELOCITY_ROOM 4202511u

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
