#pragma once
// GPU LSD radix sort of (key, value) pairs of 32-bit unsigned integers, stable, over the low
// keyBits bits of the keys: ceil(keyBits / 8) passes of 8 bits, by one of two algorithms.
//
// Onesweep: one pass that histograms every digit at once, then per digit one dispatch that ranks
// tiles with subgroup ballots and finds its output place with a chained scan over tiles
// (shaders/sort/onesweep.comp). Reduce-then-scan: per digit an upsweep (each tile's digit counts,
// written [digit][tile]), a spine (their exclusive scan) and a downsweep (the same ranking, and the
// scatter to the scanned offsets); no group waits for another (shaders/sort/upsweep.comp,
// spine.comp, downsweep.comp).
//
// Keys are compared on their low keyBits bits only: higher bits are ignored (masked), and carried
// to the output unchanged, so they cannot change the order.
//
// Buffers: the caller owns the input and output pairs; the sorter owns a ping-pong pair and
// scratch buffers. The input is never written. Passes alternate between the output and the
// sorter's pair so that the last pass always lands in the output. The sort records into the
// caller's command buffer (no submission, no waiting) and ends with a compute-to-compute barrier.

#include "gpu/commands.h"
#include "gpu/profiler.h"
#include "io/names.h"
#include "tuning.h"

#include <optional>
#include <string>

