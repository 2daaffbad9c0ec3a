#pragma once
// Shared by the grid pass tests of both cell orders: the passes from grid index to the search's next
// keys, run on one layout with their outputs poisoned first, against the CPU.

#include "reference.h"
#include "sim/flock.h"

#include <functional>
#include <vector>

namespace test {

// The key of a position, and its cell (an index into the grid's keyCells), as the CPU computes them.
using KeyOf = std::function<uint32_t(const float* position, uint32_t& cell)>;

// What the CPU expects of the ranges pass: the keys in sorted order and the boids of each key cell.
struct SortedCells {
    std::vector<uint32_t> sortedKeys;
    std::vector<uint32_t> boidsIn;
};

// Checks cell ranges or sub-key starts, particular to the grid's shape and order; their buffers hold
// what the ranges pass wrote over 0xAB poison.
using CheckRanges = std::function<void(const sim::Flock& f, const SortedCells& cpu)>;

// The sub-key starts of a sliced grid: every one of `total` sub-keys starts where its keys are or would
// go (in empty cells and keys of no cell too), and one more entry holds n.
void expectSubKeyStarts(const sim::Flock& f, const sim::Grid& grid, const std::vector<uint32_t>& sortedKeys,
                        uint32_t total);

// Runs grid index, sort, ranges, statistics, reorder and the search on `s`, checking each against the
// CPU: keys and slots, sorted pairs, `checkRanges`, occupied and largest cell, the gathered state, and
// the next step's keys and slots.
void checkGridPasses(const gpu::Context& ctx, const sim::State& s, const sim::Params& p,
                     const sim::Grid& grid, const gpudata::StepConstants& c, const KeyOf& keyOf,
                     const CheckRanges& checkRanges);

// Three steps of `grid` from `in` twice: sorting the pairs the search wrote (as a step on the grid of
// the step before does), and with the grid-index pass every step. Either way each step leaves its
// search's pairs current.
std::vector<sim::State> stepsReusingPairsAndNot(const gpu::Context& ctx, const sim::State& in,
                                                const sim::Params& p, const sim::Grid& grid);

// One grid step of `in` (whose reference step is `ref`) with its sub-key starts as the ranges pass wrote
// them, matching the reference; and with every start spoiled to slot 0, far from it: the walk reads them.
void expectSpoiledStartsChangeTheStep(const gpu::Context& ctx, const sim::State& in,
                                      const test::ReferenceStep& ref, const sim::Params& p,
                                      const sim::Grid& grid);

} // namespace test
