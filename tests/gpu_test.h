#pragma once
// Shared by the GPU tests: one Vulkan context (lavapipe in CI) with validation always on, and a
// fixture that fails any test during which a validation error was reported.

#include "gpu/buffer.h"
#include "gpu/commands.h"
#include "gpu/context.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

namespace test {

const gpu::Context& gpuContext();

class GpuTest : public ::testing::Test {
  protected:
    void SetUp() override;
    void TearDown() override;
    const gpu::Context& ctx() { return gpuContext(); }

  private:
    uint32_t errorsBefore = 0;
};

// Records into a one-shot command buffer, submits and waits.
void runCommands(const std::function<void(VkCommandBuffer)>& record);

template <typename T> gpu::Buffer makeBuffer(const std::vector<T>& data, size_t capacity = 0) {
    const size_t count = std::max(capacity, data.size());
    gpu::Buffer b =
        gpu::createBuffer(gpuContext(), sizeof(T) * count, gpu::storageUsage, gpu::MemoryUse::Device);
    if (!data.empty()) gpu::uploadBuffer(gpuContext(), b, data.data(), sizeof(T) * data.size());
    return b;
}

// A buffer of `count` elements every byte of which is 0xAB... : unwritten elements stand out.
template <typename T> gpu::Buffer makePoisoned(size_t count) {
    gpu::Buffer b =
        gpu::createBuffer(gpuContext(), sizeof(T) * count, gpu::storageUsage, gpu::MemoryUse::Device);
    gpu::fillBuffer(gpuContext(), b, 0xabababab);
    return b;
}

template <typename T> std::vector<T> readBuffer(const gpu::Buffer& b, size_t count) {
    std::vector<T> out(count);
    gpu::downloadBuffer(gpuContext(), b, out.data(), sizeof(T) * count);
    return out;
}

} // namespace test
