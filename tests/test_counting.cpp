// The counting grid build (sim::GridBuild::Counting) and the exclusive scan it uses, on lavapipe:
// against CPU references, against the radix build bit for bit, and run twice for the same bits.

#include "flock_steps.h"
#include "gpu_test.h"
#include "layouts.h"
#include "reference.h"
#include "search_setups.h"
#include "sim/counting.h"
#include "sim/flock.h"
#include "sort/scan.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace {

using sim::GridBuild;
using sim::Mode;
using sim::Params;
using sim::State;
using test::GpuTest;

constexpr uint32_t poison = 0xabababab;

// ---- The scan -----------------------------------------------------------------------------------

class ScanTest : public GpuTest {
  protected:
    // Scans n random counts (some large enough to wrap) at `stride` into a poisoned buffer, or in
    // place, and checks every output and that nothing else was written.
    void expectScan(const sort::Scanner& scanner, uint32_t n, uint32_t stride, bool inPlace, uint64_t seed) {
        SCOPED_TRACE("n " + std::to_string(n) + " stride " + std::to_string(stride) +
                     (inPlace ? " in place" : ""));
        sim::Random rng(seed);
        std::vector<uint32_t> values(n), expected(n);
        uint32_t sum = 0;
        for (uint32_t i = 0; i < n; ++i) {
            values[i] = i % 97 == 5 ? rng.next32() : rng.next32() % 100;
            expected[i] = sum;
            sum += values[i];
        }
        const size_t outWords = size_t(n) * stride + 5;
        gpu::Buffer in = test::makeBuffer(values);
        gpu::Buffer out = inPlace ? gpu::Buffer{} : test::makePoisoned<uint32_t>(outWords);
        const gpu::Buffer& target = inPlace ? in : out;
        test::runCommands([&](VkCommandBuffer cmd) {
            sort::recordExclusiveScan(cmd, scanner, in, target, n, stride);
            gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                               VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        });
        const std::vector<uint32_t> got = test::readBuffer<uint32_t>(target, inPlace ? n : outWords);
        for (size_t w = 0; w < got.size(); ++w) {
            const bool output = w % stride == 0 && w / stride < n;
            const uint32_t want = output ? expected[w / stride] : poison;
            ASSERT_EQ(got[w], want) << "word " << w << (output ? " (output)" : " (not an output)");
        }
        if (!inPlace) {
            EXPECT_EQ(test::readBuffer<uint32_t>(in, n), values) << "the input changed";
            gpu::destroyBuffer(ctx(), out);
        }
        gpu::destroyBuffer(ctx(), in);
    }
};

// Small chunks (two subgroups of three items an invocation): sizes around the subgroup, the group
// and the chunk, and up to four levels.
TEST_F(ScanTest, MatchesACpuScanAroundEverySizeAndLevel) {
    const uint32_t subgroup = gpu::preferredSubgroupSize(ctx());
    ASSERT_GT(subgroup, 0u);
    for (auto [wg, items] : {std::pair{2 * subgroup, 3u}, std::pair{subgroup, 1u}}) {
        const uint32_t chunk = wg * items;
        const uint32_t capacity = chunk * chunk * chunk + 7;
        sort::Scanner scanner =
            sort::createScanner(ctx(), capacity, {.workgroupSize = wg, .itemsPerInvocation = items});
        ASSERT_EQ(scanner.chunk, chunk);
        std::vector<uint32_t> sizes = {1,
                                       2,
                                       subgroup - 1,
                                       subgroup,
                                       subgroup + 1,
                                       wg + 1,
                                       chunk - 1,
                                       chunk,
                                       chunk + 1,
                                       2 * chunk + 3,
                                       chunk * chunk - 1,
                                       chunk * chunk,
                                       chunk * chunk + 1,
                                       capacity};
        uint64_t seed = 1;
        for (uint32_t n : sizes)
            for (uint32_t stride : {1u, 2u}) expectScan(scanner, n, stride, false, seed++);
        for (uint32_t n : {chunk + 1, chunk * chunk + 1, capacity}) expectScan(scanner, n, 1, true, seed++);
        sort::destroyScanner(ctx(), scanner);
    }
}

