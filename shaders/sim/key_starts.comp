#version 460
// Every key's start in the sorted keys (sim_types.h: keyStarts), empty keys included, and one past
// the last. With REORDER (the coherent mode) the same pass gathers positions, velocities and ids
// into sorted order.
#extension GL_GOOGLE_include_directive : require
// Before the includes: dispatch.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "sim_types.h"
#include "common.glsl"

layout(std430, binding = 0) readonly buffer SortedKeys { uint sortedKeys[]; };
layout(std430, binding = 1) writeonly buffer KeyStarts { uint keyStarts[]; };
#ifdef REORDER
layout(std430, binding = 2) readonly buffer SortedSlots { uint sortedSlots[]; };
layout(std430, binding = 3) readonly buffer PosIn { vec4 posIn[]; };
layout(std430, binding = 4) readonly buffer VelIn { vec4 velIn[]; };
layout(std430, binding = 5) readonly buffer IdsIn { uint idsIn[]; };
layout(std430, binding = 6) writeonly buffer PosOut { vec4 posOut[]; };
layout(std430, binding = 7) writeonly buffer VelOut { vec4 velOut[]; };
layout(std430, binding = 8) writeonly buffer IdsOut { uint idsOut[]; };
#endif
layout(push_constant) uniform Push { StepConstants c; };

// Where key `key` would start among the n sorted keys: the first position whose key is key or more.
uint lowerBound(uint key, uint n) {
    uint lo = 0, hi = n;
    while (lo < hi) {
        const uint mid = (lo + hi) / 2;
        if (sortedKeys[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// Keys come in blocks of 64. The first invocations, one a block, fill the empty blocks, found by
// binary search (first, so that the searches' loads overlap the boids' work); the next writes the
// entry past the last; then each boid writes the starts of its own key and of the empty keys around
// it in its block (at most 64 words). No invocation writes a long run of empty keys alone.
const uint BLOCK_SHIFT = 6;

void main() {
    const uint n = c.boidCount;
    const uint total = keyCount(c);
    const uint blocks = (total + 63) >> BLOCK_SHIFT;
    const uint i = linearInvocationIndex();
    if (i <= blocks) {
        if (i == blocks) {
            keyStarts[total] = n;
            return;
        }
        const uint first = i << BLOCK_SHIFT, end = min(first + 64, total);
        const uint p = lowerBound(first, n);
        if (p < n && sortedKeys[p] < end) return;  // occupied: its boids write it
        for (uint s = first; s < end; ++s) keyStarts[s] = p;
        return;
    }
    const uint k = i - blocks - 1;  // the boid's sorted position
    if (k >= n) return;
    const uint key = sortedKeys[k];
    const uint before = k == 0 ? ~key : sortedKeys[k - 1];
    const uint after = k == n - 1 ? ~key : sortedKeys[k + 1];
    // The first boid of a key starts it and the empty keys of its block just below it; the last boid
    // of a block starts the empty ones above it.
    const uint blockLow = (1u << BLOCK_SHIFT) - 1;
    if (before != key)
        for (uint s = before >> BLOCK_SHIFT == key >> BLOCK_SHIFT ? before + 1 : key & ~blockLow; s <= key; ++s)
            keyStarts[s] = k;
    if (after >> BLOCK_SHIFT != key >> BLOCK_SHIFT)
        for (uint s = key + 1; s <= min(key | blockLow, total - 1); ++s) keyStarts[s] = k + 1;
#ifdef REORDER
    const uint slot = sortedSlots[k];
    // The position's w carries the packed velocity that the coherent search sums (sim_types.h).
    const vec4 v = velIn[slot];
    posOut[k] = vec4(posIn[slot].xyz, uintBitsToFloat(packVelocity(v.xyz, c)));
    velOut[k] = v;
    idsOut[k] = idsIn[slot];
#endif
}
