// Pure functions: no GPU.

#include "gpu/commands.h"
#include "gpu/shaders.h"
#include "gpu/spirv_reflect.h"
#include "render/draw_types.h"
#include "sim/grid.h"
#include "sim/sim_types.h"
#include "sim/state.h"
#include "sort/sort_types.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>

TEST(GroupCount, RoundsUp) {
    EXPECT_EQ(gpu::groupCount(0, 256), 0u);
    EXPECT_EQ(gpu::groupCount(1, 256), 1u);
    EXPECT_EQ(gpu::groupCount(256, 256), 1u);
    EXPECT_EQ(gpu::groupCount(257, 256), 2u);
    EXPECT_EQ(gpu::groupCount(10240000, 256), 40000u);
    EXPECT_EQ(gpu::groupCount(0xffffffffull, 64), 67108864u);
}

TEST(Wrap, IntoTheHalfOpenDomain) {
    const float L = 100;
    EXPECT_EQ(sim::wrapCoordinate(0.0f, L), 0.0f);
    EXPECT_EQ(sim::wrapCoordinate(-100.0f, L), -100.0f);
    EXPECT_EQ(sim::wrapCoordinate(100.0f, L), -100.0f); // L itself is -L
    EXPECT_FLOAT_EQ(sim::wrapCoordinate(101.5f, L), -98.5f);
    EXPECT_FLOAT_EQ(sim::wrapCoordinate(-100.25f, L), 99.75f);
    EXPECT_FLOAT_EQ(sim::wrapCoordinate(650.0f, L), 50.0f);
    // Values just below -L that round back to L after the shift still land inside [-L, L).
    const float x = sim::wrapCoordinate(std::nextafter(-100.0f, -200.0f), L);
    EXPECT_GE(x, -L);
    EXPECT_LT(x, L);
}

TEST(RandomState, IsDeterministicAndInsideTheDomain) {
    const sim::State a = sim::randomState(1000, 42, 50, 2), b = sim::randomState(1000, 42, 50, 2);
    EXPECT_EQ(a.data, b.data);
    EXPECT_NE(a.data, sim::randomState(1000, 43, 50, 2).data);
    for (uint32_t i = 0; i < a.count(); ++i) {
        for (int k = 0; k < 3; ++k) {
            EXPECT_GE(a.data[i * 6 + k], -50.0f);
            EXPECT_LT(a.data[i * 6 + k], 50.0f);
        }
        const float* v = &a.data[i * 6 + 3];
        EXPECT_LE(std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), 2.0f * 1.0001f);
    }
}

TEST(Grid, CellsDivideTheDomainExactly) {
    sim::Params p; // L = 100, max r = 5
    sim::Grid g27 = sim::makeGrid(p, 27, 100000), g8 = sim::makeGrid(p, 8, 100000);
    EXPECT_EQ(g27.dim, 40u);
    EXPECT_FLOAT_EQ(g27.cellWidth, 5.0f);
    EXPECT_EQ(g27.keyBits, 16u); // 64000 cells
    EXPECT_EQ(g8.dim, 20u);
    EXPECT_FLOAT_EQ(g8.cellWidth, 10.0f);
    EXPECT_EQ(sim::makeGrid(p, 8, 100000, sim::SubCells::Off).keyBits, 13u); // 8000 cells
    EXPECT_TRUE(g8.slices);                                                  // 12.5 boids a cell
    EXPECT_EQ(g8.keyBits, 16u);
    p.domainHalf = 7.4f; // floor(14.8 / 5) = 2 cells for 27, floor(14.8 / 10) = 1 for 8
    EXPECT_EQ(sim::makeGrid(p, 27, 10).dim, 2u);
    EXPECT_EQ(sim::makeGrid(p, 8, 10).dim, 1u);
    p.domainHalf = 2.0f; // smaller than the radius: one cell
    EXPECT_EQ(sim::makeGrid(p, 27, 10).dim, 1u);
    EXPECT_EQ(sim::makeGrid(p, 27, 10).keyBits, 1u);
}

