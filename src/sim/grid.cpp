#include "sim/grid.h"

#include "tuning.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>

namespace sim {

namespace {
// x windows need fixed image shifts: 3 or more cells per axis, so that of a boid's periodic images at
// most one lies within reach (grid_walk.glsl).
constexpr uint32_t windowsMinDim = 3;
using tuning::boidsPerRowCube, tuning::windowSlicesPerCell, tuning::windowsFrom;
} // namespace

uint32_t maxGridCells(uint32_t boidCount) {
    return uint32_t(std::clamp<uint64_t>(8ull * boidCount, 1u << 18, 1u << 24));
}

uint64_t maxGridKeys(uint32_t boidCount) {
    return std::max<uint64_t>(1u << 21, boidCount);
}

std::optional<CellWidth> parseCellWidth(const std::string& text) {
    const std::optional<CellWidth> width = io::valueIn(cellWidthNames, text);
    return width ? width : io::valueIn(labCellNames, text);
}

int labCells(CellWidth width) {
    return width == CellWidth::TwoReach ? 8 : 27;
}

namespace {
// The low 10 bits of v, bit b moved to bit 3b.
uint32_t spreadBits(uint32_t v) {
    v &= 0x3ffu;
    v = (v | v << 16) & 0x030000ffu;
    v = (v | v << 8) & 0x0300f00fu;
    v = (v | v << 4) & 0x030c30c3u;
    v = (v | v << 2) & 0x09249249u;
    return v;
}
} // namespace

uint32_t mortonIndex(uint32_t x, uint32_t y, uint32_t z) {
    return spreadBits(x) | spreadBits(y) << 1 | spreadBits(z) << 2;
}

uint32_t cellKey(uint32_t x, uint32_t y, uint32_t z, uint32_t dim, CellOrder order) {
    return order == CellOrder::Morton ? mortonIndex(x, y, z) : cellIndex(x, y, z, dim);
}

uint32_t cellKeyCount(uint32_t dim, CellOrder order) {
    return order == CellOrder::Morton ? mortonIndex(dim - 1, dim - 1, dim - 1) + 1 : dim * dim * dim;
}

Grid makeGrid(const Params& p, CellWidth cellWidth, uint32_t boidCount, Rows rows, CellOrder cellOrder) {
    Grid g;
    const float width = (cellWidth == CellWidth::TwoReach ? 2.0f : 1.0f) * maxRadius(p);
    const double cells = std::floor(2.0 * double(p.domainHalf) / double(width));
    const uint32_t cap = uint32_t(std::cbrt(double(maxGridCells(boidCount))) + 1e-9);
    g.dim = uint32_t(std::clamp(cells, 1.0, double(cap)));
    // Morton keys span more than dim^3: their starts count against the cap too.
    while (g.dim > 1 && cellKeyCount(g.dim, cellOrder) > maxGridCells(boidCount)) --g.dim;
    g.cellWidth = float(2.0 * double(p.domainHalf) / g.dim);
    g.cellCount = g.dim * g.dim * g.dim;
    g.cellOrder = cellOrder;
    g.keyCells = cellKeyCount(g.dim, cellOrder);

    // Rows a cell: as asked, or (Auto) as many as keep boidsPerRowCube boids in a cube of the row's
    // height, when there are enough boids a cell for x windows at all.
    const double perCell = double(boidCount) / g.cellCount;
    uint32_t wanted = 1;
    bool windows = rows != Rows::Cells;
    switch (rows) {
    case Rows::Auto:
        windows = perCell >= windowsFrom;
        while (wanted < 4 && perCell / std::pow(2.0 * wanted, 3) >= boidsPerRowCube) wanted *= 2;
        break;
    case Rows::TwoPerCell: wanted = 2; break;
    case Rows::FourPerCell: wanted = 4; break;
    case Rows::Cells:
    case Rows::OnePerCell: break;
    }
    if (cellOrder == CellOrder::Morton) wanted = 1; // its rows of cells are not runs of keys
    // x windows need fixed image shifts, and every key's start must fit.
    const auto fits = [&](uint64_t keysPerCell) {
        return keysPerCell * g.keyCells <= maxGridKeys(boidCount);
    };
    windows = windows && g.dim >= windowsMinDim;
    while (wanted > 1 && !fits(uint64_t(windowSlicesPerCell) * wanted * wanted)) wanted /= 2;
    if (windows && fits(uint64_t(windowSlicesPerCell) * wanted * wanted)) {
        g.rowsPerCell = wanted;
        g.slicesPerCell = windowSlicesPerCell;
    }
    g.keyBits = std::max(1, int(std::bit_width(keyCount(g) - 1)));
    return g;
}

uint32_t cellCoordinate(float x, float domainHalf, float invCellWidth, uint32_t dim) {
    const float c = std::floor((x + domainHalf) * invCellWidth);
    if (!(c > 0)) return 0;
    return std::min(uint32_t(c), dim - 1);
}

std::string describeRows(const Grid& g) {
    if (g.slicesPerCell == 1) return "whole cells";
    char text[96];
    std::snprintf(text, sizeof text, "rows %.3g high (%u a cell), %u x slices a cell", double(rowHeight(g)),
                  g.rowsPerCell, g.slicesPerCell);
    return text;
}

uint32_t partOf(float x, float domainHalf, float invCellWidth, uint32_t cell, uint32_t parts) {
    const float f = (x + domainHalf) * invCellWidth;
    const float s = std::floor((f - float(cell)) * float(parts));
    if (!(s > 0)) return 0; // NaN too
    return std::min(uint32_t(s), parts - 1);
}

} // namespace sim
