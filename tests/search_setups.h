#pragma once
// A flock and grid that reach a given search pipeline (sim::searchVariants), for the tests that list
// and run them all.

#include "sim/flock.h"

#include <optional>

namespace test {

struct SearchSetup {
    sim::Params params;
    int cells = 27;
    uint32_t boids = 3000;
    sim::SubCells order = sim::SubCells::Auto;
    sim::CellOrder cellOrder = sim::CellOrder::Linear;
    sim::Grid grid;
};

// The lab's parameters with r1 != r3 (max(r) = 5.5), for the pipelines without shared radii.
inline sim::Params distinctRadii(sim::Params p) {
    p.cohesionRadius = 4.0f;
    p.separationRadius = 2.0f;
    p.alignmentRadius = 5.5f;
    return p;
}

// The first of a few domains, shapes and orders (3,000 boids) whose grid takes `variant`, in linear
// cell order first. Domains from 5 to 40 cells per axis: quarter rows in 32 slices a cell where 4 x 32
// sub-keys a cell fit 2^21, in 16 or 8 on the larger grids.
inline std::optional<SearchSetup> setupFor(const sim::SearchVariant& variant) {
    for (sim::CellOrder cellOrder : {sim::CellOrder::Linear, sim::CellOrder::Morton})
        for (float half : {12.5f, 20.0f, 70.0f, 90.0f, 100.0f})
            for (int cells : {27, 8})
                for (sim::SubCells order :
                     {sim::SubCells::Off, sim::SubCells::Slices, sim::SubCells::Quarters}) {
                    SearchSetup s;
                    s.params = variant.sharedRadii ? sim::Params{} : distinctRadii(sim::Params{});
                    s.params.domainHalf = half;
                    s.cells = cells;
                    s.order = order;
                    s.cellOrder = cellOrder;
                    s.grid = sim::makeGrid(s.params, cells, s.boids, order, variant.mode, cellOrder);
                    if (sim::searchVariant(s.grid, s.params) == variant) return s;
                }
    return std::nullopt;
}

} // namespace test
