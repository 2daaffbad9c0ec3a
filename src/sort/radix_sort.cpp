#include "sort/radix_sort.h"

#include "sort/sort_types.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace sort {
namespace {

using gpudata::SortHistogramConstants;
using gpudata::SortPassConstants;
using gpudata::SortSweepConstants;

// Scratch layout, in 32-bit words: the histogram totals the passes read, the histogram pass's
// accumulator (zero between sorts: created so, and left so by the histogram pass), the counters
// (sort_types.h), padding to 256 bytes (the largest minStorageBufferOffsetAlignment), then per pass
// tileCount x RADIX status words ([tile][digit]). The histogram pass clears the counters and the
// status words the sort will use.
constexpr uint32_t histogramWords = SORT_MAX_PASSES * SORT_RADIX;
constexpr uint32_t accumulatorOffsetWords = histogramWords;
constexpr uint32_t countersOffsetWords = 2 * histogramWords;
constexpr uint32_t statusOffsetWords = countersOffsetWords + 64;
static_assert(SORT_COUNTER_WORDS <= 64);

// Chunks of whole uvec4 loads (histogram.comp), at least tuning::histogramMinKeysPerGroup keys each.
uint32_t histogramKeysPerGroup(uint32_t count) {
    const uint32_t spread = (gpu::groupCount(count, tuning::histogramMaxGroups) + 3) / 4 * 4;
    return std::max(tuning::histogramMinKeysPerGroup, spread);
}

uint32_t tileCountFor(uint32_t count, uint32_t tileSize) {
    return gpu::groupCount(count, tileSize);
}

uint64_t scratchBytes(uint32_t capacity, uint32_t tileSize) {
    return 4ull *
           (statusOffsetWords + uint64_t(SORT_MAX_PASSES) * tileCountFor(capacity, tileSize) * SORT_RADIX);
}

uint32_t sharedBytes(uint32_t workgroupSize, uint32_t subgroups, uint32_t keysPerThread) {
    // Mirrors the shared declarations of onesweep.comp and rank.glsl: per-subgroup counters sharing
    // an array with the tile, 7 arrays of one word per digit, a word per subgroup, and 3 words.
    // Exact, so that 1,024 x 10 fits NVIDIA's 48 KB with 884 bytes to spare.
    return std::max(subgroups * SORT_RADIX, workgroupSize * keysPerThread) * 4 + 7 * SORT_RADIX * 4 +
           subgroups * 4 + 12;
}

// Reduce-then-scan's [digit][tile] words, rows padded to whole 16-byte loads of the spine, then a
// total per digit.
uint32_t tileRowStride(uint32_t tiles) {
    return (tiles + 3) / 4 * 4;
}

uint64_t tileCountsBytes(uint32_t rowStride) {
    return 4ull * (uint64_t(SORT_RADIX) * rowStride + SORT_RADIX);
}

void recordOnesweep(VkCommandBuffer cmd, const Sorter& s, const gpu::Buffer& keysIn,
                    const gpu::Buffer& valuesIn, const gpu::Buffer& keysOut, const gpu::Buffer& valuesOut,
                    uint32_t count, uint32_t keyBits, gpu::Profiler* detail);
void recordReduceThenScan(VkCommandBuffer cmd, const Sorter& s, const gpu::Buffer& keysIn,
                          const gpu::Buffer& valuesIn, const gpu::Buffer& keysOut,
                          const gpu::Buffer& valuesOut, uint32_t count, uint32_t keyBits,
                          gpu::Profiler* detail);

} // namespace

uint32_t maxSortPairs(const gpu::Context& ctx) {
    const uint64_t byRange = ctx.properties.limits.maxStorageBufferRange / 4;
    return uint32_t(std::min<uint64_t>(byRange, SORT_VALUE_MASK));
}

