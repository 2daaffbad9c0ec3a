#version 460
// One LSD radix-sort pass over one digit: rank each tile's keys, find the tile's place with a
// chained scan over tiles (decoupled look-back), and scatter keys and values to their outputs.
//
// Tiles are taken from an atomic counter, so a tile only waits for tiles claimed by work groups
// that started earlier. Vulkan promises no forward progress between work groups (and lavapipe
// runs them on a few CPU threads), so every wait is bounded: after SPIN_LIMIT polls the group
// counts the stalled tile's digits itself from the input keys and carries on.
//
// Tile 0 publishes, as its inclusive prefix, the global start of each digit plus its own count, so
// a look-back ends with each digit's output position. Status words are [tile][digit]: each tile a
// look-back step reads is one coalesced 1 KB load across the 256 digit invocations. The look-back
// runs after the keys are placed in shared memory. Each digit publishes its inclusive prefix as soon
// as it is known.
//
// Ranking is stable (rank.glsl): subgroup g owns keys [g*S*K, (g+1)*S*K) of the tile, row k of
// lane l is key k*S + l, rows are ranked in order, and lanes with equal digits are ranked by lane
// index. Every loop over a thread's keys is unrolled, so its arrays stay in registers.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint KEYS_PER_THREAD = 15;  // tuning::sortKeysPerThread, or fewer
layout(constant_id = 2) const uint MAX_SUBGROUPS = 8;  // local size / subgroup size
layout(constant_id = 3) const uint SPIN_LIMIT = 4096;  // tuning::spinLimit
layout(constant_id = 4) const uint SUBGROUP_SIZE = 32;  // the pinned size: ballots fit in .x up to 32
layout(constant_id = 5) const uint LOOKBACK_WINDOW = 4;  // tuning::lookbackWindow (1 to SORT_MAX_LOOKBACK_WINDOW)
#include "sort_types.h"

layout(std430, binding = 0) readonly buffer KeysIn { uint keysIn[]; };
layout(std430, binding = 1) readonly buffer ValuesIn { uint valuesIn[]; };
layout(std430, binding = 2) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = 3) writeonly buffer ValuesOut { uint valuesOut[]; };
layout(std430, binding = 4) readonly buffer Histogram { uint globalHistogram[]; };  // [pass][digit]
layout(std430, binding = 5) buffer TileCounters { uint tileCounters[]; };        // [pass]
// [tile][digit] of this pass. Stores and polls are relaxed atomics (storeStatus, loadStatus), so a
// poll sees what other groups have stored since. The first read of a step's window is a plain
// coherent load (3% faster than an atomic one, measured on an H200; plain loads of a second,
// non-coherent binding were 2 to 3% slower there). That formally races the stores, and it relies on an aligned
// 32-bit load returning either the old word or the new one. Both are usable: an aggregate and a
// prefix are each a correct count to add, and a word not yet published is polled again atomically.
layout(std430, binding = 6) coherent buffer Status { uint status[]; };
layout(push_constant) uniform Push { SortPassConstants c; };

const uint TILE = gl_WorkGroupSize.x * KEYS_PER_THREAD;

// One array, two uses: while ranking, per subgroup and digit a count, then the subgroup's offset
// within the tile (sSubgroupCounts); once every rank is known, keys and then values in tile-sorted
// order (sTile). Sharing it lets a group fit in half of the 48 KB an NVIDIA SM gives compute.
const uint SHARED_WORDS = MAX_SUBGROUPS * SORT_RADIX > TILE ? MAX_SUBGROUPS * SORT_RADIX : TILE;
shared uint sWork[SHARED_WORDS];
#define sSubgroupCounts sWork
#define sTile sWork
shared uint sTotal[SORT_RADIX];                           // the tile's count of each digit
shared uint sStart[SORT_RADIX];                           // where each digit's run starts in the tile
shared uint sBase[SORT_RADIX];                            // output index of a digit's slot 0
shared uint sLookback[SORT_RADIX];                        // this tile's exclusive prefix, per digit
shared uint sNext[SORT_RADIX];                            // tiles below this are still to add; 0: done
shared uint sFallbackCounts[SORT_RADIX];
shared uint sTileIndex, sStallTile;

