#include "gpu/commands.h"

#include <vector>

namespace gpu {

void bindProgram(VkCommandBuffer cmd, const Program& p, std::initializer_list<Resource> resources) {
    if (resources.size() != p.bindings.size())
        throw Error(p.name + " has " + std::to_string(p.bindings.size()) + " bindings, " +
                    std::to_string(resources.size()) + " resources given");
    VkPipeline pipeline = p.pipeline;
    if (p.live) {
        pipeline = p.live->pipeline;
        p.live->bound = std::chrono::steady_clock::now();
    }
    vkCmdBindPipeline(cmd, p.bindPoint, pipeline);
    if (resources.size() == 0) return;
    std::vector<VkDescriptorBufferInfo> infos;
    std::vector<VkDescriptorImageInfo> images;
    std::vector<VkWriteDescriptorSet> writes;
    infos.reserve(resources.size());
    images.reserve(resources.size());
    uint32_t binding = 0;
    for (const Resource& b : resources) {
        VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstBinding = binding;
        w.descriptorCount = 1;
        w.descriptorType = p.bindings[binding];
        const bool storageImage = w.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        const bool sampledImage = w.descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        if (storageImage != (b.image && !b.sampler) || sampledImage != (b.image && b.sampler))
            throw Error(p.name + ": binding " + std::to_string(binding) +
                        " given the wrong kind of resource");
        if (b.image) {
            images.push_back(
                {b.sampler, b.image,
                 sampledImage ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL});
            w.pImageInfo = &images.back();
        } else {
            infos.push_back({b.buffer, b.offset, b.range});
            w.pBufferInfo = &infos.back();
        }
        writes.push_back(w);
        ++binding;
    }
    vkCmdPushDescriptorSetKHR(cmd, p.bindPoint, p.layout, 0, uint32_t(writes.size()), writes.data());
}

void pushConstantsRaw(VkCommandBuffer cmd, const Program& p, const void* data, uint32_t size) {
    if (size != p.pushConstantSize)
        throw Error(p.name + ": push constants of " + std::to_string(size) + " bytes, the shader declares " +
                    std::to_string(p.pushConstantSize));
    if (size) vkCmdPushConstants(cmd, p.layout, p.stages, 0, size, data);
}

void dispatchGroupsRaw(VkCommandBuffer cmd, const Program& p, uint32_t groups, const void* push,
                       uint32_t pushSize) {
    pushConstantsRaw(cmd, p, push, pushSize);
    if (groups == 0) return;
    const uint32_t x = groups < p.maxGroupsX ? groups : p.maxGroupsX;
    const uint32_t y = groupCount(groups, x);
    if (y > p.maxGroupsY)
        throw Error(p.name + ": " + std::to_string(groups) + " work groups exceed the device's limit");
    vkCmdDispatch(cmd, x, y, 1);
}

void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                   VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
    VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    barrier.srcStageMask = srcStage;
    barrier.srcAccessMask = srcAccess;
    barrier.dstStageMask = dstStage;
    barrier.dstAccessMask = dstAccess;
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &barrier;
    vkCmdPipelineBarrier2(cmd, &dep);
}

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageLayout oldLayout, VkImageLayout newLayout,
                  VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage,
                  VkAccessFlags2 dstAccess, VkImageAspectFlags aspects) {
    VkImageMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    barrier.srcStageMask = srcStage;
    barrier.srcAccessMask = srcAccess;
    barrier.dstStageMask = dstStage;
    barrier.dstAccessMask = dstAccess;
    barrier.oldLayout = oldLayout;
    barrier.newLayout = newLayout;
    barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = {aspects, 0, 1, 0, 1};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.imageMemoryBarrierCount = 1;
    dep.pImageMemoryBarriers = &barrier;
    vkCmdPipelineBarrier2(cmd, &dep);
}

} // namespace gpu
