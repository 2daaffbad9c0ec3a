#version 460
// Occupancy of the grid for the panel: occupied cells and the largest cell's boid count, one
// atomic per subgroup.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Before the includes: common.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "../shared.h"
#include "../common.glsl"

layout(std430, binding = 0) readonly buffer CellRanges { uvec2 cellRanges[]; };
layout(std430, binding = 1) buffer Stats { GridStats stats; };
layout(push_constant) uniform Push { StepConstants c; };

void main() {
    const uint cell = linearInvocationIndex();
    const uint cells = c.gridDim * c.gridDim * c.gridDim;
    const uvec2 range = cell < cells ? cellRanges[cell] : uvec2(CELL_EMPTY);
    const bool occupied = range.x != CELL_EMPTY;
    const uint occupiedHere = subgroupBallotBitCount(subgroupBallot(occupied));
    const uint largestHere = subgroupMax(occupied ? range.y - range.x : 0u);
    if (subgroupElect() && occupiedHere > 0) {
        atomicAdd(stats.occupiedCells, occupiedHere);
        atomicMax(stats.largestCell, largestHere);
    }
}
