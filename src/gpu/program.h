#pragma once
// Shader programs built by name from the embedded SPIR-V; bindings, push-constant size and local
// size are reflected. Descriptors are pushed (VK_KHR_push_descriptor): no pools, no sets to manage.

#include "gpu/context.h"
#include "gpu/spirv_reflect.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpu {

// A specialization constant by the name the shader declares (layout(constant_id = N) const uint
// NAME), or localSizeX for the local size x (layout(local_size_x_id = N) in).
struct SpecConstant {
    std::string name;
    uint32_t value; // every specialization constant in vkboids is 32 bits (a bool is a VkBool32)
};
constexpr const char* localSizeX = "local_size_x";

struct Program {
    std::string name;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineBindPoint bindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
    VkShaderStageFlags stages = 0;
    std::vector<VkDescriptorType> bindings;
    uint32_t pushConstantSize = 0; // rounded up to 16 bytes; the C++ struct must have exactly this size
    uint32_t localSizeX = 1;       // compute only
    uint32_t subgroupSize = 0;     // pinned subgroup size, or 0 where the driver chooses
    uint32_t maxGroupsX = 65535;   // the device's maxComputeWorkGroupCount
    uint32_t maxGroupsY = 65535;
    bool kept = false; // a compute program the context keeps: destroyProgram leaves its objects
};

struct ProgramCache {
    std::map<std::string, Program> programs; // keyed by shader, specialization constants and subgroup size
    uint64_t compiled = 0;
};

// The constant_id of each of `specs` in `reflection` (of `shader`), by name. Throws gpu::Error on a
// name the shader does not declare, or one given twice.
std::vector<uint32_t> specConstantIds(const std::string& shader, const ShaderReflection& reflection,
                                      const std::vector<SpecConstant>& specs);

// Throws gpu::Error when the shader declares no specialization constant of a name in `specs`.
// requiredSubgroupSize != 0 pins the subgroup size (VK_EXT_subgroup_size_control, core in 1.3).
// The context keeps each compute program it creates, one per shader, specialization and subgroup
// size, and hands out the same one when asked again: a flock rebuilt at another size, or a
// configuration the user returns to, takes its pipelines at once rather than compiling them again
// (seconds on a CPU driver, where each compile also leaves memory behind in the validation layer).
// destroyProgram leaves a kept program's objects alone; destroyContext destroys them.
Program createComputeProgram(const Context& context, const std::string& shader,
                             const std::vector<SpecConstant>& specs = {}, uint32_t requiredSubgroupSize = 0);

// For createContext and destroyContext: the empty cache of kept programs, and its destruction.
std::shared_ptr<ProgramCache> createProgramCache();
void destroyKeptPrograms(const Context& context);

// Compute programs created so far (kept), and those created anew rather than taken from the cache.
struct ProgramCounts {
    size_t kept = 0;
    uint64_t compiled = 0;
};
ProgramCounts programCounts(const Context& context);

enum class Blend {
    None,
    Premultiplied, // premultiplied-alpha "over"
    Alpha,         // straight-alpha "over" (Dear ImGui's vertices)
};

// A pipeline for dynamic rendering into one colour attachment and, unless depthFormat is UNDEFINED, a
// depth attachment. Without vertex attributes the vertex shader reads its data from buffers.
struct GraphicsDesc {
    VkFormat colorFormat = VK_FORMAT_UNDEFINED;
    VkFormat depthFormat = VK_FORMAT_UNDEFINED;
    VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    bool depthTest = true;
    bool depthWrite = true;
    Blend blend = Blend::None;
    uint32_t vertexStride = 0; // the stride of binding 0, the only vertex buffer
    std::vector<VkVertexInputAttributeDescription> attributes;
};
Program createGraphicsProgram(const Context& context, const std::string& vertexShader,
                              const std::string& fragmentShader, const GraphicsDesc& desc);

void destroyProgram(const Context& context, Program& program);

// The subgroup size to pin compute programs to, or 0 when the device cannot pin it.
uint32_t preferredSubgroupSize(const Context& context);

} // namespace gpu
