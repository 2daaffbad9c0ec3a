#version 460
// Occupancy of the grid for the panel: occupied cells and the largest cell's boid count, one
// atomic per subgroup.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Before the includes: dispatch.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "sim_types.h"
#include "common.glsl"

layout(std430, binding = 0) readonly buffer CellRanges { uvec2 cellRanges[]; };
layout(std430, binding = 1) buffer Stats { GridStats stats; };
layout(std430, binding = 2) readonly buffer SubRanges { uvec2 subRanges[]; };
layout(push_constant) uniform Push { StepConstants c; };

// A cell's boids: from its range, or with slices and quarters (no cell ranges) from the starts of
// its slices, in its four quarter rows.
uint boidsIn(uvec3 cell) {
    const uint slices = c.slicesPerCell;
    const uint key = cellKey(cell, c);
    if (c.subCells == SUB_CELLS_SLICES) return subRanges[slices * (key + 1)].x - subRanges[slices * key].x;
    if (c.subCells != SUB_CELLS_QUARTERS) {
        const uvec2 range = cellRanges[key];
        return range.x == CELL_EMPTY ? 0u : range.y - range.x;
    }
    const uint dim = c.gridDim;
    uint count = 0;
    for (uint q = 0; q < 4; ++q) {
        const uint row = quarterRow(2 * cell.y + (q & 1), 2 * cell.z + (q >> 1), dim);
        const uint first = (row * dim + cell.x) * slices;
        count += subRanges[first + slices].x - subRanges[first].x;
    }
    return count;
}

void main() {
    const uint cell = linearInvocationIndex();
    const uint cells = c.gridDim * c.gridDim * c.gridDim;
    const uint dim = c.gridDim;
    const uint boids = cell < cells ? boidsIn(uvec3(cell % dim, cell / dim % dim, cell / (dim * dim))) : 0u;
    const bool occupied = boids > 0;
    const uint occupiedHere = subgroupBallotBitCount(subgroupBallot(occupied));
    const uint largestHere = subgroupMax(boids);
    if (subgroupElect() && occupiedHere > 0) {
        atomicAdd(stats.occupiedCells, occupiedHere);
        atomicMax(stats.largestCell, largestHere);
    }
}
