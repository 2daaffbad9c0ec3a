// The radix sort's GPU data, shared by C++ (namespace gpudata) and GLSL: std430 layouts. The sort
// orders (key, value) pairs of 32-bit unsigned integers.
#ifndef VKBOIDS_SORT_TYPES_H
#define VKBOIDS_SORT_TYPES_H

#ifdef __cplusplus
#include <cstdint>
namespace gpudata {
using u32 = uint32_t;
#else
#define u32 uint
#endif

#define SORT_RADIX_BITS 8
#define SORT_RADIX 256
#define SORT_MAX_PASSES 4

struct SortHistogramConstants {
    u32 count;       // the number of pairs
    u32 passCount;   // the number of digits to histogram
    u32 tileSize;    // keys per work group
    u32 keyMask;     // the low keyBits bits set
    u32 statusWords; // tile status words the passes will use, cleared here (a multiple of 4)
    u32 groups;      // the work groups that count keys (a dispatch may launch a few more)
    u32 pad1;
    u32 pad2;
};

struct SortPassConstants {
    u32 count;
    u32 shift; // bit offset of this pass's digit
    u32 pass;  // index into the global histogram
    u32 tileCount;
    u32 keyMask;
    u32 pad0;
    u32 pad1;
    u32 pad2;
};

// The reduce-then-scan passes (upsweep.comp, spine.comp, downsweep.comp) keep, for each tile and digit,
// a count and then its offset, at [digit * rowStride + tile].
struct SortSweepConstants {
    u32 count;
    u32 shift; // bit offset of this pass's digit
    u32 tileCount;
    u32 keyMask;
    u32 rowStride; // tileCount rounded up to a multiple of 4
    u32 pad0;
    u32 pad1;
    u32 pad2;
};

// The sort's counters: one per pass that hands out its tiles, then the histogram's finished groups.
#define SORT_HISTOGRAM_FINISHED SORT_MAX_PASSES
#define SORT_COUNTER_WORDS (SORT_MAX_PASSES + 1)

// The chained scan's tile status words: 2 flag bits above a 30-bit count.
#define SORT_FLAG_NONE 0u
#define SORT_FLAG_AGGREGATE 1u
#define SORT_FLAG_PREFIX 2u
#define SORT_FLAG_SHIFT 30u
#define SORT_VALUE_MASK 0x3fffffffu
#define SORT_MAX_LOOKBACK_WINDOW 16u // predecessors one look-back step may read

// The exclusive scan (sort::recordExclusiveScan): one pass of one level.
struct ScanConstants {
    u32 count;     // elements of this level
    u32 outStride; // words between consecutive outputs (2 writes the first word of each uvec2)
    u32 reduce;    // 1 writes each group's total to sums; 0 scans and writes the outputs
    u32 addSums;   // when scanning, add sums[group] (the scanned totals of earlier groups) to each output
};

#ifdef __cplusplus
static_assert(sizeof(SortHistogramConstants) == 32);
static_assert(sizeof(ScanConstants) == 16);
static_assert(sizeof(SortPassConstants) == 32);
static_assert(sizeof(SortSweepConstants) == 32);
} // namespace gpudata
#endif

#endif
