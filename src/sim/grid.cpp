#include "sim/grid.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace sim {

namespace {
// Slices need fixed image shifts: 3 or more cells per axis, so that each cell of the block is a
// distinct periodic image.
constexpr uint32_t slicesMinDim = 3;
} // namespace

std::optional<GridBuild> parseGridBuild(const std::string& text) {
    if (text == "radix") return GridBuild::Radix;
    if (text == "counting") return GridBuild::Counting;
    return std::nullopt;
}

const char* gridBuildName(GridBuild b) {
    return b == GridBuild::Counting ? "counting" : "radix";
}

uint32_t maxGridCells(uint32_t boidCount) {
    return uint32_t(std::clamp<uint64_t>(8ull * boidCount, 1u << 18, 1u << 24));
}

uint64_t maxSubCells(uint32_t boidCount) {
    return std::max<uint64_t>(1u << 21, boidCount);
}

std::optional<SubCells> parseSubCells(const std::string& text) {
    if (text == "auto") return SubCells::Auto;
    if (text == "slices") return SubCells::Slices;
    if (text == "quarters") return SubCells::Quarters;
    if (text == "off") return SubCells::Off;
    return std::nullopt;
}

const char* subCellsName(SubCells s) {
    switch (s) {
    case SubCells::Slices: return "slices";
    case SubCells::Quarters: return "quarters";
    case SubCells::Off: return "off";
    case SubCells::Auto: break;
    }
    return "auto";
}

std::optional<CellOrder> parseCellOrder(const std::string& text) {
    if (text == "linear") return CellOrder::Linear;
    if (text == "morton") return CellOrder::Morton;
    return std::nullopt;
}

const char* cellOrderName(CellOrder order) {
    return order == CellOrder::Morton ? "morton" : "linear";
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

Grid makeGrid(const Params& p, int searchCells, uint32_t boidCount, SubCells subCells, Mode mode,
              CellOrder cellOrder) {
    Grid g;
    g.searchCells = searchCells == 8 ? 8 : 27;
    const float width = (g.searchCells == 8 ? 2.0f : 1.0f) * maxRadius(p);
    const double cells = std::floor(2.0 * double(p.domainHalf) / double(width));
    const uint32_t cap = uint32_t(std::cbrt(double(maxGridCells(boidCount))) + 1e-9);
    g.dim = uint32_t(std::clamp(cells, 1.0, double(cap)));
    // Morton keys span more than dim^3: their ranges count against the cap too.
    while (g.dim > 1 && cellKeyCount(g.dim, cellOrder) > maxGridCells(boidCount)) --g.dim;
    g.cellWidth = float(2.0 * double(p.domainHalf) / g.dim);
    g.cellCount = g.dim * g.dim * g.dim;
    g.cellOrder = cellOrder;
    g.keyCells = cellKeyCount(g.dim, cellOrder);

    // The keys: slices need fixed image shifts, and their starts must fit.
    const auto fits = [&](uint64_t perCell) {
        return g.dim >= slicesMinDim && perCell * g.keyCells <= maxSubCells(boidCount);
    };
    const uint64_t n = boidCount;
    const bool autoSlices = subCells == SubCells::Auto && n >= uint64_t(slicesFrom) * g.cellCount;
    const uint64_t quartersFrom = g.searchCells == 8       ? quartersFrom8
                                  : mode == Mode::Coherent ? coherentQuartersFrom27
                                                           : 0;
    const bool autoQuarters = autoSlices && quartersFrom != 0 && n >= quartersFrom * g.cellCount;
    const bool morton = cellOrder == CellOrder::Morton; // no quarter rows (CellOrder)
    g.quarters = !morton && fits(4 * 8) && (subCells == SubCells::Quarters || autoQuarters);
    g.slices = g.quarters ||
               (fits(8) && (subCells == SubCells::Slices || subCells == SubCells::Quarters || autoSlices));
    g.slicesPerCell = 8;
    if (g.quarters)
        for (uint32_t s = 16; s <= 32; s *= 2)
            if (fits(4 * s)) g.slicesPerCell = s;
    g.keyBits = std::max(1, int(std::bit_width(g.keyCells - 1))) + int(std::bit_width(subKeysPerCell(g) - 1));

    // The walk: Morton rows of cells are not runs of keys.
    g.mode = mode;
    g.walk = !g.slices                                           ? Walk::Cells
             : !morton && (g.quarters || mode == Mode::Coherent) ? Walk::Rows
                                                                 : Walk::Slices;
    return g;
}

uint32_t cellCoordinate(float x, float halfDomain, float invCellWidth, uint32_t dim) {
    const float c = std::floor((x + halfDomain) * invCellWidth);
    if (!(c > 0)) return 0;
    return std::min(uint32_t(c), dim - 1);
}

uint32_t subCellBit(float x, float halfDomain, float invCellWidth, uint32_t cell) {
    const float f = (x + halfDomain) * invCellWidth;
    return f >= float(cell) + 0.5f ? 1u : 0u;
}

uint32_t sliceOf(float x, float halfDomain, float invCellWidth, uint32_t cell, uint32_t slicesPerCell) {
    const float f = (x + halfDomain) * invCellWidth;
    const float s = std::floor((f - float(cell)) * float(slicesPerCell));
    if (!(s > 0)) return 0; // NaN too
    return std::min(uint32_t(s), slicesPerCell - 1);
}

} // namespace sim
