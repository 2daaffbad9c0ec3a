#include "gpu/program.h"

#include "gpu/shaders.h"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace gpu {
namespace {

const EmbeddedShader& findEmbedded(const std::string& name) {
    const EmbeddedShader* shader = embeddedShader(name);
    if (!shader) throw Error("no embedded shader named '" + name + "'");
    return *shader;
}

// The module a program is made from: one compiled from source in its place (--shaders), or the
// embedded one.
std::span<const uint32_t> findShader(const Context& ctx, const std::string& name) {
    const auto& source = ctx.keptPrograms->sourceModules;
    if (auto it = source.find(name); it != source.end()) return it->second.spirv;
    return findEmbedded(name).spirv;
}

VkShaderModule createModule(const Context& ctx, std::span<const uint32_t> code) {
    VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = code.size_bytes();
    info.pCode = code.data();
    VkShaderModule module = VK_NULL_HANDLE;
    VK_CHECK(vkCreateShaderModule(ctx.device, &info, nullptr, &module));
    return module;
}

// The descriptor set layout (for push descriptors) and the pipeline layout, covering every stage's
// bindings and push constants.
void createLayouts(const Context& ctx, Program& p, const std::vector<ShaderReflection>& stages) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    uint32_t push = 0;
    for (const ShaderReflection& r : stages) {
        p.stages |= r.stage;
        push = std::max(push, r.pushConstantSize);
        for (uint32_t b = 0; b < r.bindings.size(); ++b) {
            if (b >= p.bindings.size()) p.bindings.resize(b + 1, r.bindings[b]);
            if (p.bindings[b] != r.bindings[b])
                throw Error(p.name + ": stages disagree on binding " + std::to_string(b));
        }
    }
    for (uint32_t b = 0; b < p.bindings.size(); ++b)
        bindings.push_back({b, p.bindings[b], 1, p.stages, nullptr});
    p.pushConstantSize = (push + 15) / 16 * 16;
    if (p.pushConstantSize > ctx.properties.limits.maxPushConstantsSize)
        throw Error(p.name + ": push constants exceed the device's limit");

    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    setInfo.bindingCount = uint32_t(bindings.size());
    setInfo.pBindings = bindings.data();
    VK_CHECK(vkCreateDescriptorSetLayout(ctx.device, &setInfo, nullptr, &p.setLayout));

    VkPushConstantRange range{p.stages, 0, p.pushConstantSize};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &p.setLayout;
    layoutInfo.pushConstantRangeCount = p.pushConstantSize ? 1 : 0;
    layoutInfo.pPushConstantRanges = &range;
    VK_CHECK(vkCreatePipelineLayout(ctx.device, &layoutInfo, nullptr, &p.layout));
}

