// The reduce-then-scan sort's own cases, and the choice between the two algorithms. The cases both
// algorithms share run for each in test_sort.cpp.

#include "sort_test.h"

namespace {

using sort::SortAlgorithm;
using test::Layout;
using test::makeKeys;
using test::referenceSort;
using test::Sorted;
using test::SortTest;

TEST(SortAlgorithmChoice, AutoPicksPerItsTable) {
    // The product's table: Onesweep at every size and width.
    for (uint32_t bits = 1; bits <= 32; ++bits)
        for (uint32_t count : {1u, 1000000u, 64000000u, uint32_t(SORT_VALUE_MASK)}) {
            EXPECT_EQ(sort::chooseAlgorithm(count, bits), SortAlgorithm::Onesweep) << bits;
            EXPECT_EQ(sort::resolveAlgorithm(SortAlgorithm::Auto, count, bits), SortAlgorithm::Onesweep);
            EXPECT_EQ(sort::resolveAlgorithm(SortAlgorithm::ReduceThenScan, count, bits),
                      SortAlgorithm::ReduceThenScan);
        }
    // A table with a threshold per pass count picks by count and by the key's passes.
    const uint32_t table[4] = {10, 200, 3000, 40000};
    for (uint32_t bits = 1; bits <= 32; ++bits) {
        const uint32_t from = table[sort::sortPassCount(bits) - 1];
        EXPECT_EQ(sort::chooseAlgorithm(from - 1, bits, table), SortAlgorithm::Onesweep) << bits;
        EXPECT_EQ(sort::chooseAlgorithm(from, bits, table), SortAlgorithm::ReduceThenScan) << bits;
    }
}

TEST(SortAlgorithmChoice, NamesParseBack) {
    for (SortAlgorithm a : {SortAlgorithm::Onesweep, SortAlgorithm::ReduceThenScan, SortAlgorithm::Auto})
        EXPECT_EQ(sort::parseAlgorithm(sort::algorithmName(a)), a);
    EXPECT_STREQ(sort::algorithmName(SortAlgorithm::ReduceThenScan), "reduce-then-scan");
    for (const char* bad : {"", "Onesweep", "reduce_then_scan", "rts", "auto "})
        EXPECT_FALSE(sort::parseAlgorithm(bad).has_value()) << bad;
}

class SortReduceThenScanTest : public SortTest {
  protected:
    void SetUp() override {
        SortTest::SetUp();
        algorithm = SortAlgorithm::ReduceThenScan;
    }
};

// Tiles of 64 keys, so that the spine's rows (one a digit, a word a tile) span several of its chunks
// of 4 x 64 tiles: the carry from chunk to chunk must hold, and rows whose length is no multiple of
// 4 end in padding the spine must not count.
TEST_F(SortReduceThenScanTest, SpineCarriesAcrossChunksOfTiles) {
    const sort::SortOptions options{.workgroupSize = 64, .keysPerThread = 1};
    sort::Sorter probe = sort::createSorter(ctx(), 1, options);
    ASSERT_EQ(probe.tileSize, 64u);
    sort::destroySorter(ctx(), probe);
    const uint32_t chunkTiles = 4 * 64;
    ASSERT_GT(gpu::groupCount(50003, 64), 3 * chunkTiles);
    ASSERT_NE(gpu::groupCount(50003, 64) % 4, 0u);
    for (uint32_t bits : {4u, 8u, 21u, 32u}) check(50003, bits, Layout::Uniform, bits, options);
    check(50003, 21, Layout::Sorted, 9, options);
    check(50003, 13, Layout::FewDistinct, 10, options);
    check(300007, 21, Layout::Uniform, 11, options); // 4,688 tiles: 19 chunks
}

// The spine's chunk spans 4 x the work group; with 5 subgroups a group, its scan over the
// subgroups' sums must not assume a power of two (nor the downsweep's ranking).
TEST_F(SortReduceThenScanTest, SpineWithFiveSubgroupsAGroup) {
    sort::Sorter probe = sort::createSorter(ctx(), 1);
    const sort::SortOptions options{.workgroupSize = 5 * probe.subgroupSize, .keysPerThread = 1};
    sort::destroySorter(ctx(), probe);
    for (uint32_t bits : {8u, 21u}) check(30011, bits, Layout::Uniform, bits, options);
    check(30011, 21, Layout::AllEqual, 3, options);
}

// Auto never takes reduce-then-scan (tuning::reduceThenScanFrom), so a sorter for Auto builds none of
// it; asked for, it does.
TEST_F(SortTest, ReduceThenScanIsBuiltOnlyWhereASortCanTakeIt) {
    sort::Sorter automatic = sort::createSorter(ctx(), 100000);
    EXPECT_EQ(automatic.upsweep.pipeline, VK_NULL_HANDLE);
    EXPECT_EQ(automatic.tileCounts.buffer, VK_NULL_HANDLE);
    sort::destroySorter(ctx(), automatic);
    for (const sort::SortOptions& options : {sort::SortOptions{.algorithm = SortAlgorithm::ReduceThenScan},
                                             sort::SortOptions{.reduceThenScan = true}}) {
        sort::Sorter asked = sort::createSorter(ctx(), 100000, options);
        EXPECT_NE(asked.upsweep.pipeline, VK_NULL_HANDLE);
        EXPECT_NE(asked.spine.pipeline, VK_NULL_HANDLE);
        EXPECT_NE(asked.tileCounts.buffer, VK_NULL_HANDLE);
        sort::destroySorter(ctx(), asked);
    }
}

// One sorter, the two algorithms in turn in one command buffer: each sort leaves the scratch the
// other relies on as it found it.
TEST_F(SortTest, AlgorithmsTakeTurnsOnOneSorter) {
    const uint32_t n = 20011;
    sort::Sorter sorter = sort::createSorter(ctx(), n, {.keysPerThread = 2, .reduceThenScan = true});
    const std::pair<SortAlgorithm, uint32_t> turns[] = {
        {SortAlgorithm::ReduceThenScan, 21}, {SortAlgorithm::Onesweep, 32},
        {SortAlgorithm::ReduceThenScan, 8},  {SortAlgorithm::Onesweep, 21},
        {SortAlgorithm::Auto, 13},           {SortAlgorithm::ReduceThenScan, 32}};
    struct Run {
        std::vector<uint32_t> keys, values;
        gpu::Buffer keysIn, valuesIn, keysOut, valuesOut;
    };
    std::vector<Run> runs;
    for (size_t i = 0; i < std::size(turns); ++i) {
        Run r;
        r.keys = makeKeys(n - uint32_t(i) * 1000, turns[i].second, Layout::HighGarbage, i);
        r.values.resize(r.keys.size());
        std::iota(r.values.begin(), r.values.end(), 0);
        r.keysIn = test::makeBuffer(r.keys);
        r.valuesIn = test::makeBuffer(r.values);
        r.keysOut = test::makePoisoned<uint32_t>(r.keys.size());
        r.valuesOut = test::makePoisoned<uint32_t>(r.keys.size());
        runs.push_back(std::move(r));
    }
    test::runCommands([&](VkCommandBuffer cmd) {
        for (size_t i = 0; i < runs.size(); ++i)
            sort::recordSort(cmd, sorter, runs[i].keysIn, runs[i].valuesIn, runs[i].keysOut,
                             runs[i].valuesOut, uint32_t(runs[i].keys.size()), turns[i].second,
                             turns[i].first);
    });
    for (size_t i = 0; i < runs.size(); ++i) {
        const size_t count = runs[i].keys.size();
        const Sorted expected = referenceSort(runs[i].keys, runs[i].values, turns[i].second);
        EXPECT_EQ(test::readBuffer<uint32_t>(runs[i].keysOut, count), expected.keys) << "sort " << i;
        EXPECT_EQ(test::readBuffer<uint32_t>(runs[i].valuesOut, count), expected.values) << "sort " << i;
        for (gpu::Buffer* b : {&runs[i].keysIn, &runs[i].valuesIn, &runs[i].keysOut, &runs[i].valuesOut})
            gpu::destroyBuffer(ctx(), *b);
    }
    sort::destroySorter(ctx(), sorter);
}

} // namespace