TEST(Grid, HugeGridsAreCoarsened) {
    sim::Params p;
    p.domainHalf = 1000;
    p.cohesionRadius = p.separationRadius = p.alignmentRadius = 0.1f;
    const sim::Grid g = sim::makeGrid(p, 27, 1000);
    EXPECT_LE(g.cellCount, sim::maxGridCells(1000));
    EXPECT_GE(g.cellWidth, 0.1f);
}

// Straddling subgroups walk sub-cells boid by boid from 150 boids a cell, down to the smallest grid
// with sub-cells (3 cells per axis).
TEST(Grid, StraddlingWalkFromCrowdedCells) {
    sim::Params p;
    p.domainHalf = 7.5f; // 3 cells of 5 per axis
    const uint32_t from = sim::straddleSubCellsFrom * 27;
    for (uint32_t n : {from - 1, from, from + 1, 10 * from}) {
        const sim::Grid g = sim::makeGrid(p, 27, n, sim::SubCells::Octants);
        ASSERT_EQ(g.dim, 3u);
        EXPECT_EQ(g.straddleSubCells, n >= from) << n;
    }
    sim::Params lab; // 40 cells per axis: crowded only from 150 x 64,000 boids
    EXPECT_FALSE(sim::makeGrid(lab, 27, 150 * 64000 - 1, sim::SubCells::Octants).straddleSubCells);
    EXPECT_TRUE(sim::makeGrid(lab, 27, 150 * 64000, sim::SubCells::Octants).straddleSubCells);
}

TEST(Grid, CellCoordinateClampsTheUpperEdge) {
    EXPECT_EQ(sim::cellCoordinate(-100.0f, 100.0f, 0.2f, 40), 0u);
    EXPECT_EQ(sim::cellCoordinate(std::nextafter(100.0f, 0.0f), 100.0f, 0.2f, 40), 39u);
    EXPECT_EQ(sim::cellCoordinate(0.0f, 100.0f, 0.2f, 40), 20u);
    EXPECT_EQ(sim::cellIndex(1, 2, 3, 40), 1u + 40 * (2 + 40 * 3));
}