uint loadStatus(uint i) {
    return atomicLoad(status[i], gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
}

void storeStatus(uint i, uint word) {
    atomicStore(status[i], word, gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
}

uint digitOf(uint key) { return ((key & c.keyMask) >> c.shift) & (SORT_RADIX - 1); }

#include "rank.glsl"

// Digit d's exclusive prefix sLookback[d] is complete: publish the inclusive one at once, not after
// the group's barrier, so that later tiles can stop here sooner.
void publishPrefix(uint d) {
    storeStatus(sTileIndex * SORT_RADIX + d, (SORT_FLAG_PREFIX << SORT_FLAG_SHIFT) | (sLookback[d] + sTotal[d]));
}

// Walks digit d back from tile sNext[d] - 1, adding aggregates until an inclusive prefix (done:
// sNext[d] = 0) or a tile that has published nothing after SPIN_LIMIT polls (stalled there:
// sNext[d] = that tile + 1, and the group may count it). Each step reads LOOKBACK_WINDOW
// predecessors at once, each read coalesced across the digits. Every word of a step is used before
// any branch, so that the window's loads go out together: a use that depended on the word before
// let the compiler sink each load to it, one L2 round trip a word.
void lookback(uint d) {
    uint t = sNext[d], sum = 0;
    while (t > 0) {
        uint words[LOOKBACK_WINDOW];
        [[unroll]] for (uint w = 0; w < LOOKBACK_WINDOW; ++w)
            words[w] = status[(t > w ? t - 1 - w : 0u) * SORT_RADIX + d];  // past tile 0: never added
        // The first word that is not an aggregate ends the run of words to add (tile 0's word is
        // never one, so the run never passes it).
        uint stops = 1u << LOOKBACK_WINDOW;
        [[unroll]] for (uint w = 0; w < LOOKBACK_WINDOW; ++w)
            stops |= (words[w] >> SORT_FLAG_SHIFT) != SORT_FLAG_AGGREGATE ? 1u << w : 0u;
        const uint k = findLSB(stops);
        [[unroll]] for (uint w = 0; w < LOOKBACK_WINDOW; ++w) sum += w < k ? words[w] & SORT_VALUE_MASK : 0u;
        t -= k;
        if (k == LOOKBACK_WINDOW) continue;
        uint word = words[k];  // tile t - 1's: a prefix, or nothing published yet
        for (uint spin = 0; spin < SPIN_LIMIT && (word >> SORT_FLAG_SHIFT) == SORT_FLAG_NONE; ++spin)
            word = loadStatus((t - 1) * SORT_RADIX + d);
        const uint flag = word >> SORT_FLAG_SHIFT;
        if (flag == SORT_FLAG_NONE) {
            atomicMax(sStallTile, t);
            break;
        }
        sum += word & SORT_VALUE_MASK;
        t = flag == SORT_FLAG_PREFIX ? 0 : t - 1;
    }
    sLookback[d] += sum;
    sNext[d] = t;
    if (t == 0) publishPrefix(d);
}

void main() {
    const uint tid = subgroupMajorIndex();  // what exclusiveScanDigits() numbers digits by
    const uint groupSize = gl_WorkGroupSize.x;
    if (tid == 0) sTileIndex = atomicAdd(tileCounters[c.pass], 1u);
    for (uint i = tid; i < gl_NumSubgroups * SORT_RADIX; i += groupSize) sSubgroupCounts[i] = 0;
    barrier();
    // A dispatch split over x and y (gpu::dispatchGroupsRaw) can launch a few groups too many.
    if (sTileIndex >= c.tileCount) return;  // uniform: the whole group leaves

    const uint tile = sTileIndex;
    const uint tileStart = tile * TILE;
    const uint S = gl_SubgroupSize;
    const uint lane = gl_SubgroupInvocationID;
    const uint chunk = tileStart + gl_SubgroupID * S * KEYS_PER_THREAD;
    const uint counters = gl_SubgroupID * SORT_RADIX;

    // Values are loaded with the keys, unlike in downsweep.comp: here the look-back's wait covers their
    // latency, and loaded after it or after the key scatter they made the pass slower.
    uint keys[KEYS_PER_THREAD];
    uint values[KEYS_PER_THREAD];
    uint ranks[KEYS_PER_THREAD];
    [[unroll]] for (uint k = 0; k < KEYS_PER_THREAD; ++k) {
        const uint i = chunk + k * S + lane;
        keys[k] = i < c.count ? keysIn[i] : 0u;
        values[k] = i < c.count ? valuesIn[i] : 0u;
    }

    [[unroll]] for (uint k = 0; k < KEYS_PER_THREAD; ++k)
        ranks[k] = rankInSubgroup(digitOf(keys[k]), chunk + k * S + lane < c.count, counters);
    barrier();

    // Per digit: offsets of the subgroups within the tile and the tile's count, published at once
    // for the tiles after this one (tile 0 publishes the digit's global start plus its count).
    for (uint d = tid; d < SORT_RADIX; d += groupSize) {
        uint total = 0;
        for (uint s = 0; s < gl_NumSubgroups; ++s) {
            const uint n = sSubgroupCounts[s * SORT_RADIX + d];
            sSubgroupCounts[s * SORT_RADIX + d] = total;
            total += n;
        }
        sTotal[d] = total;
        sScan[d] = tile == 0 ? globalHistogram[c.pass * SORT_RADIX + d] : total;
        sLookback[d] = 0;
        sNext[d] = tile;
        if (tile > 0) storeStatus(tile * SORT_RADIX + d, (SORT_FLAG_AGGREGATE << SORT_FLAG_SHIFT) | total);
    }
    if (tile == 0) {
        exclusiveScanDigits();  // the global start of every digit
        for (uint d = tid; d < SORT_RADIX; d += groupSize) {
            storeStatus(d, (SORT_FLAG_PREFIX << SORT_FLAG_SHIFT) | (sScan[d] + sTotal[d]));
            sLookback[d] = sScan[d];  // tile 0's exclusive prefix
            sScan[d] = sTotal[d];
        }
    }
    exclusiveScanDigits();  // where each digit's run starts within the tile
    for (uint d = tid; d < SORT_RADIX; d += groupSize) sStart[d] = sScan[d];

    // Keys to their tile-sorted slots, once no invocation reads the subgroup offsets any more.
    [[unroll]] for (uint k = 0; k < KEYS_PER_THREAD; ++k) {
        const uint digit = digitOf(keys[k]);
        ranks[k] += sScan[digit] + sSubgroupCounts[counters + digit];
    }
    barrier();
    [[unroll]] for (uint k = 0; k < KEYS_PER_THREAD; ++k)
        if (chunk + k * S + lane < c.count) sTile[ranks[k]] = keys[k];

    // Look-back: one walk per digit, and another round only after a stall.
    while (tile > 0) {
        if (tid == 0) sStallTile = 0;
        barrier();
        for (uint d = tid; d < SORT_RADIX; d += groupSize)
            if (sNext[d] != 0) lookback(d);
        barrier();
        const uint stalled = sStallTile;
        if (stalled == 0) break;
        // Tile stalled - 1 has not published: count its digits from the input, for the digits that
        // stopped there (others poll again in the next round). Tile 0 also carries the global starts.
        const uint t = stalled - 1;
        for (uint d = tid; d < SORT_RADIX; d += groupSize) sFallbackCounts[d] = 0;
        barrier();
        for (uint i = t * TILE + tid; i < min(t * TILE + TILE, c.count); i += groupSize)
            atomicAdd(sFallbackCounts[digitOf(keysIn[i])], 1u);
        barrier();
        if (t == 0) {  // the global starts: each invocation scans the words it loaded itself
            for (uint d = tid; d < SORT_RADIX; d += groupSize) sScan[d] = globalHistogram[c.pass * SORT_RADIX + d];
            exclusiveScanDigits();
        }
        for (uint d = tid; d < SORT_RADIX; d += groupSize)
            if (sNext[d] == stalled) {
                sLookback[d] += sFallbackCounts[d] + (t == 0 ? sScan[d] : 0u);
                sNext[d] = t;
                if (t == 0) publishPrefix(d);
            }
        barrier();
    }
    // Every digit's prefix is published (tile 0's at its scan, the others' as their walks ended).
    // Slot s of the tile-sorted keys, holding digit d, goes to sBase[d] + s (mod 2^32).
    for (uint d = tid; d < SORT_RADIX; d += groupSize) sBase[d] = sLookback[d] - sStart[d];
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
