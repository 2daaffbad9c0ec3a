#pragma once
// Buffers with their own memory, and blocking transfers for set-up, readback and tests.

#include "gpu/context.h"

#include <cstddef>
#include <string>

namespace gpu {

enum class MemoryUse {
    Device,   // device-local, GPU only
    Upload,   // host-visible, written sequentially by the CPU
    Readback, // host-visible and cached, read by the CPU
};

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    VkDeviceSize allocated = 0; // the memory's size, as the driver required it
    void* mapped = nullptr;     // set only for host-visible buffers
};

// The device memory that the buffers and images made here hold now (every memory type), in how many
// allocations, and the most they held since the peak was last reset: the program's own accounting,
// which the demo reports (--report-memory).
struct MemoryTally {
    uint64_t bytes = 0, allocations = 0, peakBytes = 0;
};
MemoryTally allocatedMemory();
void resetMemoryPeak();

// Device memory of its own for a buffer or an image (the one not VK_NULL_HANDLE), bound to it and
// tallied: the first memory type allowed with all of `want`, else with all of `fallback`. Where the
// device has no room (the allocation fails for lack of memory, or it is larger than the memory's
// heap), throws OutOfMemory naming the size and `what`; the buffer or image is then still the
// caller's to destroy.
struct Allocation {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0; // as the driver required it
};
Allocation allocateAndBind(const Context& context, VkBuffer buffer, VkImage image, VkMemoryPropertyFlags want,
                           VkMemoryPropertyFlags fallback, const std::string& what);
// Frees what allocateAndBind allocated (nothing where memory is VK_NULL_HANDLE).
void freeAllocation(const Context& context, const Allocation& allocation);

// The first memory type allowed by typeBits with all of `want`, else with all of `fallback`.
uint32_t findMemoryType(const Context& context, uint32_t typeBits, VkMemoryPropertyFlags want,
                        VkMemoryPropertyFlags fallback);

// Throws OutOfMemory when the device has no room. A size of 0 is allowed (a 4-byte buffer is made).
Buffer createBuffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use);
void destroyBuffer(const Context& context, Buffer& buffer);

// These copies block and go through a staging buffer, so they are for set-up, readback and tests,
// never for work done every frame.
void uploadBuffer(const Context& context, const Buffer& dst, const void* data, VkDeviceSize size,
                  VkDeviceSize offset = 0);
void downloadBuffer(const Context& context, const Buffer& src, void* data, VkDeviceSize size,
                    VkDeviceSize offset = 0);
void fillBuffer(const Context& context, const Buffer& dst, uint32_t value);

// Makes `buffer` a storage buffer of at least `words` 32-bit words, or leaves it as it is where it
// already holds them; to grow, waits for the device first (frames in flight may still read the old one).
void growStorage(const Context& context, Buffer& buffer, uint64_t words, MemoryUse use);

// Storage buffers that the passes read and write, and that transfers may fill and copy.
constexpr VkBufferUsageFlags storageUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

} // namespace gpu