// Auto's choice of cell order (runs 36 to 38, 54, 55 and 58): slices from 12 boids a cell, quarter rows
// instead from 20 with 8 cells, and from 24 in coherent grids with 27; octants only when asked for;
// all of them only with 3 or more cells per axis.
TEST(Grid, AutoOrdersCellsBySlicesOrQuarters) {
    sim::Params lab; // 40^3 cells with 27, 20^3 with 8
    const sim::SubCells automatic = sim::SubCells::Auto;
    for (sim::Mode mode : {sim::Mode::Scattered, sim::Mode::Coherent}) {
        EXPECT_FALSE(sim::makeGrid(lab, 27, 100000, automatic, mode).slices);
        EXPECT_FALSE(sim::makeGrid(lab, 27, 12 * 64000 - 1, automatic, mode).slices);
        EXPECT_TRUE(sim::makeGrid(lab, 27, 12 * 64000, automatic, mode).slices);
        EXPECT_FALSE(sim::makeGrid(lab, 27, 24 * 64000 - 1, automatic, mode).quarters);
        EXPECT_FALSE(sim::makeGrid(lab, 8, 12 * 8000 - 1, automatic, mode).slices);
        const sim::Grid sparse8 = sim::makeGrid(lab, 8, 100000, automatic, mode); // 12.5 boids a cell
        EXPECT_TRUE(sparse8.slices && !sparse8.quarters);
        EXPECT_FALSE(sim::makeGrid(lab, 8, 20 * 8000 - 1, automatic, mode).quarters);
        const sim::Grid dense8 = sim::makeGrid(lab, 8, 20 * 8000, automatic, mode);
        EXPECT_TRUE(dense8.quarters && dense8.slices && !dense8.subCells);
        // With 8 cells: scattered quarter rows in 32 slices a cell (read from the push constant from
        // 640 boids a cell); coherent ones in 16, and in 32 from 250 boids a cell.
        const uint32_t slices = mode == sim::Mode::Coherent ? 16 : 32;
        EXPECT_EQ(dense8.slicesPerCell, slices);
        EXPECT_EQ(dense8.keyBits, 13u + (slices == 16 ? 6 : 7));
        EXPECT_FALSE(dense8.slicesFromPushConstant);
        EXPECT_EQ(sim::makeGrid(lab, 8, 250 * 8000 - 1, automatic, mode).slicesPerCell, slices);
        EXPECT_EQ(sim::makeGrid(lab, 8, 250 * 8000, automatic, mode).slicesPerCell, 32u);
        EXPECT_FALSE(sim::makeGrid(lab, 8, 640 * 8000 - 1, automatic, mode).slicesFromPushConstant);
        EXPECT_EQ(sim::makeGrid(lab, 8, 640 * 8000, automatic, mode).slicesFromPushConstant,
                  mode == sim::Mode::Scattered);
        EXPECT_FALSE(sparse8.slicesFromPushConstant);
        EXPECT_EQ(sparse8.slicesPerCell, 8u); // slices: eighths
    }
    // Where 64 sub-keys a cell would not fit (40^3 cells of 10, 20 boids a cell), eighths.
    sim::Params wide = lab;
    wide.domainHalf = 200.0f;
    const sim::Grid eighths8 = sim::makeGrid(wide, 8, 20 * 64000, automatic, sim::Mode::Coherent);
    EXPECT_TRUE(eighths8.quarters);
    EXPECT_EQ(eighths8.slicesPerCell, 8u);
    EXPECT_EQ(eighths8.keyBits, 16u + 5);
    // Coherent quarter rows with 27 cells: the finest up to 32 that fits (16 from 4.1M boids, 32 from
    // 8.2M).
    const sim::Grid quarters27 = sim::makeGrid(lab, 27, 24 * 64000, automatic, sim::Mode::Coherent);
    EXPECT_TRUE(quarters27.quarters);
    EXPECT_EQ(quarters27.slicesPerCell, 8u);
    EXPECT_EQ(quarters27.keyBits, 16u + 5);
    EXPECT_EQ(sim::makeGrid(lab, 27, 5120000, automatic, sim::Mode::Coherent).slicesPerCell, 16u);
    EXPECT_EQ(sim::makeGrid(lab, 27, 10240000, automatic, sim::Mode::Coherent).slicesPerCell, 32u);
    const sim::Grid coherent1M = sim::makeGrid(lab, 27, 1000000, automatic, sim::Mode::Coherent);
    EXPECT_TRUE(coherent1M.slices && !coherent1M.quarters);
    EXPECT_EQ(coherent1M.slicesPerCell, 8u);
    for (uint32_t n : {1000000u, 5120000u, 10240000u}) {
        const sim::Grid scattered = sim::makeGrid(lab, 27, n, automatic, sim::Mode::Scattered);
        EXPECT_TRUE(scattered.slices && !scattered.quarters && !scattered.subCells) << n;
        EXPECT_EQ(scattered.keyBits, 19u) << n;
        EXPECT_FALSE(scattered.slicesFromPushConstant) << n;
        if (n == 1000000) continue;
        const sim::Grid coherent = sim::makeGrid(lab, 27, n, automatic, sim::Mode::Coherent);
        EXPECT_TRUE(coherent.slices && coherent.quarters && !coherent.subCells) << n;
        EXPECT_EQ(coherent.keyBits, n == 5120000 ? 22u : 23u) << n;
    }
    // Four candidates a step from 48 boids a row of a cell.
    EXPECT_FALSE(sim::makeGrid(lab, 27, 48 * 64000 - 1, automatic, sim::Mode::Scattered).fourAStep);
    EXPECT_TRUE(sim::makeGrid(lab, 27, 48 * 64000, automatic, sim::Mode::Scattered).fourAStep);
    EXPECT_FALSE(sim::makeGrid(lab, 27, 4 * 48 * 64000 - 1).fourAStep);
    EXPECT_TRUE(sim::makeGrid(lab, 27, 4 * 48 * 64000).fourAStep);
    EXPECT_FALSE(sim::makeGrid(lab, 8, 4 * 48 * 8000 - 1).fourAStep);
    EXPECT_TRUE(sim::makeGrid(lab, 8, 4 * 48 * 8000).fourAStep);
    EXPECT_FALSE(sim::makeGrid(lab, 27, 48 * 64000, sim::SubCells::Off).fourAStep);
    EXPECT_FALSE(sim::makeGrid(lab, 27, 1000000, sim::SubCells::Off).slices);
    EXPECT_TRUE(sim::makeGrid(lab, 27, 100000, sim::SubCells::Slices).slices);
    EXPECT_TRUE(sim::makeGrid(lab, 27, 100000, sim::SubCells::Octants).subCells);
    EXPECT_FALSE(sim::makeGrid(lab, 27, 100000, sim::SubCells::Octants).slices);
    sim::Params tiny = lab;
    tiny.domainHalf = 5; // 2 cells per axis: no fixed image shifts
    for (sim::SubCells sub :
         {sim::SubCells::Auto, sim::SubCells::Octants, sim::SubCells::Slices, sim::SubCells::Quarters}) {
        const sim::Grid g = sim::makeGrid(tiny, 27, 100000, sub);
        EXPECT_FALSE(g.slices || g.quarters || g.subCells) << sim::subCellsName(sub);
    }
}

