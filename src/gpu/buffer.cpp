#include "gpu/buffer.h"

#include "gpu/commands.h"

#include <algorithm>
#include <cstring>

namespace gpu {
namespace {

// Buffers and images are made and destroyed on the thread that records frames.
MemoryTally tally;

void tallyAllocation(VkDeviceSize bytes, bool freed) {
    if (freed) {
        tally.bytes -= bytes;
        tally.allocations -= 1;
    } else {
        tally.bytes += bytes;
        tally.allocations += 1;
        tally.peakBytes = std::max(tally.peakBytes, tally.bytes);
    }
}

} // namespace

MemoryTally allocatedMemory() {
    return tally;
}

void resetMemoryPeak() {
    tally.peakBytes = tally.bytes;
}

uint32_t findMemoryType(const Context& ctx, uint32_t typeBits, VkMemoryPropertyFlags want,
                        VkMemoryPropertyFlags fallback) {
    for (VkMemoryPropertyFlags flags : {want, fallback})
        for (uint32_t i = 0; i < ctx.memoryProperties.memoryTypeCount; ++i)
            if ((typeBits & (1u << i)) &&
                (ctx.memoryProperties.memoryTypes[i].propertyFlags & flags) == flags)
                return i;
    throw Error("no suitable Vulkan memory type");
}

Allocation allocateAndBind(const Context& ctx, VkBuffer buffer, VkImage image, VkMemoryPropertyFlags want,
                           VkMemoryPropertyFlags fallback, const std::string& what) {
    VkMemoryRequirements req;
    if (buffer)
        vkGetBufferMemoryRequirements(ctx.device, buffer, &req);
    else
        vkGetImageMemoryRequirements(ctx.device, image, &req);
    const uint32_t type = findMemoryType(ctx, req.memoryTypeBits, want, fallback);
    const VkDeviceSize heap =
        ctx.memoryProperties.memoryHeaps[ctx.memoryProperties.memoryTypes[type].heapIndex].size;
    const auto noRoom = [&] {
        return OutOfMemory("the device has no room for " + what + " of " + std::to_string(req.size) +
                           " bytes");
    };
    // Asking Vulkan for more than the heap holds is invalid usage rather than an ordinary failure, so
    // such a request is refused here before it is made.
    if (req.size > heap) throw noRoom();
    VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.allocationSize = req.size;
    info.memoryTypeIndex = type;
    Allocation a{.size = req.size};
    const VkResult result = vkAllocateMemory(ctx.device, &info, nullptr, &a.memory);
    if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY) throw noRoom();
    VK_CHECK(result);
    tallyAllocation(a.size, false);
    const VkResult bound = buffer ? vkBindBufferMemory(ctx.device, buffer, a.memory, 0)
                                  : vkBindImageMemory(ctx.device, image, a.memory, 0);
    if (bound != VK_SUCCESS) freeAllocation(ctx, a);
    VK_CHECK(bound);
    return a;
}

void freeAllocation(const Context& ctx, const Allocation& a) {
    if (!a.memory) return;
    vkFreeMemory(ctx.device, a.memory, nullptr);
    tallyAllocation(a.size, true);
}

Buffer createBuffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use) {
    Buffer b;
    b.size = size;
    const VkDeviceSize bytes = size < 4 ? 4 : size;
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = bytes;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VK_CHECK(vkCreateBuffer(ctx.device, &info, nullptr, &b.buffer));

    VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, fallback = 0;
    if (use == MemoryUse::Upload) {
        want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        fallback = want;
    } else if (use == MemoryUse::Readback) {
        want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
               VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
        fallback = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    }
    try {
        const Allocation a = allocateAndBind(ctx, b.buffer, VK_NULL_HANDLE, want, fallback, "a buffer");
        b.memory = a.memory;
        b.allocated = a.size;
    } catch (const Error&) {
        vkDestroyBuffer(ctx.device, b.buffer, nullptr);
        throw;
    }
    if (use != MemoryUse::Device) VK_CHECK(vkMapMemory(ctx.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

void destroyBuffer(const Context& ctx, Buffer& b) {
    if (b.buffer) vkDestroyBuffer(ctx.device, b.buffer, nullptr);
    freeAllocation(ctx, {b.memory, b.allocated});
    b = Buffer{};
}

void uploadBuffer(const Context& ctx, const Buffer& dst, const void* data, VkDeviceSize size,
                  VkDeviceSize offset) {
    if (size == 0) return;
    CHECK(offset + size <= dst.size);
    Buffer staging = createBuffer(ctx, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload);
    std::memcpy(staging.mapped, data, size);
    VkCommandBuffer cmd = beginOneShot(ctx);
    VkBufferCopy region{0, offset, size};
    vkCmdCopyBuffer(cmd, staging.buffer, dst.buffer, 1, &region);
    // The copy's write must be visible to whatever the next submission does with the buffer.
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                  VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    endOneShot(ctx, cmd);
    destroyBuffer(ctx, staging);
}

void downloadBuffer(const Context& ctx, const Buffer& src, void* data, VkDeviceSize size,
                    VkDeviceSize offset) {
    if (size == 0) return;
    CHECK(offset + size <= src.size);
    Buffer staging = createBuffer(ctx, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback);
    VkCommandBuffer cmd = beginOneShot(ctx);
    // Earlier submissions' writes (any stage) must be done before the copy reads them.
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferCopy region{offset, 0, size};
    vkCmdCopyBuffer(cmd, src.buffer, staging.buffer, 1, &region);
    // The copy's write must be visible to the host once the fence has signalled.
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    endOneShot(ctx, cmd);
    std::memcpy(data, staging.mapped, size);
    destroyBuffer(ctx, staging);
}

void fillBuffer(const Context& ctx, const Buffer& dst, uint32_t value) {
    VkCommandBuffer cmd = beginOneShot(ctx);
    vkCmdFillBuffer(cmd, dst.buffer, 0, VK_WHOLE_SIZE, value);
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                  VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    endOneShot(ctx, cmd);
}

void growStorage(const Context& ctx, Buffer& buffer, uint64_t words, MemoryUse use) {
    if (buffer.buffer && buffer.size >= 4 * words) return;
    VK_CHECK(vkDeviceWaitIdle(ctx.device));
    destroyBuffer(ctx, buffer);
    buffer = createBuffer(ctx, 4 * words, storageUsage, use);
}

} // namespace gpu
