#version 460
// One LSD radix-sort pass over one digit: rank each tile's keys, find the tile's place with a
// chained scan over tiles (decoupled look-back), and scatter keys and values to their outputs.
//
// Tiles are taken from an atomic counter, so a tile only waits for tiles claimed by work groups
// that started earlier. Vulkan promises no forward progress between work groups (and lavapipe
// runs them on a few CPU threads), so every wait is bounded: after SPIN_LIMIT polls the group
// counts the stalled tile's digits itself from the input keys and carries on.
//
// The look-back: one invocation per digit walks back through its predecessors without barriers,
// four tiles per 16-byte load (status is [digit][tile], a row padded to a multiple of 4 tiles),
// adding aggregates until it meets an inclusive prefix. Only a stall brings the group together.
//
// Ranking is stable: subgroup g owns keys [g*S*K, (g+1)*S*K) of the tile, row k of lane l is key
// k*S + l, rows are ranked in order, and lanes with equal digits are ranked by lane index.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#ifdef SORT_PARTITION_NV
#extension GL_NV_shader_subgroup_partitioned : require
#endif
// Before the includes: common.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
#include "../shared.h"
#include "../common.glsl"

layout(constant_id = 1) const uint KEYS_PER_THREAD = 15;
layout(constant_id = 2) const uint MAX_SUBGROUPS = 8;  // local size / smallest subgroup size
layout(constant_id = 3) const uint SPIN_LIMIT = 256;
layout(constant_id = 4) const uint SUBGROUP_SIZE = 32;  // the pinned size: ballots fit in .x up to 32

layout(std430, binding = 0) readonly buffer KeysIn { uint keysIn[]; };
layout(std430, binding = 1) readonly buffer ValuesIn { uint valuesIn[]; };
layout(std430, binding = 2) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = 3) writeonly buffer ValuesOut { uint valuesOut[]; };
layout(std430, binding = 4) readonly buffer Histogram { uint globalHistogram[]; };  // [pass][digit]
layout(std430, binding = 5) buffer TileCounters { uint tileCounters[]; };        // [pass]
// [digit][tile] of this pass, rows of c.statusStride tiles; read with loads that see other groups'
// stores as they land, one word or four tiles at a time.
layout(std430, binding = 6) coherent volatile buffer Status { uint status[]; };
layout(std430, binding = 7) coherent volatile buffer Status4 { uvec4 status4[]; };
layout(push_constant) uniform Push { SortPassConstants c; };

const uint TILE = gl_WorkGroupSize.x * KEYS_PER_THREAD;

shared uint sSubgroupCounts[MAX_SUBGROUPS * SORT_RADIX];  // per subgroup, then its offset within the tile
shared uint sTile[TILE];                                  // keys, then values, in tile-sorted order
shared uvec2 sScan[SORT_RADIX];                           // (tile count, global count) -> exclusive sums
shared uint sBase[SORT_RADIX];                            // output index of a digit's slot 0
shared uint sLookback[SORT_RADIX];                        // this tile's exclusive prefix, per digit
shared uint sNext[SORT_RADIX];                            // tiles below this are still to add; 0: done
shared uint sStallTile;                                   // 1 + the tile the group counts itself
shared uint sFallbackCounts[SORT_RADIX];
shared uvec2 sScanTotals[MAX_SUBGROUPS];
shared uint sTileIndex, sPending;
shared uvec2 sCarry;

uint digitOf(uint key) { return ((key & c.keyMask) >> c.shift) & (SORT_RADIX - 1); }

// Lanes (among the valid ones) holding the same digit.
uvec4 matchDigit(uint digit, bool valid) {
#ifdef SORT_PARTITION_NV
    return subgroupPartitionNV(valid ? digit : 0xffffffffu) & subgroupBallot(valid);
#else
    if (SUBGROUP_SIZE <= 32) {  // one word: no work on the three that are always zero
        uint peers = subgroupBallot(valid).x;
        for (uint b = 0; b < SORT_RADIX_BITS; ++b) {
            const bool bit = ((digit >> b) & 1u) != 0;
            const uint vote = subgroupBallot(bit).x;
            peers &= bit ? vote : ~vote;
        }
        return uvec4(peers, 0, 0, 0);
    }
    uvec4 peers = subgroupBallot(valid);
    for (uint b = 0; b < SORT_RADIX_BITS; ++b) {
        const bool bit = ((digit >> b) & 1u) != 0;
        const uvec4 vote = subgroupBallot(bit);
        peers &= bit ? vote : ~vote;
    }
    return peers;
#endif
}

