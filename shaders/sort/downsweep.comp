#version 460
// Reduce-then-scan sort, last step of a pass: each work group ranks its tile's keys stably with
// subgroup ballots (rank.glsl, as onesweep.comp does) and scatters keys and values to their digit's
// offset for the tile plus their rank within it. It reads keys and values once and writes them once:
// the keys first, ranked and scattered, then the values, which follow the keys' ranks.
//
// The spine leaves each tile's offset within its digit's run and each run's length; the runs'
// starts (an exclusive scan of the 256 lengths, the scan's last level) are scanned here by every
// group, which costs a kilobyte of cached loads a group instead of a dispatch and its barrier.
//
// Ranking is stable: subgroup g owns keys [g*S*K, (g+1)*S*K) of the tile, row k of lane l is key
// k*S + l, rows are ranked in order, and lanes with equal digits are ranked by lane index. Every
// loop over a thread's keys is unrolled, so its arrays stay in registers.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint KEYS_PER_THREAD = 8;
layout(constant_id = 2) const uint MAX_SUBGROUPS = 8;  // local size / subgroup size
layout(constant_id = 3) const uint SUBGROUP_SIZE = 32;  // the pinned size: ballots fit in .x up to 32
#include "sort_types.h"
#include "../dispatch.glsl"

layout(std430, binding = 0) readonly buffer KeysIn { uint keysIn[]; };
layout(std430, binding = 1) readonly buffer ValuesIn { uint valuesIn[]; };
layout(std430, binding = 2) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = 3) writeonly buffer ValuesOut { uint valuesOut[]; };
layout(std430, binding = 4) readonly buffer TileOffsets { uint tileOffsets[]; };  // [digit][tile], the spine's
layout(std430, binding = 5) readonly buffer DigitTotals { uint digitTotals[]; };
layout(push_constant) uniform Push { SortSweepConstants c; };

const uint TILE = gl_WorkGroupSize.x * KEYS_PER_THREAD;

// One array, two uses: while ranking, per subgroup and digit a count, then the subgroup's offset
// within the tile (sSubgroupCounts); once every rank is known, keys and then values in tile-sorted
// order (sTile).
const uint SHARED_WORDS = MAX_SUBGROUPS * SORT_RADIX > TILE ? MAX_SUBGROUPS * SORT_RADIX : TILE;
shared uint sWork[SHARED_WORDS];
#define sSubgroupCounts sWork
#define sTile sWork
shared uint sTotal[SORT_RADIX];  // the tile's count of each digit
shared uint sBase[SORT_RADIX];   // output index of a digit's slot 0

uint digitOf(uint key) { return ((key & c.keyMask) >> c.shift) & (SORT_RADIX - 1); }

#include "rank.glsl"

void main() {
    const uint tile = linearGroupIndex();
    if (tile >= c.tileCount) return;  // uniform: spare groups of a dispatch split over x and y
    const uint tid = subgroupMajorIndex();  // what exclusiveScanDigits() numbers digits by
    const uint groupSize = gl_WorkGroupSize.x;
    const uint tileStart = tile * TILE;
    const uint S = gl_SubgroupSize;
    const uint lane = gl_SubgroupInvocationID;
    const uint chunk = tileStart + gl_SubgroupID * S * KEYS_PER_THREAD;
    const uint counters = gl_SubgroupID * SORT_RADIX;

    uint keys[KEYS_PER_THREAD];
    uint ranks[KEYS_PER_THREAD];
    [[unroll]] for (uint k = 0; k < KEYS_PER_THREAD; ++k) {
        const uint i = chunk + k * S + lane;
        keys[k] = i < c.count ? keysIn[i] : 0u;
    }
    // The spine's words for this tile, loaded before the ranking so that their latency hides behind it.
    const uint firstOffset = tid < SORT_RADIX ? tileOffsets[tid * c.rowStride + tile] : 0u;
    const uint firstTotal = tid < SORT_RADIX ? digitTotals[tid] : 0u;
    for (uint i = tid; i < gl_NumSubgroups * SORT_RADIX; i += groupSize) sSubgroupCounts[i] = 0;
    barrier();
    [[unroll]] for (uint k = 0; k < KEYS_PER_THREAD; ++k)
        ranks[k] = rankInSubgroup(digitOf(keys[k]), chunk + k * S + lane < c.count, counters);
    barrier();

    // Per digit: the subgroups' offsets within the tile and the tile's count; then where the digit's
    // run starts in the output, plus the tile's offset within it.
    for (uint d = tid; d < SORT_RADIX; d += groupSize) {
        uint total = 0;
        for (uint s = 0; s < gl_NumSubgroups; ++s) {
            const uint n = sSubgroupCounts[s * SORT_RADIX + d];
            sSubgroupCounts[s * SORT_RADIX + d] = total;
            total += n;
        }
        sTotal[d] = total;
        sScan[d] = d == tid ? firstTotal : digitTotals[d];
        sBase[d] = d == tid ? firstOffset : tileOffsets[d * c.rowStride + tile];
    }
    exclusiveScanDigits();  // where each digit's run starts in the output
    for (uint d = tid; d < SORT_RADIX; d += groupSize) {
        sBase[d] += sScan[d];
        sScan[d] = sTotal[d];
    }
    exclusiveScanDigits();  // where each digit's run starts within the tile
    // Slot s of the tile-sorted keys, holding digit d, goes to sBase[d] + s (mod 2^32).
    for (uint d = tid; d < SORT_RADIX; d += groupSize) sBase[d] -= sScan[d];
    [[unroll]] for (uint k = 0; k < KEYS_PER_THREAD; ++k) {
        const uint digit = digitOf(keys[k]);
        ranks[k] += sScan[digit] + sSubgroupCounts[counters + digit];
    }
    barrier();
    [[unroll]] for (uint k = 0; k < KEYS_PER_THREAD; ++k)
        if (chunk + k * S + lane < c.count) sTile[ranks[k]] = keys[k];
    barrier();

    // Keys out in slot order, so that writes of a digit are contiguous.
    const uint tileKeys = min(TILE, c.count - tileStart);
    uint destinations[KEYS_PER_THREAD];
    [[unroll]] for (uint k = 0; k < KEYS_PER_THREAD; ++k) {
        const uint slot = k * groupSize + tid;
        if (slot >= tileKeys) continue;
        const uint key = sTile[slot];
        destinations[k] = sBase[digitOf(key)] + slot;
        keysOut[destinations[k]] = key;
    }
    // Values only now, once the keys are out: held through the ranking they take the registers that let
    // a second group share an SM, and here, where no group waits for another, their loads' latency is
    // all that loading them late costs (docs/PERFORMANCE.md, the sort).
    uint values[KEYS_PER_THREAD];
    [[unroll]] for (uint k = 0; k < KEYS_PER_THREAD; ++k) {
        const uint i = chunk + k * S + lane;
        values[k] = i < c.count ? valuesIn[i] : 0u;
    }
    barrier();
    [[unroll]] for (uint k = 0; k < KEYS_PER_THREAD; ++k)
        if (chunk + k * S + lane < c.count) sTile[ranks[k]] = values[k];
    barrier();
    [[unroll]] for (uint k = 0; k < KEYS_PER_THREAD; ++k) {
        const uint slot = k * groupSize + tid;
        if (slot >= tileKeys) continue;
        valuesOut[destinations[k]] = sTile[slot];
    }
}
