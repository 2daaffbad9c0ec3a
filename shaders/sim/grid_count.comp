#version 460
// The grid search counted instead of stepped (sim::countSearch), in the scattered layout: each boid
// walks the same rows and x windows as grid_search_scattered.comp (grid_walk.glsl) and counts what
// it meets there, writing nothing else.
//
// For each boid it counts every candidate the walk meets and those within max(r), the boid itself
// among both. One lane of each subgroup also counts the candidate steps the subgroup ran (each range
// takes as many steps as its longest lane's) and those steps in which some lane met a boid within
// max(r), so that the rules' work ran in every lane.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_vote : require
// This comes before the includes because dispatch.glsl uses gl_WorkGroupSize, which must already be
// specialized.
layout(local_size_x_id = 0) in;
#include "sim_types.h"
#include "common.glsl"

layout(std430, binding = 0) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 1) readonly buffer SortedSlots { uint sortedSlots[]; };
layout(std430, binding = 2) readonly buffer KeyStarts { uint keyStarts[]; };
layout(std430, binding = 3) writeonly buffer Counts { uvec4 counts[]; };  // sim::SearchCounter
layout(std430, binding = 4) writeonly buffer Totals { uint totals[]; };   // totals[8] is the subgroup size
layout(push_constant) uniform Push { StepConstants c; };

struct Counted {
    uint candidates;
    uint reached;
    uint steps;
    uint ruleSteps;
};

// This invocation's boid's counts, which visitRange adds to.
Counted counted;

// Counts the candidates in sorted positions [start, end), at displacements p_j - origin, in the
// subgroup's steps. The lanes that call this together (those at the same point of the walk) step
// together, one candidate a lane a step, for as long as the longest range among them. The distance
// is `precise` so that the CPU's replica in the tests finds the same boids within max(r).
void visitRange(vec3 origin, uint start, uint end, bool wrapPairs) {
    const float reach2 = max(max(c.cohesionRadiusSq, c.separationRadiusSq), c.alignmentRadiusSq);
    const uint length = end - start, longest = subgroupMax(length);
    uint ruleSteps = 0;
    for (uint s = 0; s < longest; ++s) {
        bool reached = false;
        if (s < length) {
            precise vec3 d = posIn[sortedSlots[start + s]].xyz - origin;
            if (wrapPairs) d = minImage(d, c.domainHalf);
            precise const float dist2 = d.x * d.x + d.y * d.y + d.z * d.z;
            reached = dist2 < reach2;
        }
        if (subgroupAny(reached)) ++ruleSteps;
        if (reached) ++counted.reached;
    }
    counted.candidates += length;
    if (subgroupElect()) {
        counted.steps += longest;
        counted.ruleSteps += ruleSteps;
    }
}

#include "grid_walk.glsl"

void main() {
    const uint i = linearInvocationIndex();
    if (i >= c.boidCount) return;
    const uint self = sortedSlots[i];
    const vec3 p = posIn[self].xyz;
    counted = Counted(0, 0, 0, 0);
    scanRows(p);
    // The neighbours leave out the boid itself, which was met at d = 0 unless max(r)^2 rounds to 0.
    const float reach2 = max(max(c.cohesionRadiusSq, c.separationRadiusSq), c.alignmentRadiusSq);
    counts[self] = uvec4(counted.candidates, counted.reached - (reach2 > 0.0 ? 1u : 0u), counted.steps,
                         counted.ruleSteps);
    if (i == 0) totals[8] = gl_SubgroupSize;
}
