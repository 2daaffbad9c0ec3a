#pragma once
// Shared by the radix sort's tests: key layouts, the CPU reference (std::stable_sort of the pairs by
// masked key) and a fixture that sorts on the GPU and compares.

#include "gpu_test.h"
#include "sim/state.h"
#include "sort/radix_sort.h"
#include "sort/sort_types.h"

#include <algorithm>
#include <numeric>

namespace test {

enum class Layout { Uniform, AllEqual, Sorted, Reversed, FewDistinct, TopBitOnly, HighGarbage };

inline const char* layoutName(Layout l) {
    switch (l) {
    case Layout::Uniform: return "uniform";
    case Layout::AllEqual: return "all-equal";
    case Layout::Sorted: return "sorted";
    case Layout::Reversed: return "reversed";
    case Layout::FewDistinct: return "few-distinct";
    case Layout::TopBitOnly: return "top-bit-only";
    case Layout::HighGarbage: return "high-garbage";
    }
    return "?";
}

inline uint32_t maskOf(uint32_t bits) {
    return bits == 32 ? 0xffffffffu : (1u << bits) - 1;
}

inline std::vector<uint32_t> makeKeys(uint32_t n, uint32_t bits, Layout layout, uint64_t seed) {
    sim::Random rng(seed);
    const uint32_t mask = maskOf(bits);
    std::vector<uint32_t> keys(n);
    for (uint32_t i = 0; i < n; ++i) {
        switch (layout) {
        case Layout::Uniform: keys[i] = rng.next32() & mask; break;
        case Layout::AllEqual: keys[i] = 0x5a5a5a5au & mask; break;
        case Layout::Sorted:
            keys[i] = uint32_t(uint64_t(i) * (uint64_t(mask) + 1) / std::max(n, 1u)) & mask;
            break;
        case Layout::Reversed:
            keys[i] = uint32_t(uint64_t(n - 1 - i) * (uint64_t(mask) + 1) / std::max(n, 1u)) & mask;
            break;
        case Layout::FewDistinct: keys[i] = (rng.next32() % 3 * 0x9e3779b9u) & mask; break;
        case Layout::TopBitOnly: keys[i] = (rng.next32() & 1) ? 1u << (bits - 1) : 0; break;
        // Bits above keyBits must not change the result: the sort masks them.
        case Layout::HighGarbage: keys[i] = rng.next32(); break;
        }
    }
    return keys;
}

struct Sorted {
    std::vector<uint32_t> keys, values;
};

inline Sorted referenceSort(const std::vector<uint32_t>& keys, const std::vector<uint32_t>& values,
                            uint32_t bits) {
    const uint32_t mask = maskOf(bits);
    std::vector<uint32_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return (keys[a] & mask) < (keys[b] & mask); });
    Sorted s;
    for (uint32_t i : order) {
        s.keys.push_back(keys[i]);
        s.values.push_back(values[i]);
    }
    return s;
}

class SortTest : public GpuTest {
  protected:
    // Every sort of the fixture's takes this algorithm (SortOptions::algorithm is set from it).
    sort::SortAlgorithm algorithm = sort::SortAlgorithm::Onesweep;

    // Splits every dispatch of the sorter's over x and y at `groupsX` groups a row.
    static void setMaxGroupsX(sort::Sorter& sorter, uint32_t groupsX) {
        for (gpu::Program* p :
             {&sorter.onesweep, &sorter.onesweepNarrow, &sorter.histogram, &sorter.upsweep, &sorter.spine,
              &sorter.downsweep, &sorter.upsweepNarrow, &sorter.downsweepNarrow})
            p->maxGroupsX = groupsX;
    }

    // Groups per dispatch row; small values split dispatches over x and y, as on devices whose x
    // limit is below the group count, and launch a few groups too many.
    uint32_t maxGroupsX = 0;

    Sorted gpuSort(const std::vector<uint32_t>& keys, const std::vector<uint32_t>& values, uint32_t bits,
                   const sort::SortOptions& options = {}) {
        const uint32_t n = uint32_t(keys.size());
        gpu::Buffer keysIn = test::makeBuffer(keys, 1), valuesIn = test::makeBuffer(values, 1);
        gpu::Buffer keysOut = test::makePoisoned<uint32_t>(std::max(n, 1u));
        gpu::Buffer valuesOut = test::makePoisoned<uint32_t>(std::max(n, 1u));
        sort::SortOptions withAlgorithm = options;
        withAlgorithm.algorithm = algorithm;
        sort::Sorter sorter = sort::createSorter(ctx(), n, withAlgorithm);
        if (maxGroupsX) setMaxGroupsX(sorter, maxGroupsX);
        test::runCommands([&](VkCommandBuffer cmd) {
            sort::recordSort(cmd, sorter, keysIn, valuesIn, keysOut, valuesOut, n, bits);
        });
        Sorted out{test::readBuffer<uint32_t>(keysOut, n), test::readBuffer<uint32_t>(valuesOut, n)};
        // The input is never written.
        EXPECT_EQ(test::readBuffer<uint32_t>(keysIn, n), keys);
        EXPECT_EQ(test::readBuffer<uint32_t>(valuesIn, n), values);
        sort::destroySorter(ctx(), sorter);
        for (gpu::Buffer* b : {&keysIn, &valuesIn, &keysOut, &valuesOut}) gpu::destroyBuffer(ctx(), *b);
        return out;
    }

    void check(uint32_t n, uint32_t bits, Layout layout, uint64_t seed,
               const sort::SortOptions& options = {}) {
        SCOPED_TRACE(testing::Message() << "n=" << n << " bits=" << bits << " layout=" << layoutName(layout));
        const std::vector<uint32_t> keys = makeKeys(n, bits, layout, seed);
        std::vector<uint32_t> values(n);
        std::iota(values.begin(), values.end(), 0); // the original index: stability shows in the values
        const Sorted expected = referenceSort(keys, values, bits);
        const Sorted got = gpuSort(keys, values, bits, options);
        ASSERT_EQ(got.values.size(), expected.values.size());
        for (uint32_t i = 0; i < n; ++i) {
            ASSERT_EQ(got.values[i], expected.values[i]) << "value at " << i;
            ASSERT_EQ(got.keys[i], expected.keys[i]) << "key at " << i;
        }
    }
};

// The cases that hold for every algorithm run once per algorithm.
class SortAlgorithmTest : public SortTest, public testing::WithParamInterface<sort::SortAlgorithm> {
  protected:
    void SetUp() override {
        SortTest::SetUp();
        algorithm = GetParam();
    }
};

inline std::string algorithmTestName(const testing::TestParamInfo<sort::SortAlgorithm>& info) {
    return info.param == sort::SortAlgorithm::Onesweep ? "Onesweep" : "ReduceThenScan";
}

} // namespace test