// The default shape (groups of many subgroups, whose totals are scanned in several rounds) on the
// key counts of the largest grids, and dispatches split over x and y.
TEST_F(ScanTest, DefaultShapeOnGridSizedInputsAndSplitDispatches) {
    const uint32_t capacity = (1u << 21) + 1;
    sort::Scanner scanner = sort::createScanner(ctx(), capacity);
    for (uint32_t n : {1u, 1023u, 1024u, 1025u, scanner.chunk * 3 + 1, capacity})
        expectScan(scanner, n, n % 2 ? 2 : 1, false, n);
    scanner.program.maxGroupsX = 3;
    expectScan(scanner, scanner.chunk * 20 + 9, 2, false, 99);
    expectScan(scanner, capacity, 1, true, 98);
    sort::destroyScanner(ctx(), scanner);
}

// A group whose pinned subgroup size would need more subgroups than the device allows a group is
// refused before anything is created (validation would report a leaked layout at the end of the run).
TEST_F(ScanTest, AGroupOfMoreSubgroupsThanTheDeviceAllowsIsRefused) {
    const uint32_t subgroup = gpu::preferredSubgroupSize(ctx());
    ASSERT_GT(subgroup, 0u);
    gpu::Context limited = ctx();
    sort::ScanOptions options;
    options.workgroupSize = 2 * subgroup;
    limited.maxComputeWorkgroupSubgroups = 1;
    EXPECT_THROW(sort::createScanner(limited, 1000, options), gpu::Unsupported);
    limited.maxComputeWorkgroupSubgroups = 2;
    sort::Scanner scanner = sort::createScanner(limited, 1000, options);
    expectScan(scanner, 999, 1, false, 97);
    sort::destroyScanner(ctx(), scanner);
}

// ---- The build against a CPU counting sort, and against the radix build -----------------------

// Every boid at the centre of its own cell (cells in a scrambled order), as many as the grid has
// cells or n.
State ownCellState(uint32_t n, const Params& p, uint32_t dim) {
    State s = test::uniformState(n, 61, p);
    const uint32_t cells = dim * dim * dim;
    const float width = 2 * p.domainHalf / float(dim);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t cell = uint32_t((uint64_t(i) * 7919) % cells); // distinct while n <= cells
        const uint32_t xyz[3] = {cell % dim, cell / dim % dim, cell / (dim * dim)};
        for (int a = 0; a < 3; ++a)
            s.data[size_t(i) * 6 + a] = -p.domainHalf + (float(xyz[a]) + 0.5f) * width;
    }
    return s;
}

// Coordinates exactly on cell, half-cell and slice boundaries, and on the faces.
State boundaryState(uint32_t n, const Params& p, uint32_t dim) {
    State s = test::uniformState(n, 62, p);
    sim::Random rng(63);
    const float width = 2 * p.domainHalf / float(dim);
    for (uint32_t i = 0; i < n; ++i)
        for (int a = 0; a < 3; ++a) {
            const float step = float(rng.next32() % (32 * dim)) / 32.0f;
            s.data[size_t(i) * 6 + a] = rng.next32() % 5 == 0 ? -p.domainHalf : -p.domainHalf + step * width;
        }
    return s;
}

struct BuildResult {
    std::vector<uint32_t> keys, sortedKeys, sortedSlots, keyStarts, ids;
    std::vector<float> pos, vel;
    uint32_t current = 0;
};

class CountingBuildTest : public GpuTest {
  protected:
    // The grid-index pass, then the build, on a flock holding `s`; every output poisoned first.
    BuildResult build(sim::Flock& f, const State& s, const Params& p, const sim::Grid& grid, GridBuild how,
                      bool reorder) {
        const uint32_t n = s.count();
        sim::uploadState(ctx(), f, s);
        sim::prepareGrid(ctx(), f, grid, reorder ? Mode::Coherent : Mode::Scattered, how);
        for (gpu::Buffer* b :
             {&f.cellKeys, &f.slotValues, &f.sortedKeys, &f.sortedSlots, &f.keyStarts, &f.pos[1], &f.vel[1],
              &f.ids[1], &f.counting.keyCounts, &f.counting.scatteredSlots})
            if (b->buffer) gpu::fillBuffer(ctx(), *b, poison);
        const gpudata::StepConstants c = sim::stepConstants(p, grid, n);
        test::runCommands([&](VkCommandBuffer cmd) {
            sim::recordGridIndex(cmd, f, c, nullptr);
            if (how == GridBuild::Counting) {
                sim::recordCountingBuild(cmd, f, c, grid, reorder, nullptr);
            } else {
                sim::recordSortPairs(cmd, f, grid, nullptr);
                sim::recordKeyStarts(cmd, f, c, grid, reorder, nullptr);
            }
        });
        BuildResult r;
        r.keys = test::readBuffer<uint32_t>(f.cellKeys, n);
        r.sortedKeys = test::readBuffer<uint32_t>(f.sortedKeys, n);
        r.sortedSlots = test::readBuffer<uint32_t>(f.sortedSlots, n);
        r.keyStarts = test::readBuffer<uint32_t>(f.keyStarts, size_t(sim::keyCount(grid)) + 1);
        r.current = f.current;
        r.pos = test::readBuffer<float>(f.pos[f.current], 4 * size_t(n));
        r.vel = test::readBuffer<float>(f.vel[f.current], 4 * size_t(n));
        r.ids = test::readBuffer<uint32_t>(f.ids[f.idsCurrent], n);
        return r;
    }