// Slices a cell asked for: the finest of 8, 16 and 32 up to the request whose sub-keys fit under the
// cap (2^21, or one a boid); grids without slices keep 8 (unused).
TEST(Grid, SlicesAskedForTakeTheFinestThatFits) {
    sim::Params lab; // 40^3 cells with 27, 20^3 with 8
    const sim::SubCells slices = sim::SubCells::Slices, quarters = sim::SubCells::Quarters;
    const sim::Mode coherent = sim::Mode::Coherent;
    for (uint32_t asked : {8u, 16u, 32u}) {
        const sim::Grid g = sim::makeGrid(lab, 27, 1000000, slices, coherent, asked);
        EXPECT_EQ(g.slicesPerCell, asked); // 32 x 64,000 sub-keys fit 2^21
        EXPECT_EQ(g.keyBits, 16u + uint32_t(std::bit_width(asked - 1)));
        EXPECT_EQ(sim::subKeysPerCell(g), asked);
        EXPECT_EQ(sim::subRangeCount(g), asked * 64000 + 1);
    }
    // Quarter rows with 27 cells: 4 x 16 x 64,000 = 4.1M sub-keys fit from 4.1M boids, 4 x 32 from 8.2M.
    EXPECT_EQ(sim::makeGrid(lab, 27, 2000000, quarters, coherent, 32).slicesPerCell, 8u);
    EXPECT_EQ(sim::makeGrid(lab, 27, 4096000, quarters, coherent, 32).slicesPerCell, 16u);
    EXPECT_EQ(sim::makeGrid(lab, 27, 4096000, quarters, coherent, 16).slicesPerCell, 16u);
    EXPECT_EQ(sim::makeGrid(lab, 27, 8192000, quarters, coherent, 32).slicesPerCell, 32u);
    const sim::Grid q8 = sim::makeGrid(lab, 8, 1000000, quarters, coherent, 32);
    EXPECT_EQ(q8.slicesPerCell, 32u);
    EXPECT_EQ(q8.keyBits, 13u + 7);
    EXPECT_EQ(sim::makeGrid(lab, 8, 1000000, quarters, coherent, 8).slicesPerCell, 8u); // not Auto's 16
    EXPECT_EQ(sim::makeGrid(lab, 27, 1000000, sim::SubCells::Off, coherent, 32).slicesPerCell, 8u);
    EXPECT_EQ(sim::makeGrid(lab, 27, 1000000, sim::SubCells::Octants, coherent, 32).slicesPerCell, 8u);
}

