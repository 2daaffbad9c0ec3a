#version 460
// The counting grid build (sim::recordCountingBuild), one pass a define, one invocation a boid:
// HISTOGRAM: boids a key (counts[], cleared before).
// SCATTER:   each boid's slot into its key's range, at an arbitrary place within it: positions
//            come from counting the key's count down (which leaves counts[] at zero again).
//            Writes the key beside it (all of a range's keys are equal: the sorted keys).
// RANK:      each boid's final place within its key's range, its rank among the range's slots, so
//            that boids of a key are ordered by slot whatever order the scatter's atomics took:
//            the build is deterministic, and the same as a stable sort of (key, slot) pairs. With
//            REORDER (the coherent mode) the pass gathers positions, velocities and ids into sorted
//            order.
// Starts (the scan of the counts): keyStarts (sim_types.h), as the radix build writes them.
//
// HISTOGRAM and SCATTER take one atomic a run of equal keys within a subgroup: boids in cell order
// (the coherent mode) make long runs.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
// Before the includes: dispatch.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "sim_types.h"
#include "common.glsl"

layout(push_constant) uniform Push { StepConstants c; };

#if defined(HISTOGRAM)
layout(std430, binding = 0) readonly buffer Keys { uint cellKeys[]; };
layout(std430, binding = 1) buffer Counts { uint counts[]; };
#elif defined(SCATTER)
layout(std430, binding = 0) readonly buffer Keys { uint cellKeys[]; };
layout(std430, binding = 1) buffer Counts { uint counts[]; };
layout(std430, binding = 2) readonly buffer Starts { uint starts[]; };
layout(std430, binding = 3) writeonly buffer ScatteredSlots { uint scatteredSlots[]; };
layout(std430, binding = 4) writeonly buffer SortedKeys { uint sortedKeys[]; };
#else
layout(std430, binding = 0) readonly buffer SortedKeys { uint sortedKeys[]; };
layout(std430, binding = 1) readonly buffer ScatteredSlots { uint scatteredSlots[]; };
layout(std430, binding = 2) readonly buffer Starts { uint starts[]; };
layout(std430, binding = 3) writeonly buffer SortedSlots { uint sortedSlots[]; };
#ifdef REORDER
layout(std430, binding = 4) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 5) readonly buffer VelIn { vec4 velIn[]; };
layout(std430, binding = 6) readonly buffer IdsIn { uint idsIn[]; };
layout(std430, binding = 7) writeonly buffer PosOut { vec4 posOut[]; };
layout(std430, binding = 8) writeonly buffer VelOut { vec4 velOut[]; };
layout(std430, binding = 9) writeonly buffer IdsOut { uint idsOut[]; };
#endif
#endif


#if defined(HISTOGRAM) || defined(SCATTER)
const uint NO_KEY = 0xffffffffu; // invocations past the last boid: a run of their own, never counted

// The run of equal keys this invocation belongs to within its subgroup: its first lane and length.
// Every invocation takes part (none has returned), so the ballots cover the whole subgroup.
void runOf(uint key, out uint head, out uint length) {
    const uint lane = gl_SubgroupInvocationID;
    const uint previous = subgroupShuffle(key, lane == 0 ? 0 : lane - 1);
    const uvec4 heads = subgroupBallot(lane == 0 || previous != key);
    head = subgroupBallotFindMSB(heads & gl_SubgroupLeMask);
    const uvec4 later = heads & gl_SubgroupGtMask;
    const uint lanes = subgroupBallotBitCount(subgroupBallot(true));
    const uint next = subgroupBallotBitCount(later) == 0 ? lanes : subgroupBallotFindLSB(later);
    length = next - head;
}
#endif

void main() {
    const uint i = linearInvocationIndex();
    const uint n = c.boidCount;
#if defined(HISTOGRAM)
    const uint key = i < n ? cellKeys[i] : NO_KEY;
    uint head, length;
    runOf(key, head, length);
    if (gl_SubgroupInvocationID == head && key != NO_KEY) atomicAdd(counts[key], length);
#elif defined(SCATTER)
    const uint key = i < n ? cellKeys[i] : NO_KEY;
    uint head, length;
    runOf(key, head, length);
    uint left = 0;  // the key's count before this run took its places
    if (gl_SubgroupInvocationID == head && key != NO_KEY) left = atomicAdd(counts[key], -length);
    left = subgroupShuffle(left, head);
    if (key == NO_KEY) return;
    const uint k = starts[key] + left - length + (gl_SubgroupInvocationID - head);
    scatteredSlots[k] = i;
    sortedKeys[k] = key;
#else
    if (i >= n) return;
    const uint key = sortedKeys[i];
    const uint slot = scatteredSlots[i];
    const uint start = starts[key], end = starts[key + 1];
    // The boid reads its own key's range: no more than the search reads of its own row (a key's
    // range lies within a slice of a row, which the search scans), so even with every boid in one
    // key the rank costs no more than the search it prepares.
    uint rank = 0;
    for (uint q = start; q < end; ++q) rank += scatteredSlots[q] < slot ? 1u : 0u;
    const uint k = start + rank;
    sortedSlots[k] = slot;
#ifdef REORDER
    // The position's w carries the packed velocity that the coherent search sums (sim_types.h).
    const vec4 v = velIn[slot];
    posOut[k] = vec4(posIn[slot].xyz, uintBitsToFloat(packVelocity(v.xyz, c)));
    velOut[k] = v;
    idsOut[k] = idsIn[slot];
#endif
#endif
}
