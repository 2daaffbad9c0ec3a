#pragma once
// What a SPIR-V module says about its interface, so C++ never restates it: descriptor bindings,
// push-constant size and local size (a literal or a specialization constant).

#include <volk.h>

#include <cstdint>
#include <span>
#include <vector>

namespace gpu {

struct ShaderReflection {
    VkShaderStageFlagBits stage = VkShaderStageFlagBits(0);
    std::vector<VkDescriptorType> bindings; // index = binding number in set 0, contiguous from 0
    uint32_t pushConstantSize = 0;          // bytes covered by the push-constant block
    uint32_t localSize[3] = {1, 1, 1};      // default values
    int localSizeSpecId[3] = {-1, -1, -1};  // specialization constant id per axis, or -1
};

// Throws gpu::Error on malformed modules, descriptor sets other than 0, or binding gaps.
ShaderReflection reflectSpirv(std::span<const uint32_t> code);

} // namespace gpu