TEST(Grid, SlicesAreEighthsOrSixteenthsOfTheCellAlongX) {
    // 40 cells of 5 over [-100, 100): eighths of 0.625.
    EXPECT_EQ(sim::sliceOf(-100.0f, 100.0f, 0.2f, 0, 8), 0u);
    EXPECT_EQ(sim::sliceOf(-99.375f, 100.0f, 0.2f, 0, 8), 1u); // on a boundary: the upper slice
    EXPECT_EQ(sim::sliceOf(std::nextafter(-99.375f, -100.0f), 100.0f, 0.2f, 0, 8), 0u);
    EXPECT_EQ(sim::sliceOf(0.0f, 100.0f, 0.2f, 20, 8), 0u);
    EXPECT_EQ(sim::sliceOf(4.99f, 100.0f, 0.2f, 20, 8), 7u);
    EXPECT_EQ(sim::sliceOf(2.5f, 100.0f, 0.2f, 20, 8), 4u);
    // The clamped upper edge stays in the last slice of the last cell.
    EXPECT_EQ(sim::sliceOf(std::nextafter(100.0f, 0.0f), 100.0f, 0.2f, 39, 8), 7u);
    // Sixteenths (quarter rows with 8 cells): 0.3125 wide here.
    EXPECT_EQ(sim::sliceOf(-99.6875f, 100.0f, 0.2f, 0, 16), 1u);
    EXPECT_EQ(sim::sliceOf(std::nextafter(-99.6875f, -100.0f), 100.0f, 0.2f, 0, 16), 0u);
    EXPECT_EQ(sim::sliceOf(4.99f, 100.0f, 0.2f, 20, 16), 15u);
    EXPECT_EQ(sim::sliceOf(std::nextafter(100.0f, 0.0f), 100.0f, 0.2f, 39, 16), 15u);
}

TEST(SpirvReflection, ReadsBindingsPushConstantsAndLocalSize) {
    const gpu::ShaderReflection naive = gpu::reflectSpirv(gpu::embeddedSpirv("naive"));
    EXPECT_EQ(naive.stage, VK_SHADER_STAGE_COMPUTE_BIT);
    ASSERT_EQ(naive.bindings.size(), 4u);
    for (VkDescriptorType t : naive.bindings) EXPECT_EQ(t, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    EXPECT_EQ(naive.pushConstantSize, sizeof(gpudata::StepConstants));
    EXPECT_EQ(naive.localSizeSpecId[0], 0);

    const gpu::ShaderReflection onesweep = gpu::reflectSpirv(gpu::embeddedSpirv("sort_onesweep"));
    EXPECT_EQ(onesweep.bindings.size(), 7u);
    EXPECT_EQ(onesweep.pushConstantSize, sizeof(gpudata::SortPassConstants));

    const gpu::ShaderReflection box = gpu::reflectSpirv(gpu::embeddedSpirv("box_vert"));
    EXPECT_EQ(box.stage, VK_SHADER_STAGE_VERTEX_BIT);
    EXPECT_TRUE(box.bindings.empty());
    EXPECT_EQ(box.pushConstantSize, sizeof(gpudata::DrawConstants));

    const gpu::ShaderReflection raster = gpu::reflectSpirv(gpu::embeddedSpirv("draw_raster"));
    EXPECT_EQ(raster.stage, VK_SHADER_STAGE_COMPUTE_BIT);
    EXPECT_EQ(raster.bindings.size(), 3u);
    EXPECT_EQ(raster.pushConstantSize, sizeof(gpudata::DrawConstants));
    const gpu::ShaderReflection resolve = gpu::reflectSpirv(gpu::embeddedSpirv("draw_resolve_frag"));
    EXPECT_EQ(resolve.stage, VK_SHADER_STAGE_FRAGMENT_BIT);
    EXPECT_EQ(resolve.bindings.size(), 1u);
    EXPECT_EQ(resolve.pushConstantSize, sizeof(gpudata::DrawConstants));
}

TEST(SpirvReflection, RejectsGarbage) {
    const std::vector<uint32_t> junk = {1, 2, 3, 4, 5, 6};
    EXPECT_THROW(gpu::reflectSpirv(junk), gpu::Error);
    EXPECT_TRUE(gpu::embeddedSpirv("no such shader").empty());
}