// One line per pipeline executable with what the driver says of the compiled code (registers, shared
// memory and so on), to see why a pass runs as it does.
void printStatistics(const Context& ctx, const Program& p, const std::vector<SpecConstant>& specs) {
    std::string name = p.name + " (local size " + std::to_string(p.localSizeX);
    for (const SpecConstant& s : specs)
        if (s.name != localSizeX) name += ", " + s.name + "=" + std::to_string(s.value);
    if (p.subgroupSize) name += ", subgroup " + std::to_string(p.subgroupSize);
    name += ")";
    VkPipelineInfoKHR pipelineInfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    pipelineInfo.pipeline = p.pipeline;
    uint32_t executableCount = 0;
    VK_CHECK(vkGetPipelineExecutablePropertiesKHR(ctx.device, &pipelineInfo, &executableCount, nullptr));
    std::vector<VkPipelineExecutablePropertiesKHR> executables(
        executableCount, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
    VK_CHECK(vkGetPipelineExecutablePropertiesKHR(ctx.device, &pipelineInfo, &executableCount,
                                                  executables.data()));
    for (uint32_t e = 0; e < executableCount; ++e) {
        VkPipelineExecutableInfoKHR executable{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
        executable.pipeline = p.pipeline;
        executable.executableIndex = e;
        uint32_t count = 0;
        VK_CHECK(vkGetPipelineExecutableStatisticsKHR(ctx.device, &executable, &count, nullptr));
        std::vector<VkPipelineExecutableStatisticKHR> stats(
            count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
        VK_CHECK(vkGetPipelineExecutableStatisticsKHR(ctx.device, &executable, &count, stats.data()));
        std::string line = "vkboids: pipeline " + name + " [" + executables[e].name + "]:";
        for (const VkPipelineExecutableStatisticKHR& s : stats) {
            line += std::string(" ") + s.name + "=";
            switch (s.format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
                line += s.value.b32 ? "true" : "false";
                break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
                line += std::to_string(s.value.i64);
                break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
                line += std::to_string(s.value.u64);
                break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
                line += std::to_string(s.value.f64);
                break;
            default: line += "?";
            }
            line += ";";
        }
        std::fprintf(stderr, "%s\n", line.c_str());
    }
}

// A graphics pipeline's fixed-function state, filled in place (its infos point at its own members).
struct FixedFunction {
    VkVertexInputBindingDescription vertexBinding{};
    VkPipelineVertexInputStateCreateInfo vertexInput{
        VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo assembly{
        VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    VkPipelineMultisampleStateCreateInfo multisample{
        VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    VkPipelineColorBlendAttachmentState attachment{};
    VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    VkDynamicState dynamicStates[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
};

VkPipelineColorBlendAttachmentState blendAttachment(Blend blend) {
    VkPipelineColorBlendAttachmentState attachment{};
    attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    if (blend != Blend::None) {
        attachment.blendEnable = VK_TRUE;
        attachment.srcColorBlendFactor =
            blend == Blend::Alpha ? VK_BLEND_FACTOR_SRC_ALPHA : VK_BLEND_FACTOR_ONE;
        attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        attachment.colorBlendOp = VK_BLEND_OP_ADD;
        attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
        attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        attachment.alphaBlendOp = VK_BLEND_OP_ADD;
    }
    return attachment;
}

void describeFixedFunction(const GraphicsDesc& desc, FixedFunction& s) {
    s.vertexBinding = {0, desc.vertexStride, VK_VERTEX_INPUT_RATE_VERTEX};
    if (!desc.attributes.empty()) {
        s.vertexInput.vertexBindingDescriptionCount = 1;
        s.vertexInput.pVertexBindingDescriptions = &s.vertexBinding;
        s.vertexInput.vertexAttributeDescriptionCount = uint32_t(desc.attributes.size());
        s.vertexInput.pVertexAttributeDescriptions = desc.attributes.data();
    }
    s.assembly.topology = desc.topology;
    s.viewport.viewportCount = 1;
    s.viewport.scissorCount = 1;
    s.raster.polygonMode = VK_POLYGON_MODE_FILL;
    s.raster.cullMode = VK_CULL_MODE_NONE;
    s.raster.lineWidth = 1.0f;
    s.multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    const bool hasDepth = desc.depthFormat != VK_FORMAT_UNDEFINED;
    s.depth.depthTestEnable = hasDepth && desc.depthTest;
    s.depth.depthWriteEnable = hasDepth && desc.depthWrite;
    s.depth.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    s.attachment = blendAttachment(desc.blend);
    s.blend.attachmentCount = 1;
    s.blend.pAttachments = &s.attachment;
    s.dynamic.dynamicStateCount = 2;
    s.dynamic.pDynamicStates = s.dynamicStates;
}

} // namespace

std::vector<uint32_t> specConstantIds(const std::string& shader, const ShaderReflection& r,
                                      const std::vector<SpecConstant>& specs) {
    std::vector<uint32_t> ids;
    for (const SpecConstant& s : specs) {
        if (s.name == localSizeX) {
            if (r.localSizeSpecId[0] < 0)
                throw Error(shader + ": its local size x is not a specialization constant");
            ids.push_back(uint32_t(r.localSizeSpecId[0]));
            continue;
        }
        const auto it = std::find_if(r.specConstants.begin(), r.specConstants.end(),
                                     [&](const SpecConstantId& c) { return c.name == s.name; });
        if (it == r.specConstants.end())
            throw Error(shader + " has no specialization constant named '" + s.name + "'" +
                        (r.specConstants.empty() ? " (none has a name: glslc -g keeps them)" : ""));
        ids.push_back(it->id);
    }
    for (size_t a = 0; a < ids.size(); ++a)
        for (size_t b = 0; b < a; ++b)
            if (ids[a] == ids[b]) throw Error(shader + ": '" + specs[a].name + "' is given twice");
    return ids;
}

uint32_t preferredSubgroupSize(const Context& ctx) {
    if (!ctx.computeSubgroupSizeControl) return 0;
    return std::clamp(ctx.subgroupSize, ctx.minSubgroupSize, ctx.maxSubgroupSize);
}

namespace {

// The specialization of `code`, whose constants are looked up by name: one that an edited source no
// longer uses, and that the optimizer therefore dropped, is left out.
struct Specialization {
    std::vector<VkSpecializationMapEntry> entries;
    std::vector<uint32_t> values;
    VkSpecializationInfo info{};
};

void specialize(std::span<const uint32_t> code, const std::vector<SpecConstant>& specs, Specialization& out) {
    const ShaderReflection r = reflectSpirv(code, UnusedBindings::Allowed);
    for (const SpecConstant& s : specs) {
        int id = -1;
        if (s.name == localSizeX) id = r.localSizeSpecId[0];
        for (const SpecConstantId& c : r.specConstants)
            if (c.name == s.name) id = int(c.id);
        if (id < 0) continue;
        out.entries.push_back({uint32_t(id), uint32_t(out.values.size() * 4), 4});
        out.values.push_back(s.value);
    }
    out.info = {uint32_t(out.entries.size()), out.entries.data(), out.values.size() * 4, out.values.data()};
}

VkPipeline createComputePipeline(const Context& ctx, const Program& p, const ProgramRecipe& recipe,
                                 std::span<const uint32_t> code) {
    Specialization spec;
    specialize(code, recipe.specs, spec);
    VkShaderModule module = createModule(ctx, code);
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroupInfo{
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = &spec.info;
    if (p.subgroupSize) {
        subgroupInfo.requiredSubgroupSize = p.subgroupSize;
        info.stage.pNext = &subgroupInfo;
        if (p.localSizeX % p.subgroupSize == 0)
            info.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    }
    info.layout = p.layout;
    if (ctx.pipelineStatistics) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    VkPipeline pipeline = VK_NULL_HANDLE;
    const VkResult created =
        vkCreateComputePipelines(ctx.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
    vkDestroyShaderModule(ctx.device, module, nullptr);
    VK_CHECK(created);
    return pipeline;
}

// The layouts, local size and subgroup size come from the embedded module, whose interface the
// program is written for; the pipeline from the module in use (findShader), whose interface
// checkInterface has found the same or a part of it.
Program compileComputeProgram(const Context& ctx, const ProgramRecipe& recipe) {
    const std::string& shader = recipe.shaders.at(0);
    const std::vector<SpecConstant>& specs = recipe.specs;
    const ShaderReflection r = reflectSpirv(findEmbedded(shader).spirv);
    if (r.stage != VK_SHADER_STAGE_COMPUTE_BIT) throw Error(shader + " is not a compute shader");

    // The names, the local size and the subgroups it takes are checked before anything is created.
    const std::vector<uint32_t> ids = specConstantIds(shader, r, specs);
    uint32_t localSizeX = r.localSize[0];
    for (size_t i = 0; i < specs.size(); ++i)
        if (int(ids[i]) == r.localSizeSpecId[0]) localSizeX = specs[i].value;
    const uint64_t invocations = uint64_t(localSizeX) * r.localSize[1] * r.localSize[2];
    if (localSizeX == 0 || localSizeX > ctx.properties.limits.maxComputeWorkGroupSize[0] ||
        invocations > ctx.properties.limits.maxComputeWorkGroupInvocations)
        throw Error(shader + ": local size " + std::to_string(localSizeX) + " exceeds the device's limits");
    const uint32_t requiredSubgroupSize = recipe.subgroupSize;
    // A pinned subgroup size must cover the group in at most maxComputeWorkgroupSubgroups subgroups
    // (VUID-VkPipelineShaderStageCreateInfo-pNext-02756).
    if (requiredSubgroupSize &&
        invocations > uint64_t(requiredSubgroupSize) * ctx.maxComputeWorkgroupSubgroups)
        throw Unsupported(shader + ": a work group of " + std::to_string(invocations) +
                          " invocations needs more subgroups of " + std::to_string(requiredSubgroupSize) +
                          " than the device's " + std::to_string(ctx.maxComputeWorkgroupSubgroups));
    if (requiredSubgroupSize) {
        CHECK(ctx.computeSubgroupSizeControl);
        CHECK(requiredSubgroupSize >= ctx.minSubgroupSize && requiredSubgroupSize <= ctx.maxSubgroupSize);
    }

    Program p;
    p.name = shader;
    p.bindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
    p.maxGroupsX = ctx.properties.limits.maxComputeWorkGroupCount[0];
    p.maxGroupsY = ctx.properties.limits.maxComputeWorkGroupCount[1];
    p.localSizeX = localSizeX;
    p.subgroupSize = requiredSubgroupSize;
    createLayouts(ctx, p, {r});
    p.pipeline = createComputePipeline(ctx, p, recipe, findShader(ctx, shader));
    if (ctx.pipelineStatistics) printStatistics(ctx, p, specs);
    return p;
}

} // namespace

namespace {

// Hands out the kept program of `key`, or makes it with `make` and keeps it.
Program keep(const Context& ctx, const std::string& key, const ProgramRecipe& recipe,
             const std::function<Program()>& make) {
    CHECK(ctx.keptPrograms);
    ProgramCache& cache = *ctx.keptPrograms;
    if (auto it = cache.programs.find(key); it != cache.programs.end()) return it->second.program;
    Program p = make();
    p.kept = true;
    p.live = std::make_shared<LivePipeline>(LivePipeline{p.pipeline, {}});
    ++cache.compiled;
    cache.programs.emplace(key, KeptProgram{p, recipe});
    return p;
}

} // namespace

Program createComputeProgram(const Context& ctx, const std::string& shader,
                             const std::vector<SpecConstant>& specs, uint32_t requiredSubgroupSize) {
    std::string key = shader;
    for (const SpecConstant& s : specs) key += " " + s.name + "=" + std::to_string(s.value);
    key += " subgroup=" + std::to_string(requiredSubgroupSize);
    const ProgramRecipe recipe{{shader}, specs, requiredSubgroupSize, {}};
    return keep(ctx, key, recipe, [&] { return compileComputeProgram(ctx, recipe); });
}

std::shared_ptr<ProgramCache> createProgramCache() {
    return std::make_shared<ProgramCache>();
}

void destroyKeptPrograms(const Context& ctx) {
    if (!ctx.keptPrograms) return;
    for (auto& [key, kept] : ctx.keptPrograms->programs) {
        Program& p = kept.program;
        p.kept = false;
        p.pipeline = p.live->pipeline; // the newest, where a reload replaced the first
        destroyProgram(ctx, p);
    }
    ctx.keptPrograms->programs.clear();
}

ProgramCounts programCounts(const Context& ctx) {
    if (!ctx.keptPrograms) return {};
    return {ctx.keptPrograms->programs.size(), ctx.keptPrograms->compiled};
}

namespace {

VkPipeline createGraphicsPipeline(const Context& ctx, const Program& p, const GraphicsDesc& desc,
                                  std::span<const uint32_t> vcode, std::span<const uint32_t> fcode) {
    VkShaderModule vmodule = createModule(ctx, vcode), fmodule = createModule(ctx, fcode);
    VkPipelineShaderStageCreateInfo stages[2] = {};
    stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 nullptr,
                 0,
                 VK_SHADER_STAGE_VERTEX_BIT,
                 vmodule,
                 "main"};
    stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 nullptr,
                 0,
                 VK_SHADER_STAGE_FRAGMENT_BIT,
                 fmodule,
                 "main"};
    FixedFunction state;
    describeFixedFunction(desc, state);

    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &desc.colorFormat;
    rendering.depthAttachmentFormat = desc.depthFormat;

    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    info.pNext = &rendering;
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &state.vertexInput;
    info.pInputAssemblyState = &state.assembly;
    info.pViewportState = &state.viewport;
    info.pRasterizationState = &state.raster;
    info.pMultisampleState = &state.multisample;
    info.pDepthStencilState = &state.depth;
    info.pColorBlendState = &state.blend;
    info.pDynamicState = &state.dynamic;
    info.layout = p.layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    const VkResult created =
        vkCreateGraphicsPipelines(ctx.device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
    vkDestroyShaderModule(ctx.device, vmodule, nullptr);
    vkDestroyShaderModule(ctx.device, fmodule, nullptr);
    VK_CHECK(created);
    return pipeline;
}

} // namespace

Program createGraphicsProgram(const Context& ctx, const std::string& vertexShader,
                              const std::string& fragmentShader, const GraphicsDesc& desc) {
    CHECK(desc.colorFormat != VK_FORMAT_UNDEFINED);
    if (!desc.attributes.empty() && desc.vertexStride % ctx.vertexStrideAlignment != 0)
        throw Unsupported(vertexShader + ": vertices of " + std::to_string(desc.vertexStride) +
                          " bytes, and " + ctx.properties.deviceName +
                          " reads only strides that are a multiple of " +
                          std::to_string(ctx.vertexStrideAlignment) + " (VK_KHR_portability_subset)");
    std::string key = vertexShader + "+" + fragmentShader + " formats=" + std::to_string(desc.colorFormat) +
                      "," + std::to_string(desc.depthFormat) + " topology=" + std::to_string(desc.topology) +
                      " depth=" + std::to_string(desc.depthTest) + std::to_string(desc.depthWrite) +
                      " blend=" + std::to_string(int(desc.blend)) +
                      " stride=" + std::to_string(desc.vertexStride);
    for (const VkVertexInputAttributeDescription& a : desc.attributes)
        key += " attribute=" + std::to_string(a.location) + "," + std::to_string(a.format) + "," +
               std::to_string(a.offset);
    const ProgramRecipe recipe{{vertexShader, fragmentShader}, {}, 0, desc};
    return keep(ctx, key, recipe, [&] {
        Program p;
        p.name = vertexShader + "+" + fragmentShader;
        p.bindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        createLayouts(ctx, p,
                      {reflectSpirv(findEmbedded(vertexShader).spirv),
                       reflectSpirv(findEmbedded(fragmentShader).spirv)});
        p.pipeline = createGraphicsPipeline(ctx, p, desc, findShader(ctx, vertexShader),
                                            findShader(ctx, fragmentShader));
        return p;
    });
}

std::vector<PipelineJob> pipelinesUsing(const Context& ctx, const std::vector<std::string>& shaders) {
    std::vector<PipelineJob> jobs;
    for (const auto& [key, kept] : ctx.keptPrograms->programs) {
        const std::vector<std::string>& uses = kept.recipe.shaders;
        if (std::find_first_of(uses.begin(), uses.end(), shaders.begin(), shaders.end()) == uses.end())
            continue;
        PipelineJob job{key, kept.program, kept.recipe, {}};
        job.inUse = std::chrono::steady_clock::now() - kept.program.live->bound < std::chrono::seconds(1);
        for (const std::string& shader : uses) {
            const std::span<const uint32_t> code = findShader(ctx, shader);
            job.code.emplace_back(code.begin(), code.end());
        }
        jobs.push_back(std::move(job));
    }
    return jobs;
}

VkPipeline buildPipeline(const Context& ctx, const PipelineJob& job,
                         const std::vector<SourceModule>& modules) {
    std::vector<std::span<const uint32_t>> code(job.code.begin(), job.code.end());
    for (size_t i = 0; i < code.size(); ++i)
        for (const SourceModule& m : modules)
            if (m.name == job.recipe.shaders[i]) code[i] = m.spirv;
    if (job.program.bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE)
        return createComputePipeline(ctx, job.program, job.recipe, code.at(0));
    return createGraphicsPipeline(ctx, job.program, job.recipe.graphics, code.at(0), code.at(1));
}

std::vector<VkPipeline> installModules(const Context& ctx, std::vector<SourceModule> modules,
                                       const std::vector<BuiltPipeline>& built) {
    ProgramCache& cache = *ctx.keptPrograms;
    std::vector<std::string> names;
    for (SourceModule& m : modules) {
        names.push_back(m.name);
        cache.sourceModules[m.name] = std::move(m);
    }
    std::vector<SourceModule> files;
    for (const auto& [name, m] : cache.sourceModules) files.push_back({m.name, {}, m.files});
    cache.sourceHash = sourceHash(files);
    std::vector<VkPipeline> replaced;
    for (auto& [key, kept] : cache.programs) {
        const std::string& name = key; // a structured binding, which C++20 lambdas may not capture
        const auto rebuilt =
            std::find_if(built.begin(), built.end(), [&](const BuiltPipeline& b) { return b.key == name; });
        VkPipeline pipeline = VK_NULL_HANDLE;
        if (rebuilt != built.end()) {
            pipeline = rebuilt->pipeline;
        } else if (std::find_first_of(kept.recipe.shaders.begin(), kept.recipe.shaders.end(), names.begin(),
                                      names.end()) != kept.recipe.shaders.end()) {
            // Made from an old module after pipelinesUsing looked: made again now, once.
            PipelineJob job{key, kept.program, kept.recipe, {}};
            for (const std::string& shader : kept.recipe.shaders) {
                const std::span<const uint32_t> code = findShader(ctx, shader);
                job.code.emplace_back(code.begin(), code.end());
            }
            pipeline = buildPipeline(ctx, job, {});
        }
        if (!pipeline) continue;
        replaced.push_back(kept.program.live->pipeline);
        kept.program.live->pipeline = pipeline;
    }
    return replaced;
}

void useSourceModules(const Context& ctx, const std::string& folder, std::vector<SourceModule> modules) {
    CHECK(ctx.keptPrograms->programs.empty());
    ctx.keptPrograms->sourceFolder = folder;
    installModules(ctx, std::move(modules), {});
}

ShaderOrigin shaderOrigin(const Context& ctx) {
    const ProgramCache& cache = *ctx.keptPrograms;
    if (cache.sourceFolder.empty()) return {};
    return {cache.sourceFolder, cache.sourceHash};
}

void destroyPipelines(const Context& ctx, const std::vector<VkPipeline>& pipelines) {
    for (VkPipeline p : pipelines) vkDestroyPipeline(ctx.device, p, nullptr);
}

void destroyProgram(const Context& ctx, Program& p) {
    if (p.kept) {
        p = Program{};
        return;
    }
    if (p.pipeline) vkDestroyPipeline(ctx.device, p.pipeline, nullptr);
    if (p.layout) vkDestroyPipelineLayout(ctx.device, p.layout, nullptr);
    if (p.setLayout) vkDestroyDescriptorSetLayout(ctx.device, p.setLayout, nullptr);
    p = Program{};
}

} // namespace gpu
