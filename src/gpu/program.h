#pragma once
// Shader programs built by name from the embedded SPIR-V, or from modules compiled from source in
// its place (--shaders); bindings, push-constant size and local size are reflected from the embedded
// modules. Descriptors are pushed (VK_KHR_push_descriptor): no pools, no sets to manage.

#include "gpu/context.h"
#include "gpu/shader_compiler.h"
#include "gpu/spirv_reflect.h"

#include <chrono>
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
struct LivePipeline {
    VkPipeline pipeline = VK_NULL_HANDLE;
    std::chrono::steady_clock::time_point bound; // when a command buffer last bound it
};

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
    bool kept = false; // a program the context keeps: destroyProgram leaves its objects
    // A kept program's pipeline as it is now: a live reload of its shaders (installModules) replaces
    // it here, for every copy of the program at once, and bindProgram binds it and notes when.
    std::shared_ptr<LivePipeline> live;
};

// What a pipeline is made of, so that it can be made again from new modules.
struct ProgramRecipe {
    std::vector<std::string> shaders; // compute: the shader; graphics: the vertex and fragment shaders
    std::vector<SpecConstant> specs;
    uint32_t subgroupSize = 0;
    GraphicsDesc graphics; // graphics only
};

struct KeptProgram {
    Program program;
    ProgramRecipe recipe;
};

struct ProgramCache {
    std::map<std::string, KeptProgram>
        programs; // keyed by shaders, specialization and subgroup size or state
    // --shaders: the folder, and the modules compiled from it by name, in place of the embedded ones
    std::string sourceFolder;
    std::map<std::string, SourceModule> sourceModules;
    std::string sourceHash; // of sourceModules' files (sourceHash), kept as they are installed
    uint64_t compiled = 0;
};

// The constant_id of each of `specs` in `reflection` (of `shader`), by name. Throws gpu::Error on a
// name the shader does not declare, or one given twice.
std::vector<uint32_t> specConstantIds(const std::string& shader, const ShaderReflection& reflection,
                                      const std::vector<SpecConstant>& specs);

// Throws gpu::Error when the shader declares no specialization constant of a name in `specs`.
// requiredSubgroupSize != 0 pins the subgroup size (VK_EXT_subgroup_size_control, core in 1.3).
// The context keeps each program it creates, one per shader, specialization and subgroup size (for
// graphics, per pair of shaders and fixed-function state), and hands out the same one when asked again: a
// flock rebuilt at another size, or a configuration the user returns to, takes its pipelines at once rather
// than compiling them again (seconds on a CPU driver, where each compile also leaves memory behind in the
// validation layer). destroyProgram leaves a kept program's objects alone; destroyContext destroys them.
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

Program createGraphicsProgram(const Context& context, const std::string& vertexShader,
                              const std::string& fragmentShader, const GraphicsDesc& desc);

void destroyProgram(const Context& context, Program& program);

// Live reloads. A kept program to make again from new modules: a copy of the program (its layouts,
// local size, subgroup size), what it is made of, and the code each of its shaders has now.
struct PipelineJob {
    std::string key;
    Program program;
    ProgramRecipe recipe;
    std::vector<std::vector<uint32_t>> code;
    bool inUse = false; // bound by a command buffer in the last second
};
struct BuiltPipeline {
    std::string key;
    VkPipeline pipeline = VK_NULL_HANDLE;
};

// The kept programs that any of `shaders` is a shader of. On the thread that records frames.
std::vector<PipelineJob> pipelinesUsing(const Context& context, const std::vector<std::string>& shaders);

// A job's new pipeline, from `modules` where they are its shaders and its own code elsewhere. Any
// thread: the slow part of a reload, kept off the thread that records frames.
VkPipeline buildPipeline(const Context& context, const PipelineJob& job,
                         const std::vector<SourceModule>& modules);

// Between frames, on the thread that records them: `modules` take the place of the modules of their
// names for every program made from now on, and each of `built` the pipeline of its program in every
// copy of it. A program made from one of `modules` since pipelinesUsing looked is made again here.
// Returns the pipelines replaced, which frames in flight may still use: the caller destroys them
// (destroyPipelines) once those frames have finished.
std::vector<VkPipeline> installModules(const Context& context, std::vector<SourceModule> modules,
                                       const std::vector<BuiltPipeline>& built);

// --shaders: every module compiled from `folder` (compileAllModules), before any program is made.
void useSourceModules(const Context& context, const std::string& folder, std::vector<SourceModule> modules);

// Where the programs' shaders come from: the folder (empty for the embedded modules) and sourceHash of
// the modules compiled from it.
struct ShaderOrigin {
    std::string folder;
    std::string hash;
};
ShaderOrigin shaderOrigin(const Context& context);
void destroyPipelines(const Context& context, const std::vector<VkPipeline>& pipelines);

// The subgroup size to pin compute programs to, or 0 when the device cannot pin it.
uint32_t preferredSubgroupSize(const Context& context);

} // namespace gpu
