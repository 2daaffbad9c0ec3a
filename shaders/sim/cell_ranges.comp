#version 460
// Each cell's [start, end) in the sorted pairs, written where the sorted cells change (cells left
// empty keep CELL_EMPTY from the clear before this pass); or with slices or quarters the start of
// every sub-key, empty cells included, and one past the last (sim_types.h). Slices and quarters write no cell ranges: their walks and the grid statistics read the
// starts (with quarters a cell's boids lie in four runs). With REORDER (the
// coherent mode) the same pass gathers positions, velocities and ids into sorted order.
#extension GL_GOOGLE_include_directive : require
// Before the includes: dispatch.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "sim_types.h"
#include "common.glsl"


layout(std430, binding = 0) readonly buffer SortedKeys { uint sortedKeys[]; };
layout(std430, binding = 1) buffer CellRanges { uvec2 cellRanges[]; };
#ifdef REORDER
layout(std430, binding = 2) readonly buffer SortedSlots { uint sortedSlots[]; };
layout(std430, binding = 3) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 4) readonly buffer VelIn { vec4 velIn[]; };
layout(std430, binding = 5) readonly buffer IdsIn { uint idsIn[]; };
layout(std430, binding = 6) writeonly buffer PosOut { vec4 posOut[]; };
layout(std430, binding = 7) writeonly buffer VelOut { vec4 velOut[]; };
layout(std430, binding = 8) writeonly buffer IdsOut { uint idsOut[]; };
layout(std430, binding = 9) buffer SubRanges { uvec2 subRanges[]; };
#else
layout(std430, binding = 2) buffer SubRanges { uvec2 subRanges[]; };
#endif
layout(push_constant) uniform Push { StepConstants c; };

// Where sub-key `key` would start among the n sorted keys: the first position whose key is key or more.
uint lowerBound(uint key, uint n) {
    uint lo = 0, hi = n;
    while (lo < hi) {
        const uint mid = (lo + hi) / 2;
        if (sortedKeys[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void main() {
    const uint n = c.boidCount;
    const bool quarters = c.subCells == SUB_CELLS_QUARTERS;
    const bool starts = c.subCells == SUB_CELLS_SLICES || quarters;
    // Sub-keys come slicesPerCell a cell (slices) or a cell of a quarter row.
    const uint cellKeys = cellKeyCount(c);
    const uint total = starts ? (quarters ? 4 : 1) * cellKeys * c.slicesPerCell : cellKeys;
    // Slices and quarters: sub-key s starts at the first sorted position whose key is s or more. The
    // first invocations, one a block of 64 sub-keys, fill the empty blocks, found by binary search
    // (first, so that the searches' loads overlap the boids' work); the next writes the entry past
    // the last; then the boids write the starts of their own sub-keys and of the empty ones around
    // them in their block (at most 64 words each). No invocation writes a long run of empty cells
    // alone, and blocks of 64 keep the searches few (one per 8 cells with eighths).
    const uint blockShift = 6, blocks = (total + 63) >> blockShift;
    const uint i = linearInvocationIndex();
    if (starts && i <= blocks) {
        if (i == blocks) {
            subRanges[total].x = n;
            return;
        }
        const uint first = i << blockShift, end = min(first + 64, total);
        const uint p = lowerBound(first, n);
        if (p < n && sortedKeys[p] < end) return;  // occupied: its boids write it
        for (uint s = first; s < end; ++s) subRanges[s].x = p;
        return;
    }
    const uint k = starts ? i - blocks - 1 : i;  // the boid's sorted position
    if (k >= n) return;
    const uint key = sortedKeys[k];
    const uint before = k == 0 ? ~key : sortedKeys[k - 1];
    const uint after = k == n - 1 ? ~key : sortedKeys[k + 1];
    if (!starts) {
        if (before != key) cellRanges[key].x = k;
        if (after != key) cellRanges[key].y = k + 1;
    } else {
        // The first boid of a sub-key starts it and the empty sub-keys of its block just below it;
        // the last boid of a block starts the empty ones above it.
        const uint blockLow = (1u << blockShift) - 1;
        if (before != key)
            for (uint s = before >> blockShift == key >> blockShift ? before + 1 : key & ~blockLow; s <= key; ++s)
                subRanges[s].x = k;
        if (after >> blockShift != key >> blockShift)
            for (uint s = key + 1; s <= min(key | blockLow, total - 1); ++s) subRanges[s].x = k + 1;
    }
#ifdef REORDER
    const uint slot = sortedSlots[k];
    posOut[k] = posIn[slot];
    velOut[k] = velIn[slot];
    idsOut[k] = idsIn[slot];
#endif
}
