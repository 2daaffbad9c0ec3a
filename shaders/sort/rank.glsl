// Stable ranking of a tile's keys by digit with subgroup ballots, and a work group's exclusive scan
// of one word per digit: shared by onesweep.comp and downsweep.comp. The includer declares before
// it the spec constants SUBGROUP_SIZE and MAX_SUBGROUPS, `shared uint sSubgroupCounts[]` (a counter
// per subgroup and digit, at subgroup * SORT_RADIX + digit) and digitOf(key).
#ifndef VKBOIDS_SORT_RANK_GLSL
#define VKBOIDS_SORT_RANK_GLSL

#include "subgroup_index.glsl"

shared uint sScan[SORT_RADIX];  // what exclusiveScanDigits() scans
shared uint sScanTotals[MAX_SUBGROUPS];
shared uint sCarry;

// The valid lanes that hold the same digit as this lane.
uvec4 matchDigit(uint digit, bool valid) {
    if (SUBGROUP_SIZE <= 32) {  // one word of the ballot suffices; the other three are always zero
        uint peers = subgroupBallot(valid).x;
        [[unroll]] for (uint b = 0; b < SORT_RADIX_BITS; ++b) {
            const bool bit = ((digit >> b) & 1u) != 0;
            const uint vote = subgroupBallot(bit).x;
            peers &= bit ? vote : ~vote;
        }
        return uvec4(peers, 0, 0, 0);
    }
    uvec4 peers = subgroupBallot(valid);
    [[unroll]] for (uint b = 0; b < SORT_RADIX_BITS; ++b) {
        const bool bit = ((digit >> b) & 1u) != 0;
        const uvec4 vote = subgroupBallot(bit);
        peers &= bit ? vote : ~vote;
    }
    return peers;
}

// The rank of this lane's key among the keys of its digit that the subgroup has ranked before it
// (in earlier calls, then in lower lanes), counted from the subgroup's counter at `counters`. The
// lowest lane of each group of equal digits moves the counter by the group's size and tells the
// others where the group starts. Every lane of the subgroup calls it; invalid lanes rank nothing.
uint rankInSubgroup(uint digit, bool valid, uint counters) {
    const uvec4 peers = matchDigit(digit, valid);
    uint below, size, leader;
    if (SUBGROUP_SIZE <= 32) {
        below = bitCount(peers.x & gl_SubgroupLtMask.x);
        size = bitCount(peers.x);
        leader = findLSB(peers.x);
    } else {
        below = subgroupBallotExclusiveBitCount(peers);
        size = subgroupBallotBitCount(peers);
        leader = subgroupBallotFindLSB(peers);
    }
    uint prior = 0;
    if (valid && below == 0) prior = atomicAdd(sSubgroupCounts[counters + digit], size);
    // The next call's leader of this digit may be another lane: its add must come after this one, or
    // equal digits of two rows would swap. Subgroup operations order nothing in Vulkan's memory model.
    controlBarrier(gl_ScopeSubgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    // All lanes take part; lanes without a key pass and read lane 0's value and ignore it.
    prior = subgroupShuffle(prior, valid ? leader : 0u);
    return prior + below;
}

// Exclusive prefix sums of sScan[0..RADIX) in place, for any work group and subgroup size. Digit d
// is read and written by the invocation whose subgroupMajorIndex() is d mod the local size, as in the
// includer's loops over digits, so those loops and the scan need no barrier between them.
void exclusiveScanDigits() {
    uint carry = 0;
    for (uint base = 0; base < SORT_RADIX; base += gl_WorkGroupSize.x) {
        const uint d = base + subgroupMajorIndex();
        const uint x = d < SORT_RADIX ? sScan[d] : 0u;
        const uint inclusive = subgroupInclusiveAdd(x);
        if (gl_SubgroupInvocationID == gl_SubgroupSize - 1) sScanTotals[gl_SubgroupID] = inclusive;
        barrier();
        if (subgroupMajorIndex() == 0) {
            uint run = carry;
            for (uint s = 0; s < gl_NumSubgroups; ++s) {
                const uint t = sScanTotals[s];
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

#endif
