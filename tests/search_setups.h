#pragma once
// The grid shapes the search tests step on: each of the shapes below takes a different way through
// the one walk of the grid (grid_walk.glsl): whole cells, rows a full, half or quarter cell high, Morton
// cells cut at every cell's edge, and grids too small for fixed image shifts.

#include "sim/flock.h"

#include <string>
#include <vector>

namespace test {

// The lab's parameters with r1 != r3 (max(r) = 5.5), for the pipelines without shared radii.
inline sim::Params distinctRadii(sim::Params p) {
    p.cohesionRadius = 4.0f;
    p.separationRadius = 2.0f;
    p.alignmentRadius = 5.5f;
    return p;
}

struct GridShape {
    float domainHalf = 20;
    sim::CellWidth width = sim::CellWidth::Reach;
    sim::Rows rows = sim::Rows::Auto;
    sim::CellOrder cellOrder = sim::CellOrder::Linear;
    std::string name() const {
        return std::string(sim::rowsName(rows)) + " rows, " + sim::cellWidthName(width) + " wide, " +
               sim::cellOrderName(cellOrder) + ", L " + std::to_string(domainHalf);
    }
};

// 3,000 boids a shape. Domains of 7 and 9 cells per axis (not powers of two: Morton gaps), one of
// exactly 3 cells of max(r) (where the reach's margin takes in a far image, grid_walk.glsl:
// clampSpan), and one of 2 (every pair minimum-imaged).
inline std::vector<GridShape> gridShapes() {
    std::vector<GridShape> shapes;
    for (sim::CellWidth width : {sim::CellWidth::Reach, sim::CellWidth::TwoReach}) {
        const float w =
            width == sim::CellWidth::TwoReach ? 11.0f : 5.5f; // 2 max(r) or max(r), distinct radii
        for (sim::Rows rows :
             {sim::Rows::Cells, sim::Rows::OnePerCell, sim::Rows::TwoPerCell, sim::Rows::FourPerCell})
            shapes.push_back({w * 7.5f / 2, width, rows, sim::CellOrder::Linear});
        for (sim::Rows rows : {sim::Rows::Cells, sim::Rows::OnePerCell})
            shapes.push_back({w * 9.5f / 2, width, rows, sim::CellOrder::Morton});
        shapes.push_back({w * 3.0f / 2, width, sim::Rows::Cells, sim::CellOrder::Linear});
        shapes.push_back({w * 3.0f / 2, width, sim::Rows::OnePerCell, sim::CellOrder::Linear});
        shapes.push_back({w * 2.5f / 2, width, sim::Rows::Auto, sim::CellOrder::Linear});
    }
    return shapes;
}

} // namespace test
