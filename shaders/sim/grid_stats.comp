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

layout(std430, binding = 0) readonly buffer KeyStarts { uint keyStarts[]; };
layout(std430, binding = 1) buffer Stats { GridStats stats; };
layout(push_constant) uniform Push { StepConstants c; };

// A cell's boids: the keys of its slices, in each of its rows (sim_types.h).
uint boidsIn(uvec3 cell) {
    const uint S = c.slicesPerCell, R = c.rowsPerCell, dim = c.gridDim;
    if (c.cellOrder == CELL_ORDER_MORTON) {
        const uint key = mortonIndex(cell) * S;
        return keyStarts[key + S] - keyStarts[key];
    }
    uint count = 0;
    for (uint rz = 0; rz < R; ++rz)
        for (uint ry = 0; ry < R; ++ry) {
            const uint row = (R * cell.z + rz) * R * dim + R * cell.y + ry;
            const uint first = (row * dim + cell.x) * S;
            count += keyStarts[first + S] - keyStarts[first];
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