    // The counting build's outputs against a stable counting sort of its keys on the CPU.
    void expectCountingSort(const BuildResult& r, const State& s, const sim::Grid& grid, bool reorder) {
        const uint32_t n = s.count(), total = sim::keyCount(grid);
        std::vector<uint32_t> counts(total + 1, 0), starts(total + 1, 0);
        for (uint32_t k : r.keys) {
            ASSERT_LT(k, total);
            counts[k]++;
        }
        std::exclusive_scan(counts.begin(), counts.end(), starts.begin(), 0u);
        std::vector<uint32_t> slots(n), keys(n), place = starts;
        for (uint32_t i = 0; i < n; ++i) { // slot order: stable
            slots[place[r.keys[i]]] = i;
            keys[place[r.keys[i]]++] = r.keys[i];
        }
        EXPECT_EQ(r.sortedKeys, keys);
        EXPECT_EQ(r.sortedSlots, slots);
        EXPECT_EQ(r.keyStarts, starts); // every key's, and the end
        ASSERT_EQ(r.current, reorder ? 1u : 0u);
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t from = reorder ? slots[k] : k;
            ASSERT_EQ(r.ids[k], from);
            for (int a = 0; a < 3; ++a) {
                ASSERT_EQ(r.pos[4 * size_t(k) + a], s.data[size_t(from) * 6 + a]);
                ASSERT_EQ(r.vel[4 * size_t(k) + a], s.data[size_t(from) * 6 + 3 + a]);
            }
        }
    }
};

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Every key layout (whole cells, rows a full, half and quarter cell high) with 27 and 8 cells, on
// adversarial layouts and sizes off the group and subgroup sizes.
TEST_F(CountingBuildTest, MatchesACountingSortAndTheRadixBuild) {
    struct Shape {
        sim::Rows rows;
        sim::CellWidth width;
    };
    using sim::CellWidth;
    const Shape shapes[] = {
        {sim::Rows::Cells, CellWidth::Reach},         {sim::Rows::OnePerCell, CellWidth::Reach},
        {sim::Rows::TwoPerCell, CellWidth::Reach},    {sim::Rows::Cells, CellWidth::TwoReach},
        {sim::Rows::OnePerCell, CellWidth::TwoReach}, {sim::Rows::FourPerCell, CellWidth::TwoReach}};
    Params p;
    p.domainHalf = 20; // 8 cells per axis of 5 (27 cells) or 10 (8 cells, in a domain twice as wide)
    const uint32_t dim = 8;
    struct Layout {
        const char* name;
        State state;
    };
    const Layout layouts[] = {
        {"one cell", test::boxState(1000, 51, p, 2.2f, 0.3f)},
        {"own cells", ownCellState(dim * dim * dim - 3, p, dim)},
        {"clusters", test::clusteredState(3001, 52, p, 3, 0.8f)},
        {"faces", test::edgeState(2047, 53, p)},
        {"boundaries", boundaryState(1999, p, dim)},
        {"one boid", test::uniformState(1, 54, p)},
        {"129 boids", test::uniformState(129, 55, p)},
    };
    for (const Layout& layout : layouts) {
        sim::Flock f = sim::createFlock(ctx(), layout.state.count());
        for (const auto& [rows, width] : shapes)
            for (bool reorder : {false, true}) {
                Params q = p;
                if (width == sim::CellWidth::TwoReach) q.domainHalf = 2 * p.domainHalf;
                State s = layout.state;
                if (width == sim::CellWidth::TwoReach)
                    for (size_t i = 0; i < s.data.size(); i += 6)
                        for (int a = 0; a < 3; ++a) s.data[i + a] *= 2; // the same cells, twice as wide
                const sim::Grid grid = sim::makeGrid(q, width, s.count(), rows);
                SCOPED_TRACE(std::string(layout.name) + ", " + sim::describeRows(grid) + ", " +
                             sim::cellWidthName(width) + " wide" + (reorder ? ", reorder" : ""));
                ASSERT_EQ(grid.dim, dim);
                ASSERT_EQ(grid.slicesPerCell, rows == sim::Rows::Cells ? 1u : 8u);
                const BuildResult counting = build(f, s, q, grid, GridBuild::Counting, reorder);
                expectCountingSort(counting, s, grid, reorder);
                const BuildResult radix = build(f, s, q, grid, GridBuild::Radix, reorder);
                EXPECT_EQ(counting.sortedKeys, radix.sortedKeys);
                EXPECT_EQ(counting.sortedSlots, radix.sortedSlots);
                EXPECT_EQ(counting.keyStarts, radix.keyStarts);
                EXPECT_EQ(counting.ids, radix.ids);
                EXPECT_TRUE(sameBits(counting.pos, radix.pos) && sameBits(counting.vel, radix.vel));
            }
        sim::destroyFlock(ctx(), f);
    }
}

