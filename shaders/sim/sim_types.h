// The simulation's GPU data in std430 layout, written once here and included by both C++ (namespace
// gpudata) and GLSL, so that the two can never disagree about it.
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

// The push constants that every flocking pass receives.
struct StepConstants {
    f32 cohesionRadiusSq;
    f32 separationRadiusSq;
    f32 alignmentRadiusSq;
    f32 filterThreshold; // the naive filter: a pair can be neighbours only if every | |d|-L | exceeds this
    f32 cohesionScale;
    f32 separationScale;
    f32 alignmentScale;
    f32 maxSpeed;
    f32 dt;
    f32 domainHalf; // L, the half-width of the domain, which is the periodic cube [-L, L)^3
    f32 cellWidth;  // 2L / gridDim
    f32 invCellWidth;
    u32 boidCount;
    u32 gridDim;                // the number of cells along each axis
    u32 rowsPerCell;            // rows per cell along y and along z; a row is cellWidth / rowsPerCell high
    f32 reach;                  // max(r) plus a rounding margin; rows and slices farther away are not scanned
    f32 float16FilterThreshold; // the naive filter in float16 on positions / L, with a wider margin
    u32 slicesPerCell;          // slices per cell along x in the sort key: 1 (whole cells) or 8
    u32 cellOrder;              // CELL_ORDER_*, how the key numbers cells (sim::CellOrder)
    f32 velocityPackScale;      // PACKED_VELOCITY_LEVELS / maxSpeed: turns a velocity into packing steps
    // The predator (sim::Params). Boids within its radius flee from it (see integrate in rules.glsl).
    u32 predatorOn; // 0 means no predator, and then the step is exactly the step without one
    f32 predatorX;  // its position, wrapped into the domain
    f32 predatorY;
    f32 predatorZ;
    f32 predatorRadiusSq;
    f32 predatorInvRadius;
    f32 predatorScale;
    f32 velocityPackStep; // maxSpeed / PACKED_VELOCITY_LEVELS, which turns one packing step into a velocity
};

// The grid's sort key (gridKey in common.glsl). The domain is cut into rows that run along x, with
// rowsPerCell rows per cell along y and along z, and each row is cut into slices along x, with
// slicesPerCell slices per cell. In linear cell order, a key is
//   (row * gridDim + cell x) * slicesPerCell + slice,  where  row = row z * rowsPerCell * gridDim + row y.
// The slices of a row therefore have consecutive keys, so that any x window of a row is one run of
// keys, or two where the window wraps around the domain. In Morton cell order (where rowsPerCell is
// 1), a key is mortonIndex(cell) * slicesPerCell + slice, which is consecutive only within a cell.
// With one slice and one row per cell, the keys are whole cells.
//
// keyStarts[k] is the first sorted position whose key is k or more, for every key k of the grid,
// empty or not, and keyStarts[keyCount] = boidCount: the boids of keys [a, b) are the sorted
// positions [keyStarts[a], keyStarts[b]).

// How a cell's key is numbered (StepConstants::cellOrder; cellKey in common.glsl): linear order gives
// x + dim (y + dim z), Morton order the Morton code of x, y and z. Morton grids have one row per cell.
#define CELL_ORDER_LINEAR 0u
#define CELL_ORDER_MORTON 1u

// The packed velocity (packVelocity in common.glsl), which the coherent mode's reorder writes into
// each position's w so that the search need not load the velocity. It has three fields of 10 bits: x
// from bit 0, y from bit 10 and z from bit 20; bits 30 and 31 are zero. A field holds 512 + q, where
// q = clamp(roundEven(v * velocityPackScale), -511, 511), so the steps are maxSpeed / 511 around 0
// and a zero component is exactly 512.
//
// The search sums the words of a boid's neighbours as integers, modulo 2^32, in three sums: s0 of w,
// s1 of w >> 10 and s2 of w >> 20. That costs one integer add per sum and neighbour, with no decoding.
// With S_x, S_y and S_z the sums of the fields over m words, s2 = S_z, s1 = S_y + 2^10 S_z and
// s0 = S_x + 2^10 S_y + 2^20 S_z, so that S_x = s0 - 2^10 s1, S_y = s1 - 2^10 s2 and S_z = s2, all
// modulo 2^32 whatever the carries. Each D = S - 512 m (the sum of the q) lies in [-511 m, 511 m],
// so read as a signed 32-bit integer it is exact while 511 m < 2^31, that is for m up to 4,202,512
// words. The search decodes its sums, and starts them again, before they hold more than
// PACKED_VELOCITY_ROOM candidates. The room is one word less than that bound because the boid's own
// word is taken out afterwards. So no sum is ever ambiguous, whatever the count. The bias 512 m takes
// m from the neighbour count held as a float, which is exact below 2^24 neighbours per boid: the same
// bound as for the full-precision mean, which divides by that count.
#define PACKED_VELOCITY_LEVELS 511.0
#define PACKED_VELOCITY_ROOM 4202511u

// What the grid statistics pass reports to the panel.
struct GridStats {
    u32 occupiedCells;
    u32 largestCell; // the number of boids in the fullest cell
    u32 pad0;
    u32 pad1;
};

#ifdef __cplusplus
static_assert(sizeof(StepConstants) == 112);
static_assert(sizeof(GridStats) == 16);
} // namespace gpudata
#endif

#endif
