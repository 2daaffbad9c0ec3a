// The radix sort against std::stable_sort of the pairs by masked key, on lavapipe.

#include "sort_test.h"

namespace {

using test::Layout;
using test::makeKeys;
using test::referenceSort;
using test::SortAlgorithmTest;
using test::Sorted;
using test::SortTest;

TEST_F(SortTest, PassCountComesFromTheKeyBits) {
    EXPECT_EQ(sort::sortPassCount(1), 1u);
    EXPECT_EQ(sort::sortPassCount(8), 1u);
    EXPECT_EQ(sort::sortPassCount(13), 2u);
    EXPECT_EQ(sort::sortPassCount(21), 3u); // a 128^3 grid: 3 passes, not 4
    EXPECT_EQ(sort::sortPassCount(24), 3u);
    EXPECT_EQ(sort::sortPassCount(32), 4u);
}

// No pairs: the sort records nothing, so outputs poisoned before it stay poisoned.
TEST_P(SortAlgorithmTest, EmptyInputRecordsNothing) {
    gpu::Buffer keysIn = test::makeBuffer(std::vector<uint32_t>{7}),
                valuesIn = test::makeBuffer(std::vector<uint32_t>{9});
    gpu::Buffer keysOut = test::makePoisoned<uint32_t>(4), valuesOut = test::makePoisoned<uint32_t>(4);
    sort::Sorter sorter = sort::createSorter(ctx(), 1);
    test::runCommands([&](VkCommandBuffer cmd) {
        sort::recordSort(cmd, sorter, keysIn, valuesIn, keysOut, valuesOut, 0, 21, GetParam());
    });
    EXPECT_EQ(test::readBuffer<uint32_t>(keysOut, 4), std::vector<uint32_t>(4, 0xababababu));
    EXPECT_EQ(test::readBuffer<uint32_t>(valuesOut, 4), std::vector<uint32_t>(4, 0xababababu));
    sort::destroySorter(ctx(), sorter);
    for (gpu::Buffer* b : {&keysIn, &valuesIn, &keysOut, &valuesOut}) gpu::destroyBuffer(ctx(), *b);
}

TEST_P(SortAlgorithmTest, SizesAroundSubgroupWorkgroupAndTile) {
    sort::Sorter probe = sort::createSorter(ctx(), 1);
    const uint32_t s = probe.subgroupSize, wg = probe.workgroupSize, tile = probe.tileSize;
    sort::destroySorter(ctx(), probe);
    for (uint32_t n :
         {1u, 2u, 7u, s - 1, s + 1, wg - 1, wg + 1, tile - 1, tile, tile + 1, 2 * tile + 3, 65537u})
        for (uint32_t bits : {1u, 4u, 8u, 13u, 21u, 24u, 32u}) check(n, bits, Layout::Uniform, n * 7 + bits);
}

TEST_P(SortAlgorithmTest, AdversarialLayouts) {
    for (Layout layout : {Layout::AllEqual, Layout::Sorted, Layout::Reversed, Layout::FewDistinct,
                          Layout::TopBitOnly, Layout::HighGarbage})
        for (uint32_t bits : {1u, 8u, 13u, 21u, 32u}) check(20011, bits, layout, bits);
}

TEST_P(SortAlgorithmTest, SeveralHundredThousandPairs) {
    check(300007, 21, Layout::Uniform, 3);
    check(300007, 32, Layout::Uniform, 4);
    check(300007, 13, Layout::FewDistinct, 5);
}

// Small tiles and no waiting at all (spin limit 0): every look-back takes the fallback path and
// counts each predecessor tile itself, which must give the same order.
TEST_F(SortTest, ManySmallTilesWithImpatientLookback) {
    const sort::SortOptions options{.keysPerThread = 1, .spinLimit = 0};
    for (uint32_t bits : {4u, 21u, 32u}) check(50003, bits, Layout::Uniform, bits, options);
    check(50003, 21, Layout::Sorted, 9, options);
}

TEST_F(SortTest, LookbackOneTileAtATime) {
    const sort::SortOptions options{.keysPerThread = 2, .lookbackWindow = 1};
    for (uint32_t bits : {8u, 21u}) check(40009, bits, Layout::Uniform, bits, options);
}

// The widest window, over more tiles than it spans and fewer (tiles 1 to 15 read past tile 0).
TEST_F(SortTest, LookbackSixteenTilesAtATime) {
    const sort::SortOptions options{.keysPerThread = 2, .lookbackWindow = 16};
    for (uint32_t bits : {8u, 21u}) check(40009, bits, Layout::Uniform, bits, options);
    check(40009, 21, Layout::FewDistinct, 7, options);
    check(3001, 13, Layout::Reversed, 8, options);
}

// The sizing mirrors the pass's shared declarations exactly (1,024 x 10 fits NVIDIA's 48 KB by 884
// bytes): the largest tile it admits must stay within the device's limit (validation checks the
// pipeline) and sort correctly. The search starts from a tile that alone overflows shared memory: up
// to 256 / subgroup size keys an invocation, the per-subgroup counters that share the tile's array are
// the larger (on lavapipe at subgroup 4, groups of 64 admit 99 keys an invocation). It comes down,
// as a refusal is cheap and an admitted shape compiles its pipelines.
TEST_P(SortAlgorithmTest, LargestTileTheSharedMemoryAdmits) {
    sort::Sorter probe = sort::createSorter(ctx(), 1);
    const uint32_t wg = probe.workgroupSize, defaultKeys = probe.keysPerThread;
    sort::destroySorter(ctx(), probe);
    const auto admits = [&](uint32_t keysPerThread) {
        try {
            sort::Sorter s =
                sort::createSorter(ctx(), 1, {.workgroupSize = wg, .keysPerThread = keysPerThread});
            sort::destroySorter(ctx(), s);
            return true;
        } catch (const gpu::Unsupported&) { // createSorter refuses an explicit shape that does not fit
            return false;
        }
    };
    uint32_t largest = ctx().properties.limits.maxComputeSharedMemorySize / (4 * wg) + 1;
    ASSERT_FALSE(admits(largest)) << "a tile of " << wg * largest << " keys, more than shared memory holds";
    do --largest;
    while (largest > defaultKeys && !admits(largest));
    check(2 * wg * largest + 5, 21, Layout::Uniform, 11, {.workgroupSize = wg, .keysPerThread = largest});
}

TEST_P(SortAlgorithmTest, SmallestWorkgroup) {
    const sort::SortOptions options{.workgroupSize = 64, .keysPerThread = 3};
    for (uint32_t bits : {8u, 21u}) check(70001, bits, Layout::Uniform, bits, options);
}

// Five subgroups a group, a count that is not a power of two: the scans over subgroups' counts and
// totals must not assume one.
TEST_P(SortAlgorithmTest, FiveSubgroupsAGroup) {
    sort::Sorter probe = sort::createSorter(ctx(), 1);
    const sort::SortOptions options{.workgroupSize = 5 * probe.subgroupSize, .keysPerThread = 3};
    sort::destroySorter(ctx(), probe);
    for (uint32_t bits : {8u, 21u}) check(30011, bits, Layout::Uniform, bits, options);
    check(30011, 13, Layout::FewDistinct, 5, options);
}

TEST_P(SortAlgorithmTest, DispatchesSplitOverTwoDimensions) {
    maxGroupsX = 7; // e.g. 33 tiles become 7 x 5 = 35 groups: the 2 spare groups must do nothing
    const sort::SortOptions options{.keysPerThread = 1};
    for (uint32_t bits : {8u, 21u, 32u}) check(20011, bits, Layout::Uniform, bits, options);
    check(20011, 21, Layout::Sorted, 5, options);
}

// Look-back windows of 1 and 3 over four tiles (3 reads past tile 0 from tile 1 and 2), with the
// usual spin limit and with none (every wait then falls back to counting the stalled tile itself).
TEST_F(SortTest, LookbackWindowsWithAndWithoutWaiting) {
    sort::Sorter probe = sort::createSorter(ctx(), 1);
    const uint32_t n = 3 * probe.tileSize + 17;
    sort::destroySorter(ctx(), probe);
    const std::pair<uint32_t, uint32_t> windowAndBits[] = {{1, 4}, {3, 13}, {1, 21}, {3, 32}};
    for (uint32_t spinLimit : {4096u, 0u})
        for (const auto& [window, bits] : windowAndBits) {
            SCOPED_TRACE(testing::Message() << "spin limit " << spinLimit << ", window " << window);
            check(n, bits, Layout::Uniform, bits, {.lookbackWindow = window, .spinLimit = spinLimit});
        }
}

// With the default shape, sorts from narrowGroupsFrom pairs take groups half as wide, two of which must
// fit the per-group shared-memory limit (lavapipe: 64 x 15 beside 128 x 15), in either algorithm.
// Each shape sorts.
// OneSorterSortsAgainAndAgain sorts just below and at the threshold with one sorter.
TEST_P(SortAlgorithmTest, NarrowGroupsFromTheirThreshold) {
    const sort::SortOptions options{.narrowGroupsFrom = 10007, .algorithm = algorithm};
    sort::Sorter probe = sort::createSorter(ctx(), 30011, options);
    ASSERT_NE(probe.onesweepNarrow.pipeline, VK_NULL_HANDLE) << "two narrow groups fit this device";
    // Reduce-then-scan's pipelines only where its sorts may take it (SortOptions::reduceThenScan).
    const bool reduceThenScan = algorithm == sort::SortAlgorithm::ReduceThenScan;
    ASSERT_EQ(probe.upsweepNarrow.pipeline != VK_NULL_HANDLE, reduceThenScan);
    ASSERT_EQ(probe.downsweepNarrow.pipeline != VK_NULL_HANDLE, reduceThenScan);
    ASSERT_EQ(probe.upsweep.pipeline != VK_NULL_HANDLE, reduceThenScan);
    EXPECT_EQ(probe.narrowFrom, 10007u);
    EXPECT_EQ(sort::tileSizeFor(probe, 10006), probe.tileSize);
    EXPECT_EQ(sort::tileSizeFor(probe, 10007), probe.tileSize / 2);
    const uint32_t wg = probe.workgroupSize;
    sort::destroySorter(ctx(), probe);
    // A capacity below the threshold builds no second pipeline.
    sort::Sorter below = sort::createSorter(ctx(), 10006, options);
    EXPECT_EQ(below.onesweepNarrow.pipeline, VK_NULL_HANDLE);
    EXPECT_EQ(below.downsweepNarrow.pipeline, VK_NULL_HANDLE);
    EXPECT_EQ(below.narrowFrom, UINT32_MAX);
    sort::destroySorter(ctx(), below);
    // An explicit shape is kept as asked at every size.
    for (const sort::SortOptions& shape :
         {sort::SortOptions{.keysPerThread = 2, .narrowGroupsFrom = 10007},
          sort::SortOptions{.workgroupSize = wg, .narrowGroupsFrom = 10007}}) {
        sort::Sorter asked = sort::createSorter(ctx(), 30011, shape);
        EXPECT_EQ(asked.narrowFrom, UINT32_MAX);
        sort::destroySorter(ctx(), asked);
    }

    for (uint32_t n : {10006u, 10007u, 30011u})
        for (uint32_t bits : {8u, 21u, 32u}) check(n, bits, Layout::Uniform, n + bits, options);
    check(30011, 13, Layout::FewDistinct, 3, options);
    maxGroupsX = 7; // spare groups in the narrow groups' passes too
    check(30011, 21, Layout::Reversed, 4, options);
    maxGroupsX = 0;
}

// One sorter sorts pairs of several sizes and widths (1 to 4 passes) one after another, in one
// command buffer and in separate submissions, with dispatches split over x and y (spare groups claim
// tiles too) and without: each sort must match, whatever the sorts before it left in the scratch.
// With narrow groups from 10,007 pairs, the sorts switch between the two shapes and their tile
// counts.
TEST_P(SortAlgorithmTest, OneSorterSortsAgainAndAgain) {
    const std::pair<uint32_t, uint32_t> sizeAndBits[] = {{30011, 21}, {5, 8},      {20011, 32},
                                                         {1, 1},      {10006, 21}, {10007, 8},
                                                         {30011, 13}, {777, 21},   {30011, 32}};
    for (const sort::SortOptions& options :
         {sort::SortOptions{.keysPerThread = 1, .algorithm = algorithm},
          sort::SortOptions{.narrowGroupsFrom = 10007, .algorithm = algorithm}})
        for (uint32_t groupsX : {0u, 7u})
            for (bool oneBuffer : {true, false}) {
                SCOPED_TRACE(testing::Message()
                             << "groups per row " << groupsX << (oneBuffer ? ", one" : ", separate")
                             << " command buffer" << (oneBuffer ? "" : "s") << ", narrow groups from "
                             << options.narrowGroupsFrom);
                sort::Sorter sorter = sort::createSorter(ctx(), 30011, options);
                if (groupsX) setMaxGroupsX(sorter, groupsX);
                struct Run {
                    std::vector<uint32_t> keys, values;
                    gpu::Buffer keysIn, valuesIn, keysOut, valuesOut;
                };
                std::vector<Run> runs;
                for (const auto& [n, bits] : sizeAndBits) {
                    Run r;
                    r.keys = makeKeys(n, bits, Layout::HighGarbage, n + bits);
                    r.values.resize(n);
                    std::iota(r.values.begin(), r.values.end(), 0);
                    r.keysIn = test::makeBuffer(r.keys);
                    r.valuesIn = test::makeBuffer(r.values);
                    r.keysOut = test::makePoisoned<uint32_t>(n);
                    r.valuesOut = test::makePoisoned<uint32_t>(n);
                    runs.push_back(std::move(r));
                }
                const auto record = [&](VkCommandBuffer cmd, size_t i) {
                    sort::recordSort(cmd, sorter, runs[i].keysIn, runs[i].valuesIn, runs[i].keysOut,
                                     runs[i].valuesOut, sizeAndBits[i].first, sizeAndBits[i].second,
                                     GetParam());
                };
                if (oneBuffer) {
                    test::runCommands([&](VkCommandBuffer cmd) {
                        for (size_t i = 0; i < runs.size(); ++i) record(cmd, i);
                    });
                } else {
                    for (size_t i = 0; i < runs.size(); ++i) {
                        test::runCommands([&](VkCommandBuffer cmd) { record(cmd, i); });
                    }
                }
                for (size_t i = 0; i < runs.size(); ++i) {
                    const uint32_t n = sizeAndBits[i].first;
                    const Sorted expected =
                        referenceSort(runs[i].keys, runs[i].values, sizeAndBits[i].second);
                    EXPECT_EQ(test::readBuffer<uint32_t>(runs[i].keysOut, n), expected.keys) << "sort " << i;
                    EXPECT_EQ(test::readBuffer<uint32_t>(runs[i].valuesOut, n), expected.values)
                        << "sort " << i;
                    for (gpu::Buffer* b :
                         {&runs[i].keysIn, &runs[i].valuesIn, &runs[i].keysOut, &runs[i].valuesOut})
                        gpu::destroyBuffer(ctx(), *b);
                }
                sort::destroySorter(ctx(), sorter);
            }
}

TEST_F(SortTest, TooManyPairsIsAClearError) {
    EXPECT_THROW(sort::createSorter(ctx(), sort::maxSortPairs(ctx()) + 1), gpu::Error);
}

// Tiles of 64 keys, so that each pass's status words (1 KB a tile) fill half a storage buffer range:
// one pass's fit a binding, but the histogram pass binds every pass's at once.
TEST_F(SortTest, StatusWordsBeyondTheStorageBufferRangeAreAClearError) {
    const uint64_t range = ctx().properties.limits.maxStorageBufferRange;
    const uint32_t capacity = uint32_t(std::min<uint64_t>(sort::maxSortPairs(ctx()), range / 2 / 1024 * 64));
    EXPECT_THROW(sort::createSorter(ctx(), capacity, {.workgroupSize = 64, .keysPerThread = 1}),
                 gpu::OutOfMemory);
}

TEST_F(SortTest, LookbackWindowOutOfRangeIsRefused) {
    EXPECT_THROW(sort::createSorter(ctx(), 1000, {.lookbackWindow = 0}), gpu::Unsupported);
    EXPECT_THROW(sort::createSorter(ctx(), 1000, {.lookbackWindow = SORT_MAX_LOOKBACK_WINDOW + 1}),
                 gpu::Unsupported);
}

INSTANTIATE_TEST_SUITE_P(Sort, SortAlgorithmTest,
                         testing::Values(sort::SortAlgorithm::Onesweep, sort::SortAlgorithm::ReduceThenScan),
                         test::algorithmTestName);

} // namespace
