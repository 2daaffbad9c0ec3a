#include "sim/grid.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace sim {

namespace {
// Sub-cells need fixed image shifts: 3 or more cells per axis, so that each cell of the block is a
// distinct periodic image.
constexpr uint32_t subCellsMinDim = 3;
} // namespace

uint32_t maxGridCells(uint32_t boidCount) {
    return uint32_t(std::clamp<uint64_t>(8ull * boidCount, 1u << 18, 1u << 24));
}

uint64_t maxSubCells(uint32_t boidCount) {
    return std::max<uint64_t>(1u << 21, boidCount);
}

std::optional<SubCells> parseSubCells(const std::string& text) {
    if (text == "auto") return SubCells::Auto;
    if (text == "octants" || text == "on") return SubCells::Octants;
    if (text == "slices") return SubCells::Slices;
    if (text == "quarters") return SubCells::Quarters;
    if (text == "off") return SubCells::Off;
    return std::nullopt;
}

const char* subCellsName(SubCells s) {
    switch (s) {
    case SubCells::Octants: return "octants";
    case SubCells::Slices: return "slices";
    case SubCells::Quarters: return "quarters";
    case SubCells::Off: return "off";
    case SubCells::Auto: break;
    }
    return "auto";
}

Grid makeGrid(const Params& p, int searchCells, uint32_t boidCount, SubCells subCells, Mode mode,
              uint32_t slicesPerCell) {
    Grid g;
    g.searchCells = searchCells == 8 ? 8 : 27;
    const float width = (g.searchCells == 8 ? 2.0f : 1.0f) * maxRadius(p);
    const double cells = std::floor(2.0 * double(p.domainHalf) / double(width));
    const uint32_t cap = uint32_t(std::cbrt(double(maxGridCells(boidCount))) + 1e-9);
    g.dim = uint32_t(std::clamp(cells, 1.0, double(cap)));
    g.cellWidth = float(2.0 * double(p.domainHalf) / g.dim);
    g.cellCount = g.dim * g.dim * g.dim;
    // Sub-keys need fixed image shifts, and their ranges must fit.
    const auto fits = [&](uint64_t perCell) {
        return g.dim >= subCellsMinDim && perCell * g.cellCount <= maxSubCells(boidCount);
    };
    const bool allowed = fits(8), allowedQuarters = fits(32);
    const uint64_t n = boidCount;
    const bool autoSlices = subCells == SubCells::Auto && n >= uint64_t(slicesFrom) * g.cellCount;
    g.subCells = allowed && subCells == SubCells::Octants;
    g.straddleSubCells = g.subCells && n >= uint64_t(straddleSubCellsFrom) * g.cellCount;
    const uint64_t quartersFrom = g.searchCells == 8       ? quartersFrom8
                                  : mode == Mode::Coherent ? coherentQuartersFrom27
                                                           : 0;
    const bool autoQuarters = autoSlices && quartersFrom != 0 && n >= quartersFrom * g.cellCount;
    g.quarters = allowedQuarters && (subCells == SubCells::Quarters || autoQuarters);
    // Quarters asked for where 32 sub-keys a cell do not fit fall back to slices.
    g.slices = g.quarters ||
               (allowed && (subCells == SubCells::Slices || subCells == SubCells::Quarters || autoSlices));
    // Auto's slices a cell, the finest whose sub-keys fit up to (docs/BENCHMARKS.md, runs 101 and 102):
    // 32 for quarter rows with 8 cells in scattered grids, and in coherent ones from 250 boids a cell
    // (16 below: at 125, 32 saved 1.8% of the flock pass and cost as much in starts); 32 for coherent
    // quarter rows with 27 cells; 8 for slices (16 saved 0.6% at 1M, 32 lost 1 to 1.4%).
    const bool finer8 = g.quarters && g.searchCells == 8;
    const uint32_t autoSlices8 =
        mode == Mode::Scattered || n >= uint64_t(coherentThirtySecondsFrom8) * g.cellCount ? 32 : 16;
    const uint32_t wanted = slicesPerCell != 0                     ? slicesPerCell
                            : finer8                               ? autoSlices8
                            : g.quarters && mode == Mode::Coherent ? 32
                                                                   : 8;
    g.slicesPerCell = 8;
    if (g.slices)
        for (uint32_t s = 16; s <= wanted && s <= 32; s *= 2)
            if (fits(uint64_t(g.quarters ? 4 : 1) * s)) g.slicesPerCell = s;
    // Scattered walks in 16 or 32 slices read them from the push constant from 640 boids a cell, where
    // the driver then compiles them 10 to 13% faster, and 13% slower at 125 (runs 101 and 102).
    g.slicesFromPushConstant = mode == Mode::Scattered && g.slicesPerCell != 8 &&
                               n >= uint64_t(scatteredPushedSlicesFrom) * g.cellCount;
    g.fourAStep = g.slices && n >= uint64_t(fourAStepFrom) * (g.quarters ? 4 : 1) * g.cellCount;
    g.keyBits =
        std::max(1, int(std::bit_width(g.cellCount - 1))) + int(std::bit_width(subKeysPerCell(g) - 1));
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
