// The reference beside vkboids' sort-bench, on an NVIDIA GPU with the CUDA toolkit:
// CUB DeviceRadixSort::SortPairs of (uint32 key, uint32 value) pairs over the keys' low bits, random
// keys, median of 20 timed sorts after 5 untimed, each output checked. Also the device-to-device copy
// rate, the bound of any pass that streams memory. tools/gpu-bench.sh builds and runs it:
//
//   nvcc -O3 -arch=native -o cub_sort_bench tools/cub_sort_bench.cu
//   ./cub_sort_bench 1e6,4e6,16e6,64e6 21,32 > cub.csv
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#define CHECK_CUDA(x)                                                                              \
    do {                                                                                           \
        const cudaError_t e = (x);                                                                 \
        if (e != cudaSuccess) {                                                                    \
            std::fprintf(stderr, "cub_sort_bench: %s at line %d\n", cudaGetErrorString(e), __LINE__); \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

static std::vector<uint32_t> parseList(const char* text) {
    std::vector<uint32_t> out;
    std::string s = text;
    for (size_t start = 0; start <= s.size();) {
        const size_t end = std::min(s.find(',', start), s.size());
        out.push_back(uint32_t(std::stod(s.substr(start, end - start))));
        start = end + 1;
    }
    return out;
}

template <typename F> static double medianMs(int runs, F&& work) {
    cudaEvent_t begin, end;
    CHECK_CUDA(cudaEventCreate(&begin));
    CHECK_CUDA(cudaEventCreate(&end));
    for (int i = 0; i < 5; ++i) work();
    std::vector<float> ms;
    for (int i = 0; i < runs; ++i) {
        CHECK_CUDA(cudaEventRecord(begin));
        work();
        CHECK_CUDA(cudaEventRecord(end));
        CHECK_CUDA(cudaEventSynchronize(end));
        float t = 0;
        CHECK_CUDA(cudaEventElapsedTime(&t, begin, end));
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    CHECK_CUDA(cudaEventDestroy(begin));
    CHECK_CUDA(cudaEventDestroy(end));
    return ms[ms.size() / 2];
}

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: cub_sort_bench PAIRS[,PAIRS...] KEY_BITS[,KEY_BITS...]\n");
        return 2;
    }
    const std::vector<uint32_t> sizes = parseList(argv[1]), widths = parseList(argv[2]);
    const uint32_t largest = *std::max_element(sizes.begin(), sizes.end());
    uint32_t *keysIn, *keysOut, *valuesIn, *valuesOut;
    for (uint32_t** p : {&keysIn, &keysOut, &valuesIn, &valuesOut})
        CHECK_CUDA(cudaMalloc(p, size_t(largest) * 4));

    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    const size_t copyBytes = size_t(largest) * 4;
    const double copyMs = medianMs(20, [&] { cudaMemcpy(keysOut, keysIn, copyBytes, cudaMemcpyDeviceToDevice); });
    std::printf("# %s, CUB %d.%d.%d; device-to-device copy %.0f GB/s (bytes read and written)\n", prop.name,
                CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION, 2.0 * copyBytes / (copyMs * 1e6));
    std::printf("pairs,key_bits,median_us,gb_per_s\n");

    std::mt19937 rng(1);
    bool allSorted = true;
    for (uint32_t n : sizes) {
        std::vector<uint32_t> values(n);
        for (uint32_t i = 0; i < n; ++i) values[i] = i;
        CHECK_CUDA(cudaMemcpy(valuesIn, values.data(), size_t(n) * 4, cudaMemcpyHostToDevice));
        for (uint32_t bits : widths) {
            const uint32_t mask = bits >= 32 ? ~0u : (1u << bits) - 1;
            std::vector<uint32_t> keys(n);
            for (uint32_t& k : keys) k = rng() & mask;
            CHECK_CUDA(cudaMemcpy(keysIn, keys.data(), size_t(n) * 4, cudaMemcpyHostToDevice));
            size_t tempBytes = 0;
            CHECK_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, tempBytes, keysIn, keysOut, valuesIn, valuesOut,
                                                       int(n), 0, int(bits)));
            void* temp = nullptr;
            CHECK_CUDA(cudaMalloc(&temp, tempBytes));
            const double ms = medianMs(20, [&] {
                cub::DeviceRadixSort::SortPairs(temp, tempBytes, keysIn, keysOut, valuesIn, valuesOut, int(n), 0,
                                                int(bits));
            });
            CHECK_CUDA(cudaGetLastError());
            CHECK_CUDA(cudaFree(temp));
            std::vector<uint32_t> outKeys(n), outValues(n);
            CHECK_CUDA(cudaMemcpy(outKeys.data(), keysOut, size_t(n) * 4, cudaMemcpyDeviceToHost));
            CHECK_CUDA(cudaMemcpy(outValues.data(), valuesOut, size_t(n) * 4, cudaMemcpyDeviceToHost));
            bool sorted = true;
            for (uint32_t i = 0; i < n && sorted; ++i)
                sorted = outKeys[i] == keys[outValues[i]] &&
                         (i == 0 || outKeys[i - 1] < outKeys[i] ||
                          (outKeys[i - 1] == outKeys[i] && outValues[i - 1] < outValues[i]));
            allSorted = allSorted && sorted;
            // The bytes sort-bench counts: a read and a write of the pairs a pass, and a histogram read.
            const double passes = (bits + 7) / 8;
            std::printf("%u,%u,%.1f,%.0f%s\n", n, bits, ms * 1000, (16.0 * passes + 4.0) * n / (ms * 1e6),
                        sorted ? "" : ",NOT SORTED");
        }
    }
    for (uint32_t* p : {keysIn, keysOut, valuesIn, valuesOut}) CHECK_CUDA(cudaFree(p));
    if (!allSorted) std::fprintf(stderr, "cub_sort_bench: an output was not a stable sort of its input\n");
    return allSorted ? 0 : 1;
}
