#pragma once
// The simulation's configuration: what the user chooses, one field each. The command line parses it
// once, alike for every command; the demo's panel edits it; the passes are handed what each needs.

#include "io/output.h"
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
    // Boids per unit^3, held where a new count sets L (--density, a preset's flock, the panel's "keep
    // the density"); 0: L as given, whatever the count.
    double density = 0;
};

// L for a flock of `boidCount` boids of `config`: from its density where it holds one, (2L)^3 =
// boids / density, else its own L. The one place a density becomes L.
float domainHalfFor(const Config& config, uint64_t boidCount);

// A density that gives a flock an L that fails a check: the density, the count, the L, and the check
// it fails, for the caller to word (the command line names --density, the panel its checkbox).
struct DensityError : io::InputError {
    DensityError(double density, uint64_t boidCount, float domainHalf, ParamProblem problem);
    double density;
    uint64_t boidCount;
    float domainHalf;
    ParamProblem problem;
};

// The error in words, the density named `densityName` and the parameters `names`: "--density 2 with
// 10 boids gives L = 0.85, but --dt times --max-speed must be at most --domain-half (...)".
std::string describeDensityError(const DensityError& error, const std::string& densityName,
                                 const ParamNames& names);

// `config` for a flock of `boidCount` boids: its L set by domainHalfFor. Throws DensityError where
// that L fails a check.
Config configFor(const Config& config, uint64_t boidCount);

// The grid a step of `config` (its L already set: configFor) uses for `boidCount` boids (makeGrid).
inline Grid gridFor(const Config& config, uint32_t boidCount) {
    return makeGrid(config.params, config.cellWidth, boidCount, config.rows, config.cellOrder);
}

} // namespace sim
