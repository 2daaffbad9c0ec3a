#pragma once
// What a SPIR-V module says about its interface, so C++ never restates it: descriptor bindings,
// push-constant size, local size (a literal or a specialization constant) and the named
// specialization constants.

#include <volk.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gpu {

// A specialization constant as the shader declares it: layout(constant_id = id) const uint name.
struct SpecConstantId {
    std::string name; // its OpName (kept by glslc -g: shaders/CMakeLists.txt)
    uint32_t id = 0;
};

struct ShaderReflection {
    VkShaderStageFlagBits stage = VkShaderStageFlagBits(0);
    std::vector<VkDescriptorType> bindings;    // indexed by binding number in set 0 (gaps: unusedBinding)
    uint32_t pushConstantSize = 0;             // bytes covered by the push-constant block
    uint32_t localSize[3] = {1, 1, 1};         // the default values
    int localSizeSpecId[3] = {-1, -1, -1};     // specialization constant id per axis, or -1
    std::vector<SpecConstantId> specConstants; // the named ones (a local size's has no name)
};

// A gap among the bindings: one the shader does not declare. The build's modules have none; one
// compiled from edited source may, where the optimizer dropped a binding that the code no longer uses.
constexpr VkDescriptorType unusedBinding = VK_DESCRIPTOR_TYPE_MAX_ENUM;
enum class UnusedBindings { Refused, Allowed };

// Throws gpu::Error on malformed modules, descriptor sets other than 0, or (unless allowed) binding
// gaps.
ShaderReflection reflectSpirv(std::span<const uint32_t> code,
                              UnusedBindings unused = UnusedBindings::Refused);

} // namespace gpu