namespace {

// Whether a sort of this sorter may take reduce-then-scan: asked for, or Auto's table from some count
// up to the capacity.
bool mayTakeReduceThenScan(const SortOptions& options, uint32_t capacity) {
    const bool autoMayTakeIt =
        std::any_of(std::begin(tuning::reduceThenScanFrom), std::end(tuning::reduceThenScanFrom),
                    [&](uint32_t from) { return from <= capacity; });
    return options.reduceThenScan || options.algorithm == SortAlgorithm::ReduceThenScan ||
           (options.algorithm == SortAlgorithm::Auto && autoMayTakeIt);
}

// Reduce-then-scan's programs and tile counts, in the sorter's shapes.
void createReduceThenScan(const gpu::Context& ctx, Sorter& s, uint32_t capacity, uint32_t smallestTile) {
    const auto& limits = ctx.properties.limits;
    // Reduce-then-scan uses Onesweep's shapes (full-width groups, and narrow groups from narrowFrom
    // pairs), which leave it shared memory to spare because it keeps no look-back state. The upsweep reads
    // tiles 16 bytes at a time from their start.
    CHECK(smallestTile % 4 == 0);
    s.tileRowStride = tileRowStride(tileCountFor(capacity, smallestTile));
    // A word a tile and digit: a quarter of the status words statusFits bounds, and 4 KB more.
    CHECK(tileCountsBytes(s.tileRowStride) <= limits.maxStorageBufferRange);
    const auto createSweeps = [&](uint32_t workgroupSize, gpu::Program& upsweep, gpu::Program& downsweep) {
        upsweep = gpu::createComputeProgram(
            ctx, "sort_upsweep", {{gpu::localSizeX, workgroupSize}, {"KEYS_PER_THREAD", s.keysPerThread}},
            s.subgroupSize);
        downsweep = gpu::createComputeProgram(ctx, "sort_downsweep",
                                              {{gpu::localSizeX, workgroupSize},
                                               {"KEYS_PER_THREAD", s.keysPerThread},
                                               {"MAX_SUBGROUPS", workgroupSize / s.subgroupSize},
                                               {"SUBGROUP_SIZE", s.subgroupSize}},
                                              s.subgroupSize);
    };
    createSweeps(s.workgroupSize, s.upsweep, s.downsweep);
    if (s.narrowFrom != UINT32_MAX) createSweeps(s.workgroupSize / 2, s.upsweepNarrow, s.downsweepNarrow);
    s.spine = gpu::createComputeProgram(
        ctx, "sort_spine",
        {{gpu::localSizeX, s.workgroupSize}, {"MAX_SUBGROUPS", s.workgroupSize / s.subgroupSize}},
        s.subgroupSize);
    s.tileCounts =
        gpu::createBuffer(ctx, tileCountsBytes(s.tileRowStride), gpu::storageUsage, gpu::MemoryUse::Device);
}

// The work-group size (the first of the candidates that fits the device) and keys per invocation;
// their product is the tile size.
void chooseShape(const gpu::Context& ctx, const SortOptions& options, Sorter& s) {
    const auto& limits = ctx.properties.limits;
    const std::vector<uint32_t> sizes = options.workgroupSize
                                            ? std::vector<uint32_t>{options.workgroupSize}
                                            : std::vector<uint32_t>(std::begin(tuning::sortWorkgroupSizes),
                                                                    std::end(tuning::sortWorkgroupSizes));
    for (uint32_t wg : sizes) {
        if (wg > limits.maxComputeWorkGroupInvocations || wg > limits.maxComputeWorkGroupSize[0]) continue;
        if (wg % s.subgroupSize != 0 || wg / s.subgroupSize > ctx.maxComputeWorkgroupSubgroups) continue;
        const uint32_t subgroups = wg / s.subgroupSize;
        uint32_t kpt = options.keysPerThread ? options.keysPerThread
                       : wg == 1024          ? tuning::sortKeysPerThreadIn1024
                                             : tuning::sortKeysPerThread;
        // An explicit keys-per-invocation is kept as asked or refused, never lowered quietly.
        while (!options.keysPerThread && kpt > 1 &&
               sharedBytes(wg, subgroups, kpt) > limits.maxComputeSharedMemorySize)
            --kpt;
        if (sharedBytes(wg, subgroups, kpt) > limits.maxComputeSharedMemorySize) continue;
        s.workgroupSize = wg;
        s.keysPerThread = kpt;
        break;
    }
    if (!s.workgroupSize) {
        if (options.workgroupSize || options.keysPerThread)
            throw gpu::Unsupported(
                "radix sort: that work-group size and keys per invocation do not fit this device");
        throw gpu::Error("radix sort: no work group size fits this device's limits");
    }
    s.tileSize = s.workgroupSize * s.keysPerThread;
}

// The histogram pass binds every pass's status words (1 KB a tile a pass) as one storage buffer range.
bool statusFits(const gpu::Context& ctx, uint32_t capacity, uint32_t tileSize) {
    return uint64_t(tileCountFor(capacity, tileSize)) * SORT_RADIX * 4 * SORT_MAX_PASSES <=
           ctx.properties.limits.maxStorageBufferRange;
}

// Whether narrow groups may be made: only for the default shape, and where two fit the per-group
// shared-memory limit (a proxy for two sharing an SM).
bool narrowGroupsFit(const gpu::Context& ctx, const Sorter& s, uint32_t capacity,
                     const SortOptions& options) {
    const uint32_t narrow = s.workgroupSize / 2;
    return !options.workgroupSize && !options.keysPerThread && capacity >= options.narrowGroupsFrom &&
           narrow > 0 && narrow % s.subgroupSize == 0 &&
           2 * sharedBytes(narrow, narrow / s.subgroupSize, s.keysPerThread) <=
               ctx.properties.limits.maxComputeSharedMemorySize &&
           statusFits(ctx, capacity, s.tileSize / 2);
}

// Onesweep's programs (full-width groups, and narrow groups where a sort may take them) and the
// histogram pass's program.
void createOnesweep(const gpu::Context& ctx, Sorter& s, const SortOptions& options) {
    const auto createPass = [&](uint32_t workgroupSize) {
        return gpu::createComputeProgram(ctx, "sort_onesweep",
                                         {{gpu::localSizeX, workgroupSize},
                                          {"KEYS_PER_THREAD", s.keysPerThread},
                                          {"MAX_SUBGROUPS", workgroupSize / s.subgroupSize},
                                          {"SPIN_LIMIT", options.spinLimit},
                                          {"SUBGROUP_SIZE", s.subgroupSize},
                                          {"LOOKBACK_WINDOW", options.lookbackWindow}},
                                         s.subgroupSize);
    };
    s.onesweep = createPass(s.workgroupSize);
    if (s.narrowFrom != UINT32_MAX) s.onesweepNarrow = createPass(s.workgroupSize / 2);
    s.histogram = gpu::createComputeProgram(ctx, "sort_histogram", {{gpu::localSizeX, s.workgroupSize}});
}

// The ping-pong pair, and the scratch created zero: the histogram pass's accumulator is zero between
// sorts.
void createBuffers(const gpu::Context& ctx, Sorter& s, uint32_t capacity, uint32_t smallestTile) {
    const VkBufferUsageFlags usage = gpu::storageUsage;
    s.tempKeys = gpu::createBuffer(ctx, 4ull * capacity, usage, gpu::MemoryUse::Device);
    s.tempValues = gpu::createBuffer(ctx, 4ull * capacity, usage, gpu::MemoryUse::Device);
    s.scratch = gpu::createBuffer(ctx, scratchBytes(capacity, smallestTile), usage, gpu::MemoryUse::Device);
    gpu::fillBuffer(ctx, s.scratch, 0);
}

} // namespace