// ---- Whole steps ---------------------------------------------------------------------------------

class CountingStepTest : public GpuTest {
  protected:
    sim::FlockOptions flock = {.float16Filter = false};

    // `steps` steps of `mode` on a fresh flock with the given build; the raw state buffers after them.
    struct Run {
        State state;
        std::vector<float> pos, vel;
        std::vector<uint32_t> ids;
    };
    Run steps(const State& in, const Params& p, Mode mode, sim::CellWidth width, sim::Rows rows,
              GridBuild how, int count, uint32_t maxGroupsX = 0,
              sim::CellOrder order = sim::CellOrder::Linear) {
        const sim::Grid grid = sim::makeGrid(p, width, in.count(), rows, order);
        const test::Steps run = {
            .mode = mode, .build = how, .count = count, .flock = flock, .maxGroupsX = maxGroupsX};
        Run r;
        r.state = test::stepFlock(ctx(), in, p, grid, run, [&](const sim::Flock& f) {
            r.pos = test::readBuffer<float>(f.pos[f.current], 4 * size_t(f.count));
            r.vel = test::readBuffer<float>(f.vel[f.current], 4 * size_t(f.count));
            r.ids = test::readBuffer<uint32_t>(f.ids[f.idsCurrent], f.count);
        });
        return r;
    }

    void expectMatchesReference(const State& in, const Params& p, Mode mode, sim::CellWidth width,
                                sim::Rows rows, const std::string& what) {
        SCOPED_TRACE(what + " " + sim::modeName(mode) + " " + sim::cellWidthName(width) + " wide " +
                     sim::rowsName(rows));
        const test::ReferenceStep ref = test::referenceStep(in, p, sim::usesPackedVelocity(mode, flock));
        const Run counting = steps(in, p, mode, width, rows, GridBuild::Counting, 1);
        const test::Comparison c = test::compareStates(counting.state, ref, p);
        EXPECT_EQ(c.mismatches, 0u) << c.firstMismatch;
        EXPECT_LE(c.ambiguous, std::max(2u, in.count() / 50));
        EXPECT_GT(std::accumulate(ref.neighbours.begin(), ref.neighbours.end(), uint64_t(0)), 0u);
    }
};

TEST_F(CountingStepTest, GridStepsMatchTheReference) {
    Params p;
    p.domainHalf = 12.5f; // 5 cells per axis
    for (Mode mode : {Mode::Scattered, Mode::Coherent})
        for (sim::CellWidth width : {sim::CellWidth::TwoReach, sim::CellWidth::Reach}) {
            Params q = p;
            if (width == sim::CellWidth::TwoReach) q.domainHalf = 25.0f;
            for (sim::Rows rows : {sim::Rows::Cells, sim::Rows::OnePerCell, sim::Rows::TwoPerCell}) {
                expectMatchesReference(test::uniformState(2999, 71, q), q, mode, width, rows, "uniform");
                expectMatchesReference(test::clusteredState(1500, 72, q, 3, 1.5f), q, mode, width, rows,
                                       "clusters");
                expectMatchesReference(test::edgeState(1001, 73, q), q, mode, width, rows, "faces");
            }
            expectMatchesReference(test::boxState(600, 74, q, 1.0f, 0.8f), q, mode, width, sim::Rows::Cells,
                                   "one cell");
        }
}

