#pragma once
// vkboids' knobs: the choices measurements made, each with its reason. Correctness needs none of
// them (its limits stay where they are computed); a GPU unlike the one measured (an H200,
// docs/PERFORMANCE.md) may want others. Every layer may include this file.

#include <cstdint>

namespace tuning {

// ---- The radix sort (src/sort/radix_sort.cpp, shaders/sort) ----

// Work-group sizes a sort tries, the first that fits the device (limits, subgroups, shared memory):
// the largest first, as 1,024 x 8 sorts as fast as 512 x 15 or faster up to narrowGroupsFrom.
constexpr uint32_t sortWorkgroupSizes[] = {1024, 512, 256, 128, 64};
// Keys an invocation ranks (KEYS_PER_THREAD), fewer where shared memory is short. Groups of 1,024
// take 8: as fast as 512 x 15 on small sorts and faster on large ones; 9 trades small sorts for
// large ones.
constexpr uint32_t sortKeysPerThread = 15;
constexpr uint32_t sortKeysPerThreadIn1024 = 8;
// From this many pairs the default shape's passes take narrow groups, half as wide, where two fit the
// per-group shared-memory limit: from here two groups of 512 x 8 sharing an SM beat one of 1,024 x 8
// holding it alone; below, the wider groups' fewer tiles win.
constexpr uint32_t narrowGroupsFrom = 3000000;
// Predecessors a look-back step reads at once (LOOKBACK_WINDOW): one trip to memory for four
// tiles rather than one each, each read still coalesced across the digits.
constexpr uint32_t lookbackWindow = 4;
// Look-back polls before a group counts a stalled tile's digits itself (SPIN_LIMIT): Vulkan promises
// no forward progress between groups. Meant to serve groups not running (lavapipe), not slow ones.
constexpr uint32_t spinLimit = 4096;
// The histogram pass counts chunks of at least 8,192 keys, in at most 1,024 groups. Each group has
// fixed costs (768 global atomics on addresses every group shares, a release that waits for them,
// its start and tail), which many small groups multiply.
constexpr uint32_t histogramMinKeysPerGroup = 8192;
constexpr uint32_t histogramMaxGroups = 1024;
// Auto takes reduce-then-scan from this many pairs, per pass count (1 to 4 passes: 8, 16, 24, 32-bit
// keys), and Onesweep below. Measured, reduce-then-scan is slower at every size: its downsweep,
// waiting for no other group, ranks and scatters a tile in less time than a Onesweep pass takes,
// but the upsweep's second read of the keys costs more than that saves, and small sorts pay for
// three dispatches a pass. Hence never.
constexpr uint32_t reduceThenScanNever = UINT32_MAX;
constexpr uint32_t reduceThenScanFrom[4] = {reduceThenScanNever, reduceThenScanNever, reduceThenScanNever,
                                            reduceThenScanNever};
// The exclusive scan of the counting build (src/sort/scan.cpp): groups of 256 (or as many as the
// device allows) scanning 4 words each (ITEMS), 1,024 a group. Not tuned: a common shape.
constexpr uint32_t scanWorkgroupSize = 256;
constexpr uint32_t scanItemsPerInvocation = 4;

// ---- The flock (src/sim) ----

// The grid passes' groups (or as many as the device allows): with groups of 64, 256 or 512 the
// flocking pass was slower in the coherent mode (up to 11%), and with 512 in the scattered mode too.
constexpr uint32_t flockWorkgroupSize = 128;
// The naive pass's groups: 128 keep 100k boids spread over all SMs of a big GPU.
constexpr uint32_t naiveWorkgroupSize = 128;
// Auto's rows (sim::makeGrid): x windows from this many boids a cell (below it the slices' key bits
// and the starts of many empty keys cost more than the candidates they save), and rows as thin as
// keep this many boids in a cube of the row's height (thinner rows have fewer candidates, but more
// rows and shorter windows, each a loop of its own). The rule picks the fastest row height in every
// configuration measured (docs/DESIGN.md).
constexpr double windowsFrom = 12;
constexpr double boidsPerRowCube = 8;
// x slices a cell with x windows: a window is rounded out to whole slices at either end. Finer
// slices trim that rounding but add key bits and starts to write, and did not pay.
constexpr uint32_t windowSlicesPerCell = 8;

// ---- Drawing (src/render) ----

// The compute rasterizer's and resolve's groups (or as many as the device allows). Not tuned.
constexpr uint32_t drawWorkgroupSize = 256;

} // namespace tuning