Sorter createSorter(const gpu::Context& ctx, uint32_t capacity, const SortOptions& options) {
    if (capacity > maxSortPairs(ctx))
        throw gpu::OutOfMemory("sorting " + std::to_string(capacity) +
                               " pairs exceeds this device's limit of " + std::to_string(maxSortPairs(ctx)) +
                               " pairs");
    Sorter s;
    s.capacity = capacity;
    s.algorithm = options.algorithm;
    s.subgroupSize = gpu::preferredSubgroupSize(ctx);
    CHECK(s.subgroupSize > 0); // Vulkan 1.3 guarantees subgroup size control in compute
    if (options.lookbackWindow < 1 || options.lookbackWindow > SORT_MAX_LOOKBACK_WINDOW)
        throw gpu::Unsupported("radix sort: a look-back window must be 1 to " +
                               std::to_string(SORT_MAX_LOOKBACK_WINDOW) + " predecessors");
    chooseShape(ctx, options, s);
    if (!statusFits(ctx, capacity, s.tileSize))
        throw gpu::OutOfMemory("sorting " + std::to_string(capacity) + " pairs in tiles of " +
                               std::to_string(s.tileSize) +
                               " keys exceeds the device's storage buffer range");
    if (narrowGroupsFit(ctx, s, capacity, options)) s.narrowFrom = options.narrowGroupsFrom;

    // What is made before something fails (out of memory) is freed before the error goes on.
    try {
        createOnesweep(ctx, s, options);
        const uint32_t smallestTile = tileSizeFor(s, capacity);
        createBuffers(ctx, s, capacity, smallestTile);
        if (mayTakeReduceThenScan(options, capacity)) createReduceThenScan(ctx, s, capacity, smallestTile);
        return s;
    } catch (...) {
        destroySorter(ctx, s);
        throw;
    }
}

