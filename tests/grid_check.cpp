#include "grid_check.h"

#include "gpu_test.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace test {

uint32_t cpuGridKey(const float* position, const sim::Grid& grid, const gpudata::StepConstants& c,
                    uint32_t& cell) {
    uint32_t xyz[3];
    for (int a = 0; a < 3; ++a)
        xyz[a] = sim::cellCoordinate(position[a], c.domainHalf, c.invCellWidth, grid.dim);
    cell = sim::cellKey(xyz[0], xyz[1], xyz[2], grid.dim, grid.cellOrder);
    const uint32_t S = grid.slicesPerCell, R = grid.rowsPerCell;
    const uint32_t slice = sim::partOf(position[0], c.domainHalf, c.invCellWidth, xyz[0], S);
    if (grid.cellOrder == sim::CellOrder::Morton) return cell * S + slice;
    const uint32_t rowY = R * xyz[1] + sim::partOf(position[1], c.domainHalf, c.invCellWidth, xyz[1], R);
    const uint32_t rowZ = R * xyz[2] + sim::partOf(position[2], c.domainHalf, c.invCellWidth, xyz[2], R);
    return ((rowZ * R * grid.dim + rowY) * grid.dim + xyz[0]) * S + slice;
}

void expectKeyStarts(const sim::Flock& f, const sim::Grid& grid, const std::vector<uint32_t>& sortedKeys) {
    const uint32_t total = sim::keyCount(grid);
    const std::vector<uint32_t> got = readBuffer<uint32_t>(f.keyStarts, total + 1);
    for (uint32_t key = 0; key <= total; ++key) {
        const auto first = std::lower_bound(sortedKeys.begin(), sortedKeys.end(), key);
        ASSERT_EQ(got[key], uint32_t(first - sortedKeys.begin())) << "key " << key;
    }
}

SortedCells checkGridPasses(const gpu::Context& ctx, const sim::State& s, const sim::Params& p,
                            const sim::Grid& grid) {
    const uint32_t n = s.count();
    const gpudata::StepConstants c = sim::stepConstants(p, grid, n);
    sim::Flock f = sim::createFlock(ctx, n);
    sim::uploadState(ctx, f, s);
    sim::prepareGrid(ctx, f, grid, sim::Mode::Coherent);
    for (gpu::Buffer* b : {&f.cellKeys, &f.slotValues, &f.sortedKeys, &f.sortedSlots, &f.keyStarts, &f.pos[1],
                           &f.vel[1], &f.ids[1]})
        gpu::fillBuffer(ctx, *b, 0xabababab);
    runCommands([&](VkCommandBuffer cmd) {
        sim::recordGridIndex(cmd, f, c, nullptr);
        sim::recordSortPairs(cmd, f, grid, nullptr);
        sim::recordKeyStarts(cmd, f, c, grid, true, nullptr);
    });

    // The key of every boid, and each key cell's boids.
    std::vector<uint32_t> keys(n);
    SortedCells cpu{std::vector<uint32_t>(n), std::vector<uint32_t>(grid.keyCells, 0)};
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t cell = 0;
        keys[i] = cpuGridKey(&s.data[size_t(i) * 6], grid, c, cell);
        cpu.boidsIn[cell]++;
    }
    EXPECT_EQ(readBuffer<uint32_t>(f.cellKeys, n), keys);
    std::vector<uint32_t> slots(n);
    std::iota(slots.begin(), slots.end(), 0);
    EXPECT_EQ(readBuffer<uint32_t>(f.slotValues, n), slots);

    // Sorted pairs: the stable order by key.
    std::stable_sort(slots.begin(), slots.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
    for (uint32_t k = 0; k < n; ++k) cpu.sortedKeys[k] = keys[slots[k]];
    EXPECT_EQ(readBuffer<uint32_t>(f.sortedKeys, n), cpu.sortedKeys);
    EXPECT_EQ(readBuffer<uint32_t>(f.sortedSlots, n), slots);

    expectKeyStarts(f, grid, cpu.sortedKeys);
    EXPECT_GT(std::count(cpu.boidsIn.begin(), cpu.boidsIn.end(), 0u), 0) << "no empty cells to check";
    if (::testing::Test::HasFatalFailure()) return cpu;

    // Grid statistics over the cells, not the key range.
    gpu::Buffer stats =
        gpu::createBuffer(ctx, sizeof(gpudata::GridStats), gpu::storageUsage, gpu::MemoryUse::Readback);
    runCommands([&](VkCommandBuffer cmd) { sim::recordGridStats(cmd, f, c, stats, nullptr); });
    const auto* got = static_cast<const gpudata::GridStats*>(stats.mapped);
    EXPECT_EQ(got->occupiedCells, uint32_t(std::count_if(cpu.boidsIn.begin(), cpu.boidsIn.end(),
                                                         [](uint32_t b) { return b > 0; })));
    EXPECT_EQ(got->largestCell, *std::max_element(cpu.boidsIn.begin(), cpu.boidsIn.end()));
    gpu::destroyBuffer(ctx, stats);

    // The state gathered into key order, ids with it.
    EXPECT_EQ(f.current, 1u);
    const std::vector<float> pos = readBuffer<float>(f.pos[1], 4 * size_t(n));
    const std::vector<float> vel = readBuffer<float>(f.vel[1], 4 * size_t(n));
    const std::vector<uint32_t> ids = readBuffer<uint32_t>(f.ids[1], n);
    for (uint32_t k = 0; k < n; ++k) {
        EXPECT_EQ(ids[k], slots[k]);
        for (int a = 0; a < 3; ++a) {
            EXPECT_EQ(pos[4 * size_t(k) + a], s.data[size_t(slots[k]) * 6 + a]);
            EXPECT_EQ(vel[4 * size_t(k) + a], s.data[size_t(slots[k]) * 6 + 3 + a]);
        }
        // The position's w: the packed velocity (sim_types.h).
        EXPECT_EQ(std::bit_cast<uint32_t>(pos[4 * size_t(k) + 3]),
                  packVelocity(&s.data[size_t(slots[k]) * 6 + 3], p.maxSpeed))
            << "sorted position " << k;
        if (::testing::Test::HasFailure()) break;
    }

    // The search writes the next step's pairs: the key of each new position, and its slot.
    for (gpu::Buffer* b : {&f.cellKeys, &f.slotValues}) gpu::fillBuffer(ctx, *b, 0xabababab);
    runCommands([&](VkCommandBuffer cmd) {
        sim::recordGridSearch(cmd, f, c, sim::searchVariant(sim::Mode::Coherent, p, f.options.packedVelocity),
                              nullptr);
        gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    });
    EXPECT_EQ(f.current, 0u);
    const std::vector<float> stepped = readBuffer<float>(f.pos[0], 4 * size_t(n));
    std::vector<uint32_t> nextKeys(n);
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t cell = 0;
        nextKeys[k] = cpuGridKey(&stepped[4 * size_t(k)], grid, c, cell);
    }
    EXPECT_EQ(readBuffer<uint32_t>(f.cellKeys, n), nextKeys);
    std::iota(slots.begin(), slots.end(), 0);
    EXPECT_EQ(readBuffer<uint32_t>(f.slotValues, n), slots);
    sim::destroyFlock(ctx, f);
    return cpu;
}

