#version 460
// Each cell's [start, end) in the sorted pairs, written where the sorted cells change (cells left
// empty keep CELL_EMPTY from the clear before this pass); with octants, each sub-cell's too, and with
// slices or quarters the start of every sub-key, empty cells included, and one past the last
// (shared.h). With REORDER (the coherent mode) the same pass gathers positions, velocities and ids
// into cell order.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
// Before the includes: common.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "../shared.h"
#include "../common.glsl"


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

// Slices and quarters: sub-key s starts at the first sorted position whose key is s or more. Position
// k (k <= n, with key `total` at n) starts the sub-keys after its predecessor's key up to its own.
// Gaps of a few sub-keys each invocation writes; long ones (runs of empty cells) the subgroup writes
// together, one gap after another, so that no invocation writes thousands of words alone.
void writeStarts(uint k, uint n, uint total) {
    const uint longGap = 32;
    uint lo = 0, hi = 0;  // sub-keys [lo, hi) start at k
    if (k <= n) {
        lo = k == 0 ? 0 : sortedKeys[k - 1] + 1;
        hi = (k == n ? total : sortedKeys[k]) + 1;
    }
    if (hi - lo <= longGap)
        for (uint s = lo; s < hi; ++s) subRanges[s].x = k;
    bool pending = hi - lo > longGap;
    while (subgroupAny(pending)) {
        // The lanes here now share the work (counted each round: nothing promises that the lanes
        // which split in the loops come back together).
        const uvec4 present = subgroupBallot(true);
        const uint lanes = subgroupBallotBitCount(present), rank = subgroupBallotExclusiveBitCount(present);
        const uint leader = subgroupBallotFindLSB(subgroupBallot(pending));
        const uint from = subgroupShuffle(lo, leader), to = subgroupShuffle(hi, leader);
        const uint start = subgroupShuffle(k, leader);
        for (uint s = from + rank; s < to; s += lanes) subRanges[s].x = start;
        if (gl_SubgroupInvocationID == leader) pending = false;
    }
}

void main() {
    const uint k = linearInvocationIndex();
    const uint n = c.boidCount;
    const uint shift = c.subCells == SUB_CELLS_QUARTERS ? 5 : c.subCells != SUB_CELLS_NONE ? 3 : 0;
    // Every invocation of the dispatch (n + 1 of them, and the rest of the last group) takes part.
    if (c.subCells == SUB_CELLS_SLICES || c.subCells == SUB_CELLS_QUARTERS)
        writeStarts(k, n, (c.gridDim * c.gridDim * c.gridDim) << shift);
    if (k >= n) return;
    const uint key = sortedKeys[k];
    const uint before = k == 0 ? ~key : sortedKeys[k - 1];
    const uint after = k == n - 1 ? ~key : sortedKeys[k + 1];
    if (before >> shift != key >> shift) cellRanges[key >> shift].x = k;
    if (after >> shift != key >> shift) cellRanges[key >> shift].y = k + 1;
    if (c.subCells == SUB_CELLS_OCTANTS) {
        if (before != key) subRanges[key].x = k;
        if (after != key) subRanges[key].y = k + 1;
    }
#ifdef REORDER
    const uint slot = sortedSlots[k];
    posOut[k] = posIn[slot];
    velOut[k] = velIn[slot];
    idsOut[k] = idsIn[slot];
#endif
}