void destroySorter(const gpu::Context& ctx, Sorter& s) {
    gpu::destroyProgram(ctx, s.histogram);
    gpu::destroyProgram(ctx, s.onesweep);
    gpu::destroyProgram(ctx, s.onesweepNarrow);
    gpu::destroyProgram(ctx, s.upsweep);
    gpu::destroyProgram(ctx, s.spine);
    gpu::destroyProgram(ctx, s.downsweep);
    gpu::destroyProgram(ctx, s.upsweepNarrow);
    gpu::destroyProgram(ctx, s.downsweepNarrow);
    gpu::destroyBuffer(ctx, s.tileCounts);
    gpu::destroyBuffer(ctx, s.tempKeys);
    gpu::destroyBuffer(ctx, s.tempValues);
    gpu::destroyBuffer(ctx, s.scratch);
    s = Sorter{};
}

void recordSort(VkCommandBuffer cmd, const Sorter& s, const gpu::Buffer& keysIn, const gpu::Buffer& valuesIn,
                const gpu::Buffer& keysOut, const gpu::Buffer& valuesOut, uint32_t count, uint32_t keyBits,
                SortAlgorithm algorithm, gpu::Profiler* profiler, bool detailed) {
    CHECK(keyBits >= 1 && keyBits <= 32);
    CHECK(count <= s.capacity);
    CHECK(keysIn.buffer != keysOut.buffer && valuesIn.buffer != valuesOut.buffer);
    if (count == 0) return;
    gpu::Scope total(profiler, cmd, "sort");
    gpu::Profiler* detail = detailed ? profiler : nullptr;
    // The sort before this one and the caller's work before it (which may read the outputs, or
    // write the input) are done.
    gpu::computeBarrier(cmd);
    if (resolveAlgorithm(algorithm, count, keyBits) == SortAlgorithm::ReduceThenScan) {
        CHECK(s.upsweep.pipeline != VK_NULL_HANDLE); // made only where asked for (SortOptions)
        recordReduceThenScan(cmd, s, keysIn, valuesIn, keysOut, valuesOut, count, keyBits, detail);
    } else {
        recordOnesweep(cmd, s, keysIn, valuesIn, keysOut, valuesOut, count, keyBits, detail);
    }
}

void recordSort(VkCommandBuffer cmd, const Sorter& s, const gpu::Buffer& keysIn, const gpu::Buffer& valuesIn,
                const gpu::Buffer& keysOut, const gpu::Buffer& valuesOut, uint32_t count, uint32_t keyBits,
                gpu::Profiler* profiler, bool detailed) {
    recordSort(cmd, s, keysIn, valuesIn, keysOut, valuesOut, count, keyBits, s.algorithm, profiler, detailed);
}