uint lanesBelow(uvec4 peers) {
    if (SUBGROUP_SIZE <= 32) return bitCount(peers.x & gl_SubgroupLtMask.x);
    return subgroupBallotExclusiveBitCount(peers);
}

uint laneCount(uvec4 peers) {
    if (SUBGROUP_SIZE <= 32) return bitCount(peers.x);
    return subgroupBallotBitCount(peers);
}

// Walks digit d back from sNext[d], adding aggregates until an inclusive prefix (done: sNext[d] = 0)
// or a tile that has published nothing after SPIN_LIMIT polls (stalled: sNext[d] = that tile + 1).
void lookback(uint d, uint stride) {
    uint top = sNext[d], sum = 0;
    const uint row = d * stride;
    while (top > 0) {
        const uint last = top - 1, first = last & ~3u;  // the aligned quad holding tile `last`
        const uvec4 quad = status4[(row + first) / 4];
        bool stop = false;
        for (uint i = last - first + 1; i-- > 0 && !stop;) {
            uint word = quad[i];
            for (uint spin = 0; spin < SPIN_LIMIT && (word >> SORT_FLAG_SHIFT) == SORT_FLAG_NONE; ++spin)
                word = status[row + first + i];
            const uint flag = word >> SORT_FLAG_SHIFT;
            if (flag == SORT_FLAG_NONE) {
                top = first + i + 1;
                atomicMax(sStallTile, top);
                stop = true;
            } else {
                sum += word & SORT_VALUE_MASK;
                if (flag == SORT_FLAG_PREFIX) {
                    top = 0;
                    stop = true;
                }
            }
        }
        if (stop) break;
        top = first;
    }
    sLookback[d] += sum;
    sNext[d] = top;
    if (top != 0) atomicAdd(sPending, 1u);
}

// Exclusive prefix sums of sScan[0..RADIX) in place, for any work group and subgroup size.
void exclusiveScanDigits() {
    uvec2 carry = uvec2(0);
    for (uint base = 0; base < SORT_RADIX; base += gl_WorkGroupSize.x) {
        const uint d = base + gl_LocalInvocationID.x;
        const uvec2 x = d < SORT_RADIX ? sScan[d] : uvec2(0);
        const uvec2 inclusive = subgroupInclusiveAdd(x);
        if (gl_SubgroupInvocationID == gl_SubgroupSize - 1) sScanTotals[gl_SubgroupID] = inclusive;
        barrier();
        if (gl_LocalInvocationID.x == 0) {
            uvec2 run = carry;
            for (uint s = 0; s < gl_NumSubgroups; ++s) {
                const uvec2 t = sScanTotals[s];
                sScanTotals[s] = run;
                run += t;
            }
            sCarry = run;
        }
        barrier();
        if (d < SORT_RADIX) sScan[d] = inclusive - x + sScanTotals[gl_SubgroupID];
        carry = sCarry;
        barrier();
    }
}

