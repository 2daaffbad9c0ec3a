#pragma once
// The simulation's configuration: what the user chooses, one field each. The command line parses it
// once, alike for every command; the demo's panel edits it; the passes are handed what each needs.

#include "sim/grid.h"
#include "sim/params.h"

#include <cstdint>

namespace sim {

struct Config {
    Mode mode = Mode::Coherent;
    CellWidth cellWidth = CellWidth::Reach;  // cells max(r) or 2 max(r) wide (grid.h)
    Rows rows = Rows::Auto;                  // the rows the search scans (grid.h)
    GridBuild gridBuild = GridBuild::Radix;  // how a grid step orders boids by key
    CellOrder cellOrder = CellOrder::Linear; // how the sort key numbers cells
    Params params;                           // the rules, the domain and the time step
    double density = 0;                      // boids per unit^3 that set L from the count; 0: L as given
};

// `config` for a flock of `boidCount` boids: its L set by the density where one is given (the one place
// a density becomes L), as given otherwise. Throws io::InputError where that L fails a check.
Config configFor(const Config& config, uint64_t boidCount);

// The grid a step of `config` (its L already set: configFor) uses for `boidCount` boids (makeGrid).
inline Grid gridFor(const Config& config, uint32_t boidCount) {
    return makeGrid(config.params, config.cellWidth, boidCount, config.rows, config.cellOrder);
}

} // namespace sim