namespace sort {

enum class SortAlgorithm { Onesweep, ReduceThenScan, Auto };
constexpr io::NameTable<SortAlgorithm, 3> algorithmNames{{"onesweep", "reduce-then-scan", "auto"}};

inline const char* algorithmName(SortAlgorithm algorithm) {
    return io::nameIn(algorithmNames, algorithm);
}
inline std::optional<SortAlgorithm> parseAlgorithm(const std::string& name) {
    return io::valueIn(algorithmNames, name);
}

// The product sorts with the defaults; tests set the fields to cover other tile shapes, look-back
// windows, the stalled-tile fallback and where narrow groups start.
struct SortOptions {
    uint32_t workgroupSize = 0; // 0: the first of tuning::sortWorkgroupSizes that fits the device
    uint32_t keysPerThread = 0; // 0: tuning::sortKeysPerThread(In1024), fewer where shared memory is short
    uint32_t lookbackWindow = tuning::lookbackWindow; // 1 to SORT_MAX_LOOKBACK_WINDOW (else gpu::Unsupported)
    uint32_t spinLimit = tuning::spinLimit;           // 0 (for tests) always counts predecessors itself
    // With the default shape, sorts of this many pairs or more take narrow groups, half as wide with
    // the same keys per invocation, where two of them fit within the device's per-group
    // shared-memory limit (a proxy for two groups sharing an SM). A value above the sorter's capacity
    // means never.
    uint32_t narrowGroupsFrom = tuning::narrowGroupsFrom;
    SortAlgorithm algorithm = SortAlgorithm::Auto; // what recordSort uses where not told
    // Reduce-then-scan's programs and buffer are made only where a sort may take it: `algorithm` is
    // ReduceThenScan, Auto would take it at some count up to the capacity, or this asks for them.
    bool reduceThenScan = false;
};

struct Sorter {
    gpu::Program histogram, onesweep;
    gpu::Program
        onesweepNarrow; // narrow groups (workgroupSize / 2), from narrowFrom pairs; none where never taken
    uint32_t narrowFrom = UINT32_MAX;
    gpu::Buffer tempKeys, tempValues;
    gpu::Buffer scratch; // histogram totals and accumulator (zero between sorts), counters, tile status words
    // Reduce-then-scan, in Onesweep's tiles (tileSizeFor): per digit and tile a count and then an
    // offset ([digit][tile], rows of tileRowStride words or fewer), then each digit's total.
    gpu::Program upsweep, spine, downsweep;
    gpu::Program upsweepNarrow, downsweepNarrow; // the narrow groups' sweeps, made where onesweepNarrow is
    gpu::Buffer tileCounts;
    uint32_t tileRowStride = 0;
    SortAlgorithm algorithm = SortAlgorithm::Auto;
    uint32_t capacity = 0;
    uint32_t workgroupSize = 0;
    uint32_t keysPerThread = 0;
    uint32_t tileSize = 0; // keys per full-width work group; a sort's tiles: tileSizeFor(count)
    uint32_t subgroupSize = 0;
};

constexpr uint32_t radixBits = 8;

// ceil(keyBits / 8): the number of passes; keyBits must be in [1, 32].
constexpr uint32_t sortPassCount(uint32_t keyBits) {
    return (keyBits + radixBits - 1) / radixBits;
}

// The low keyBits bits set: what a sort of keyBits-bit keys compares; keyBits in [1, 32].
constexpr uint32_t sortKeyMask(uint32_t keyBits) {
    return keyBits == 32 ? 0xffffffffu : (1u << keyBits) - 1;
}

// Onesweep or ReduceThenScan for a sort of `count` pairs of keyBits-bit keys
// (tuning::reduceThenScanFrom). Tests pass their own table.
constexpr SortAlgorithm chooseAlgorithm(uint32_t count, uint32_t keyBits,
                                        const uint32_t (&from)[4] = tuning::reduceThenScanFrom) {
    return count >= from[sortPassCount(keyBits) - 1] ? SortAlgorithm::ReduceThenScan
                                                     : SortAlgorithm::Onesweep;
}

// `algorithm`, with Auto resolved by chooseAlgorithm.
constexpr SortAlgorithm resolveAlgorithm(SortAlgorithm algorithm, uint32_t count, uint32_t keyBits) {
    return algorithm == SortAlgorithm::Auto ? chooseAlgorithm(count, keyBits) : algorithm;
}

// The most pairs one sort can take on this device (storage buffer range, 30-bit tile counts).
uint32_t maxSortPairs(const gpu::Context& context);

// Whether a sort of `count` pairs takes the narrow groups (either algorithm).
inline bool takesNarrowGroups(const Sorter& sorter, uint32_t count) {
    return count >= sorter.narrowFrom;
}

// Keys per tile in a sort of `count` pairs.
inline uint32_t tileSizeFor(const Sorter& sorter, uint32_t count) {
    return takesNarrowGroups(sorter, count) ? sorter.tileSize / 2 : sorter.tileSize;
}

// Throws gpu::Error (or gpu::OutOfMemory) when `capacity` is beyond the device.
Sorter createSorter(const gpu::Context& context, uint32_t capacity, const SortOptions& options = {});
void destroySorter(const gpu::Context& context, Sorter& sorter);

// Records the sort of `count` pairs (count <= capacity) by `algorithm` (the sorter's where not
// given). Profiler scopes: "sort" and, inside it when `detailed`, for Onesweep "sort/histogram",
// "sort/pass0".., for reduce-then-scan "sort/pass0".. each holding "sort/upsweep0", "sort/spine0",
// "sort/downsweep0" (the digit's number at the end). It begins with a compute-to-compute barrier:
// the scratch is the sort before's, and the caller's compute work before it is done.
void recordSort(VkCommandBuffer cmd, const Sorter& sorter, const gpu::Buffer& keysIn,
                const gpu::Buffer& valuesIn, const gpu::Buffer& keysOut, const gpu::Buffer& valuesOut,
                uint32_t count, uint32_t keyBits, SortAlgorithm algorithm, gpu::Profiler* profiler = nullptr,
                bool detailed = false);
void recordSort(VkCommandBuffer cmd, const Sorter& sorter, const gpu::Buffer& keysIn,
                const gpu::Buffer& valuesIn, const gpu::Buffer& keysOut, const gpu::Buffer& valuesOut,
                uint32_t count, uint32_t keyBits, gpu::Profiler* profiler = nullptr, bool detailed = false);

} // namespace sort