void main() {
    const uint tid = gl_LocalInvocationID.x;
    const uint groupSize = gl_WorkGroupSize.x;
    if (tid == 0) sTileIndex = atomicAdd(tileCounters[c.pass], 1u);
    for (uint i = tid; i < gl_NumSubgroups * SORT_RADIX; i += groupSize) sSubgroupCounts[i] = 0;
    barrier();

    const uint tile = sTileIndex;
    const uint tileStart = tile * TILE;
    const uint S = gl_SubgroupSize;
    const uint lane = gl_SubgroupInvocationID;
    const uint chunk = tileStart + gl_SubgroupID * S * KEYS_PER_THREAD;
    const uint counters = gl_SubgroupID * SORT_RADIX;

    uint keys[KEYS_PER_THREAD];
    uint values[KEYS_PER_THREAD];
    uint ranks[KEYS_PER_THREAD];
    for (uint k = 0; k < KEYS_PER_THREAD; ++k) {
        const uint i = chunk + k * S + lane;
        keys[k] = i < c.count ? keysIn[i] : 0;
        values[k] = i < c.count ? valuesIn[i] : 0;
    }

    // Rank within the subgroup: one shared counter per digit and subgroup; the lowest lane of
    // each group of equal digits advances it for the group.
    for (uint k = 0; k < KEYS_PER_THREAD; ++k) {
        const bool valid = chunk + k * S + lane < c.count;
        const uint digit = digitOf(keys[k]);
        const uvec4 peers = matchDigit(digit, valid);
        const uint below = lanesBelow(peers);
        const uint prior = valid ? sSubgroupCounts[counters + digit] : 0;
        subgroupBarrier();  // every peer has read the counter before it moves
        if (valid && below == 0) sSubgroupCounts[counters + digit] = prior + laneCount(peers);
        subgroupBarrier();  // the next row reads the moved counter
        ranks[k] = prior + below;
    }
    barrier();

    // Per digit: offsets of the subgroups within the tile, the tile's count (published at once
    // for the tiles after this one), and the global count of this pass.
    for (uint d = tid; d < SORT_RADIX; d += groupSize) {
        uint total = 0;
        for (uint s = 0; s < gl_NumSubgroups; ++s) {
            const uint n = sSubgroupCounts[s * SORT_RADIX + d];
            sSubgroupCounts[s * SORT_RADIX + d] = total;
            total += n;
        }
        const uint flag = tile == 0 ? SORT_FLAG_PREFIX : SORT_FLAG_AGGREGATE;
        status[d * c.statusStride + tile] = (flag << SORT_FLAG_SHIFT) | total;
        sScan[d] = uvec2(total, globalHistogram[c.pass * SORT_RADIX + d]);
        sLookback[d] = 0;
        sNext[d] = tile;
    }
    barrier();
    // Keep the tile counts: the look-back publishes inclusive prefixes with them.
    uint tileCounts[(SORT_RADIX + gl_WorkGroupSize.x - 1) / gl_WorkGroupSize.x];
    for (uint r = 0, d = tid; d < SORT_RADIX; d += groupSize, ++r) tileCounts[r] = sScan[d].x;
    exclusiveScanDigits();

    // Look-back: usually one round; another only after a stall.
    for (uint round = 0; tile > 0; ++round) {
        if (tid == 0) {
            sPending = 0;
            sStallTile = 0;
        }
        barrier();
        for (uint d = tid; d < SORT_RADIX; d += groupSize)
            if (sNext[d] != 0) lookback(d, c.statusStride);
        barrier();
        const uint stalled = sStallTile;
        if (stalled != 0) {
            // That tile has not published: count its digits from the input, for the digits that
            // stopped there (others poll again in the next round).
            const uint t = stalled - 1;
            for (uint d = tid; d < SORT_RADIX; d += groupSize) sFallbackCounts[d] = 0;
            barrier();
            for (uint i = t * TILE + tid; i < min(t * TILE + TILE, c.count); i += groupSize)
                atomicAdd(sFallbackCounts[digitOf(keysIn[i])], 1u);
            barrier();
            for (uint d = tid; d < SORT_RADIX; d += groupSize)
                if (sNext[d] == stalled) {
                    sLookback[d] += sFallbackCounts[d];
                    sNext[d] = t;
                    if (t == 0) atomicAdd(sPending, uint(-1));
                }
            barrier();
        }
        const bool finished = sPending == 0;
        barrier();
        if (finished) break;
    }
    for (uint r = 0, d = tid; d < SORT_RADIX; d += groupSize, ++r) {
        if (tile > 0) status[d * c.statusStride + tile] = (SORT_FLAG_PREFIX << SORT_FLAG_SHIFT) | (sLookback[d] + tileCounts[r]);
        // Slot s of the tile-sorted keys, holding digit d, goes to sBase[d] + s (mod 2^32).
        sBase[d] = sScan[d].y + sLookback[d] - sScan[d].x;
    }

    // Keys to their tile-sorted slots, then out in slot order so that writes of a digit are contiguous.
    for (uint k = 0; k < KEYS_PER_THREAD; ++k) {
        if (chunk + k * S + lane >= c.count) continue;
        const uint digit = digitOf(keys[k]);
        ranks[k] += sScan[digit].x + sSubgroupCounts[counters + digit];
        sTile[ranks[k]] = keys[k];
    }
    barrier();
    const uint tileKeys = min(TILE, c.count - tileStart);
    uint destinations[KEYS_PER_THREAD];
    for (uint k = 0; k < KEYS_PER_THREAD; ++k) {
        const uint slot = k * groupSize + tid;
        if (slot >= tileKeys) break;
        const uint key = sTile[slot];
        destinations[k] = sBase[digitOf(key)] + slot;
        keysOut[destinations[k]] = key;
    }
    barrier();
    for (uint k = 0; k < KEYS_PER_THREAD; ++k)
        if (chunk + k * S + lane < c.count) sTile[ranks[k]] = values[k];
    barrier();
    for (uint k = 0; k < KEYS_PER_THREAD; ++k) {
        const uint slot = k * groupSize + tid;
        if (slot >= tileKeys) break;
        valuesOut[destinations[k]] = sTile[slot];
    }
}
