#pragma once
// Shared by the grid pass tests of both cell orders: the passes from grid index to the search's next
// keys, run on one layout with their outputs poisoned first, against the CPU.

#include "reference.h"
#include "sim/flock.h"

#include <vector>

namespace test {

// The grid key of a position (sim_types.h: its row and x slice, in the grid's cell order), and its
// cell (an index into the grid's keyCells), as the CPU computes them.
uint32_t cpuGridKey(const float* position, const sim::Grid& grid, const gpudata::StepConstants& c,
                    uint32_t& cell);

// What the CPU expects of a grid's pairs: the keys in sorted order and the boids of each key cell.
struct SortedCells {
    std::vector<uint32_t> sortedKeys;
    std::vector<uint32_t> boidsIn;
};

// Every key's start, as the key-starts pass and the counting build write them: each of the grid's
// keys starts where its boids are or would go (empty keys, and keys of no cell, too), and one more
// entry holds n.
void expectKeyStarts(const sim::Flock& f, const sim::Grid& grid, const std::vector<uint32_t>& sortedKeys);

// Runs grid index, sort, key starts with reorder, statistics and the search on `s` over poisoned
// outputs, checking each against the CPU: keys and slots, sorted pairs, key starts, occupied and
// largest cell, the gathered state, and the next step's keys and slots. Returns the CPU's pairs.
SortedCells checkGridPasses(const gpu::Context& ctx, const sim::State& s, const sim::Params& p,
                            const sim::Grid& grid);

// Three steps of `mode` on `grid` from `in` twice: sorting the pairs the search wrote (as a step on
// the grid of the step before does), and with the grid-index pass every step. Either way each step
// leaves its search's pairs current.
std::vector<sim::State> stepsReusingPairsAndNot(const gpu::Context& ctx, const sim::State& in,
                                                const sim::Params& p, const sim::Grid& grid, sim::Mode mode);

// One grid step of `in` (whose reference step is `ref`) with its key starts as the pass wrote them,
// matching the reference; and with every start spoiled to slot 0, far from it: the search reads them.
void expectSpoiledStartsChangeTheStep(const gpu::Context& ctx, const sim::State& in,
                                      const test::ReferenceStep& ref, const sim::Params& p,
                                      const sim::Grid& grid, sim::Mode mode);

} // namespace test