namespace {

// Pass p of `passes` reads the input (p = 0) or the buffers the pass before wrote, and writes the
// output (the last pass) or alternates backwards from it.
struct PassBuffers {
    const gpu::Buffer &srcKeys, &srcValues, &dstKeys, &dstValues;
};

PassBuffers passBuffers(const Sorter& s, const gpu::Buffer& keysIn, const gpu::Buffer& valuesIn,
                        const gpu::Buffer& keysOut, const gpu::Buffer& valuesOut, uint32_t p,
                        uint32_t passes) {
    const bool toOutput = (passes - 1 - p) % 2 == 0;
    return {p == 0 ? keysIn : (toOutput ? s.tempKeys : keysOut),
            p == 0 ? valuesIn : (toOutput ? s.tempValues : valuesOut), toOutput ? keysOut : s.tempKeys,
            toOutput ? valuesOut : s.tempValues};
}

const char* const passNames[SORT_MAX_PASSES] = {"sort/pass0", "sort/pass1", "sort/pass2", "sort/pass3"};

void recordOnesweep(VkCommandBuffer cmd, const Sorter& s, const gpu::Buffer& keysIn,
                    const gpu::Buffer& valuesIn, const gpu::Buffer& keysOut, const gpu::Buffer& valuesOut,
                    uint32_t count, uint32_t keyBits, gpu::Profiler* detail) {
    const uint32_t passes = sortPassCount(keyBits);
    const uint32_t tiles = tileCountFor(count, tileSizeFor(s, count));
    const gpu::Program& onesweep = takesNarrowGroups(s, count) ? s.onesweepNarrow : s.onesweep;
    CHECK(onesweep.pipeline != VK_NULL_HANDLE);
    const uint32_t keyMask = sortKeyMask(keyBits);
    const VkDeviceSize statusBytes = VkDeviceSize(tiles) * SORT_RADIX * 4;

    const gpu::Resource histogram(s.scratch, 0, histogramWords * 4);
    const gpu::Resource counters(s.scratch, countersOffsetWords * 4, SORT_COUNTER_WORDS * 4);
    {
        gpu::Scope scope(detail, cmd, "sort/histogram");
        gpu::bindProgram(cmd, s.histogram,
                         {keysIn, histogram, keysIn, counters,
                          gpu::Resource(s.scratch, 4ull * statusOffsetWords, passes * statusBytes),
                          gpu::Resource(s.scratch, accumulatorOffsetWords * 4, histogramWords * 4)});
        const uint32_t keysPerGroup = histogramKeysPerGroup(count);
        const uint32_t groups = gpu::groupCount(count, keysPerGroup);
        SortHistogramConstants push{count, passes, keysPerGroup, keyMask, passes * tiles * SORT_RADIX, groups,
                                    0,     0};
        gpu::dispatchGroups(cmd, s.histogram, groups, push);
        // The histogram is complete before any pass reads it.
        gpu::computeBarrier(cmd);
    }
    for (uint32_t p = 0; p < passes; ++p) {
        gpu::Scope scope(detail, cmd, passNames[p]);
        const PassBuffers b = passBuffers(s, keysIn, valuesIn, keysOut, valuesOut, p, passes);
        const gpu::Resource status(s.scratch, 4ull * statusOffsetWords + p * statusBytes, statusBytes);
        gpu::bindProgram(cmd, onesweep,
                         {b.srcKeys, b.srcValues, b.dstKeys, b.dstValues, histogram, counters, status});
        SortPassConstants push{count, p * radixBits, p, tiles, keyMask, 0, 0, 0};
        gpu::dispatchGroups(cmd, onesweep, tiles, push);
        // This pass's output is the next pass's (or the caller's) input.
        gpu::computeBarrier(cmd);
    }
}

// Reduce-then-scan's buffers of one sort: per digit and tile a count, then an offset, and each
// digit's total.
struct Sweep {
    gpu::Resource offsets, digitTotals;
    SortSweepConstants push;
};

void recordUpsweep(VkCommandBuffer cmd, const gpu::Program& upsweep, const Sweep& w, const gpu::Buffer& keys,
                   uint32_t p, gpu::Profiler* detail) {
    static const char* const names[SORT_MAX_PASSES] = {"sort/upsweep0", "sort/upsweep1", "sort/upsweep2",
                                                       "sort/upsweep3"};
    gpu::Scope scope(detail, cmd, names[p]);
    gpu::bindProgram(cmd, upsweep, {keys, keys, w.offsets});
    gpu::dispatchGroups(cmd, upsweep, w.push.tileCount, w.push);
    // The tiles' counts are complete before the spine scans them.
    gpu::computeBarrier(cmd);
}

void recordSpine(VkCommandBuffer cmd, const gpu::Program& spine, const Sweep& w, uint32_t p,
                 gpu::Profiler* detail) {
    static const char* const names[SORT_MAX_PASSES] = {"sort/spine0", "sort/spine1", "sort/spine2",
                                                       "sort/spine3"};
    gpu::Scope scope(detail, cmd, names[p]);
    gpu::bindProgram(cmd, spine, {w.offsets, w.digitTotals});
    gpu::dispatchGroups(cmd, spine, SORT_RADIX, w.push); // a group a digit
    // The offsets and totals are complete before the downsweep reads them.
    gpu::computeBarrier(cmd);
}

void recordDownsweep(VkCommandBuffer cmd, const gpu::Program& downsweep, const Sweep& w, const PassBuffers& b,
                     uint32_t p, gpu::Profiler* detail) {
    static const char* const names[SORT_MAX_PASSES] = {"sort/downsweep0", "sort/downsweep1",
                                                       "sort/downsweep2", "sort/downsweep3"};
    gpu::Scope scope(detail, cmd, names[p]);
    gpu::bindProgram(cmd, downsweep,
                     {b.srcKeys, b.srcValues, b.dstKeys, b.dstValues, w.offsets, w.digitTotals});
    gpu::dispatchGroups(cmd, downsweep, w.push.tileCount, w.push);
    // This pass's output is the next pass's (or the caller's) input, and the next upsweep rewrites
    // the offsets read here.
    gpu::computeBarrier(cmd);
}

void recordReduceThenScan(VkCommandBuffer cmd, const Sorter& s, const gpu::Buffer& keysIn,
                          const gpu::Buffer& valuesIn, const gpu::Buffer& keysOut,
                          const gpu::Buffer& valuesOut, uint32_t count, uint32_t keyBits,
                          gpu::Profiler* detail) {
    const uint32_t passes = sortPassCount(keyBits);
    const uint32_t tiles = tileCountFor(count, tileSizeFor(s, count));
    const uint32_t stride = tileRowStride(tiles);
    const bool narrow = takesNarrowGroups(s, count);
    const gpu::Program& upsweep = narrow ? s.upsweepNarrow : s.upsweep;
    const gpu::Program& downsweep = narrow ? s.downsweepNarrow : s.downsweep;
    CHECK(upsweep.pipeline != VK_NULL_HANDLE && downsweep.pipeline != VK_NULL_HANDLE);
    Sweep w{gpu::Resource(s.tileCounts, 0, 4ull * SORT_RADIX * stride),
            gpu::Resource(s.tileCounts, 4ull * SORT_RADIX * s.tileRowStride, 4ull * SORT_RADIX),
            {count, 0, tiles, sortKeyMask(keyBits), stride, 0, 0, 0}};
    for (uint32_t p = 0; p < passes; ++p) {
        gpu::Scope pass(detail, cmd, passNames[p]);
        const PassBuffers b = passBuffers(s, keysIn, valuesIn, keysOut, valuesOut, p, passes);
        w.push.shift = p * radixBits;
        recordUpsweep(cmd, upsweep, w, b.srcKeys, p, detail);
        recordSpine(cmd, s.spine, w, p, detail);
        recordDownsweep(cmd, downsweep, w, b, p, detail);
    }
}

} // namespace

} // namespace sort