// Both builds order boids within a key by slot: the radix sort is stable over pairs that arrive in
// slot order (grid_index.comp and the search write pair i for slot i), in both grid modes. So
// every step is the same, bit for bit: every search pipeline on every grid shape, Morton's included.
TEST_F(CountingStepTest, EverySearchPipelineStepsAsTheRadixBuildBitForBit) {
    for (const sim::SearchVariant& v : sim::searchVariants())
        for (const test::GridShape& shape : test::gridShapes()) {
            SCOPED_TRACE(sim::searchVariantName(v) + ", " + shape.name());
            Params p = v.sharedRadii ? Params{} : test::distinctRadii(Params{});
            p.domainHalf = shape.domainHalf;
            flock.packedVelocity = v.packedVelocity;
            const State in = test::clusteredState(3000, 193, p, 4, 6.0f);
            const auto run = [&](GridBuild how) {
                return steps(in, p, v.mode, shape.width, shape.rows, how, 3, 0, shape.cellOrder);
            };
            const Run counting = run(GridBuild::Counting), radix = run(GridBuild::Radix);
            EXPECT_TRUE(sameBits(counting.state.data, radix.state.data));
            EXPECT_TRUE(sameBits(counting.pos, radix.pos) && sameBits(counting.vel, radix.vel));
            EXPECT_EQ(counting.ids, radix.ids);
        }
}

// Crowded cells, where a subgroup's runs meet other subgroups' on the same counters: the atomics
// take their turns in any order, the rank undoes it. Dispatches split over x and y in one run.
TEST_F(CountingStepTest, TwoRunsGiveTheSameBits) {
    Params p;
    p.domainHalf = 12.5f;
    const State in = test::clusteredState(3001, 75, p, 2, 2.0f);
    for (Mode mode : {Mode::Scattered, Mode::Coherent})
        for (sim::Rows rows : {sim::Rows::Cells, sim::Rows::TwoPerCell}) {
            SCOPED_TRACE(std::string(sim::modeName(mode)) + " " + sim::rowsName(rows));
            const Run first = steps(in, p, mode, sim::CellWidth::Reach, rows, GridBuild::Counting, 4);
            const Run second = steps(in, p, mode, sim::CellWidth::Reach, rows, GridBuild::Counting, 4, 3);
            EXPECT_TRUE(sameBits(first.pos, second.pos) && sameBits(first.vel, second.vel));
            EXPECT_EQ(first.ids, second.ids);
            EXPECT_TRUE(sameBits(first.state.data, second.state.data));
        }
}

// Switching builds between steps (the panel does it live) keeps the steps the same.
TEST_F(CountingStepTest, SwitchingBuildsBetweenSteps) {
    Params p;
    p.domainHalf = 12.5f;
    const State in = test::uniformState(2500, 76, p);
    for (Mode mode : {Mode::Scattered, Mode::Coherent}) {
        SCOPED_TRACE(sim::modeName(mode));
        sim::Flock f = sim::createFlock(ctx(), in.count());
        sim::uploadState(ctx(), f, in);
        const sim::Grid grid = sim::makeGrid(p, sim::CellWidth::Reach, f.count, sim::Rows::OnePerCell);
        for (GridBuild how : {GridBuild::Counting, GridBuild::Radix, GridBuild::Counting, GridBuild::Radix}) {
            sim::prepareGrid(ctx(), f, grid, mode, how);
            test::runCommands(
                [&](VkCommandBuffer cmd) { sim::recordStep(cmd, f, p, mode, grid, how, nullptr); });
        }
        const State mixed = sim::downloadState(ctx(), f);
        sim::destroyFlock(ctx(), f);
        const Run radix =
            steps(in, p, mode, sim::CellWidth::Reach, sim::Rows::OnePerCell, GridBuild::Radix, 4);
        EXPECT_TRUE(sameBits(mixed.data, radix.state.data));
    }
}

} // namespace
