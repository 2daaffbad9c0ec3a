#pragma once
// Recording helpers: push buffers to a program, dispatch with group counts rounded up, barriers.

#include "gpu/buffer.h"
#include "gpu/program.h"

#include <initializer_list>

namespace gpu {

// A storage image's view, in the GENERAL layout while a shader writes it.
struct StorageImage {
    VkImageView view = VK_NULL_HANDLE;
};

// A sampled image's view and its sampler, in SHADER_READ_ONLY_OPTIMAL while a shader reads it.
struct SampledImage {
    VkImageView view = VK_NULL_HANDLE;
    VkSampler sampler = VK_NULL_HANDLE;
};

// A buffer, or a byte range of one, or an image, bound to the next binding of a program.
struct Resource {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize range = VK_WHOLE_SIZE;
    VkImageView image = VK_NULL_HANDLE;
    VkSampler sampler = VK_NULL_HANDLE; // set for a sampled image
    Resource(const Buffer& b) : buffer(b.buffer) {}
    Resource(const Buffer& b, VkDeviceSize offset, VkDeviceSize range)
        : buffer(b.buffer), offset(offset), range(range) {}
    Resource(StorageImage i) : image(i.view) {}
    Resource(SampledImage i) : image(i.view), sampler(i.sampler) {}
};

// Binds the pipeline and pushes one resource per reflected binding, in binding order.
void bindProgram(VkCommandBuffer cmd, const Program& program, std::initializer_list<Resource> resources);

// Work groups needed for `count` items at `perGroup` items each, rounded up.
constexpr uint32_t groupCount(uint64_t count, uint32_t perGroup) {
    return uint32_t((count + perGroup - 1) / perGroup);
}

// Splits `groups` work groups over x and y when x alone exceeds the device's limit; shaders use
// linearGroupIndex() (shaders/dispatch.glsl) and drop the groups past the end.
void dispatchGroupsRaw(VkCommandBuffer cmd, const Program& program, uint32_t groups, const void* push,
                       uint32_t pushSize);

template <typename T>
void dispatchGroups(VkCommandBuffer cmd, const Program& program, uint32_t groups, const T& push) {
    dispatchGroupsRaw(cmd, program, groups, &push, sizeof(T));
}

// One invocation per item, `items` rounded up to whole work groups of the reflected local size.
template <typename T>
void dispatch(VkCommandBuffer cmd, const Program& program, uint64_t items, const T& push) {
    dispatchGroupsRaw(cmd, program, groupCount(items, program.localSizeX), &push, sizeof(T));
}

void pushConstantsRaw(VkCommandBuffer cmd, const Program& program, const void* data, uint32_t size);

void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                   VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess);

// A layout transition of an image (one mip, one layer; colour unless `aspects` says otherwise), with
// the dependency it needs.
void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageLayout oldLayout, VkImageLayout newLayout,
                  VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage,
                  VkAccessFlags2 dstAccess, VkImageAspectFlags aspects = VK_IMAGE_ASPECT_COLOR_BIT);

// Makes compute writes visible to later compute reads and writes: the hazard between two dependent
// passes.
inline void computeBarrier(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
}

// Makes vkCmdFillBuffer's writes visible to later compute reads and writes.
inline void fillToComputeBarrier(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
}

// Makes a later fill or copy wait for compute reads and writes of the memory it overwrites.
inline void computeToTransferBarrier(VkCommandBuffer cmd) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                  VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}

} // namespace gpu