std::vector<sim::State> stepsReusingPairsAndNot(const gpu::Context& ctx, const sim::State& in,
                                                const sim::Params& p, const sim::Grid& grid, sim::Mode mode) {
    std::vector<sim::State> results;
    for (bool reuse : {true, false}) {
        sim::Flock f = sim::createFlock(ctx, in.count());
        sim::uploadState(ctx, f, in);
        sim::prepareGrid(ctx, f, grid, mode);
        for (int step = 0; step < 3; ++step) {
            if (!reuse) f.keysCurrent = false;
            runCommands([&](VkCommandBuffer cmd) {
                sim::recordStep(cmd, f, p, mode, grid, sim::GridBuild::Radix, nullptr);
            });
            EXPECT_TRUE(f.keysCurrent);
        }
        results.push_back(sim::downloadState(ctx, f));
        sim::destroyFlock(ctx, f);
    }
    return results;
}

void expectSpoiledStartsChangeTheStep(const gpu::Context& ctx, const sim::State& in,
                                      const test::ReferenceStep& ref, const sim::Params& p,
                                      const sim::Grid& grid, sim::Mode mode) {
    for (bool spoil : {false, true}) {
        SCOPED_TRACE(spoil ? "spoiled" : "as written");
        sim::Flock f = sim::createFlock(ctx, in.count());
        sim::uploadState(ctx, f, in);
        sim::prepareGrid(ctx, f, grid, mode);
        const gpudata::StepConstants c = sim::stepConstants(p, grid, f.count);
        runCommands([&](VkCommandBuffer cmd) {
            sim::recordGridIndex(cmd, f, c, nullptr);
            sim::recordSortPairs(cmd, f, grid, nullptr);
            sim::recordKeyStarts(cmd, f, c, grid, mode == sim::Mode::Coherent, nullptr);
            if (spoil) { // every key then starts at slot 0
                gpu::computeToTransferBarrier(cmd);
                vkCmdFillBuffer(cmd, f.keyStarts.buffer, 0, VK_WHOLE_SIZE, 0);
                gpu::fillToComputeBarrier(cmd);
            }
            sim::recordGridSearch(cmd, f, c, sim::searchVariant(mode, p, f.options.packedVelocity), nullptr);
            gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                               VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        });
        const Comparison cmp = compareStates(sim::downloadState(ctx, f), ref, p);
        if (spoil)
            EXPECT_GT(cmp.mismatches, in.count() / 10);
        else
            EXPECT_EQ(cmp.mismatches, 0u) << cmp.firstMismatch;
        sim::destroyFlock(ctx, f);
    }
}

} // namespace test
