// GPU data shared by C++ and GLSL: push-constant blocks and constants, std430 layouts.
// C++ sees these in namespace gpudata, with static_asserts on sizes below.
#ifndef VKBOIDS_SHARED_H
#define VKBOIDS_SHARED_H

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
    u32 gridDim;     // cells per axis
    u32 searchCells; // 8 or 27
    f32 reach;       // grid search: max(r) with a rounding margin; cells farther away are skipped
    f32 halfFilterThreshold; // naive filter in float16 on positions / L: the same test, a wider margin
    u32 subCells;            // SUB_CELLS_*: what the key bits below the cell index hold, if any
    u32 slicesPerCell;       // x slices a cell: 8, 16 or 32 (sim::Grid::slicesPerCell)
    f32 pad2;
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

// What the grid-stats pass reports for the panel.
struct GridStats {
    u32 occupiedCells;
    u32 largestCell; // boids in the fullest cell
    u32 pad0;
    u32 pad1;
};

// Radix sort of (key, value) pairs of 32-bit unsigned integers.
#define SORT_RADIX_BITS 8
#define SORT_RADIX 256
#define SORT_MAX_PASSES 4

struct SortHistogramConstants {
    u32 count;       // pairs
    u32 passCount;   // digits to histogram
    u32 tileSize;    // keys per work group
    u32 keyMask;     // low keyBits bits set
    u32 statusWords; // tile status words the passes will use, cleared here (a multiple of 4)
    u32 groups;      // work groups that count keys (a dispatch may launch a few more)
    u32 pad1;
    u32 pad2;
};

struct SortPassConstants {
    u32 count;
    u32 shift; // bit offset of this pass's digit
    u32 pass;  // index into the global histogram
    u32 tileCount;
    u32 keyMask;
    u32 pad0;
    u32 pad1;
    u32 pad2;
};

// The sort's counters: one per pass that hands out its tiles, then the histogram's finished groups.
#define SORT_HISTOGRAM_FINISHED SORT_MAX_PASSES
#define SORT_COUNTER_WORDS (SORT_MAX_PASSES + 1)

// Tile status words of the chained scan: 2 flag bits over a 30-bit count.
#define SORT_FLAG_NONE 0u
#define SORT_FLAG_AGGREGATE 1u
#define SORT_FLAG_PREFIX 2u
#define SORT_FLAG_SHIFT 30u
#define SORT_VALUE_MASK 0x3fffffffu
#define SORT_MAX_LOOKBACK_WINDOW 16u  // predecessors one look-back step may read

// The instrumented pass (sort_onesweep_timed) writes one row of SORT_TIMING_STAMPS uvec2 words per
// tile: device clock readings (clockRealtime2x32EXT, low word first) at the end of each phase, taken
// by invocation 0 once the whole group has got there, then the tile's look-back rounds in .x.
#define SORT_STAMP_START 0u    // the tile is claimed
#define SORT_STAMP_LOADED 1u   // its keys and values are in registers
#define SORT_STAMP_RANKED 2u   // ranked within subgroups
#define SORT_STAMP_SCANNED 3u  // its counts published and scanned within the tile
#define SORT_STAMP_PLACED 4u   // its keys placed in shared memory in tile order
#define SORT_STAMP_LOOKBACK 5u // its exclusive prefix known (tile 0: at once)
#define SORT_STAMP_KEYS_OUT 6u // keys written out
#define SORT_STAMP_END 7u      // values written out
#define SORT_STAMP_ROUNDS 8u   // not a clock: .x look-back rounds (1 + stalls; tile 0: 0; low 16 bits)
                               // and digit 0's polls of unpublished words (high 16); .y digit 0's
                               // look-back steps (low 16 bits) and predecessors it added (high 16)
#define SORT_TIMING_STAMPS 9u

// vkboids-probe (tools/latency_probe.cpp): the walk of shaders/probe/chase.comp and the round trips
// of shaders/probe/pingpong.comp.
struct ProbeConstants {
    u32 steps;  // chase: steps of each walk
    u32 rounds; // pingpong: round trips
    u32 pad0;
    u32 pad1;
};

#ifdef __cplusplus
static_assert(sizeof(StepConstants) == 80);
static_assert(sizeof(GridStats) == 16);
static_assert(sizeof(SortHistogramConstants) == 32);
static_assert(sizeof(SortPassConstants) == 32);
static_assert(sizeof(ProbeConstants) == 16);
} // namespace gpudata
#endif

#endif
