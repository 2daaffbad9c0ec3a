// What gpu::reflectSpirv reads from the embedded shaders' SPIR-V (bindings, push-constant sizes,
// local sizes and specialization constants), checked against the C++ side without a device.

#include "gpu/check.h"
#include "gpu/program.h"
#include "gpu/shaders.h"
#include "gpu/spirv_reflect.h"
#include "render/draw_types.h"
#include "sim/sim_types.h"
#include "sort/sort_types.h"

#include <gtest/gtest.h>

#include <vector>

TEST(SpirvReflection, ReadsBindingsPushConstantsAndLocalSize) {
    const gpu::ShaderReflection naive = gpu::reflectSpirv(gpu::embeddedSpirv("naive"));
    EXPECT_EQ(naive.stage, VK_SHADER_STAGE_COMPUTE_BIT);
    ASSERT_EQ(naive.bindings.size(), 4u);
    for (VkDescriptorType t : naive.bindings) EXPECT_EQ(t, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
    EXPECT_EQ(naive.pushConstantSize, sizeof(gpudata::StepConstants));
    EXPECT_EQ(naive.localSizeSpecId[0], 0);

    const gpu::ShaderReflection onesweep = gpu::reflectSpirv(gpu::embeddedSpirv("sort_onesweep"));
    EXPECT_EQ(onesweep.bindings.size(), 7u);
    EXPECT_EQ(onesweep.pushConstantSize, sizeof(gpudata::SortPassConstants));

    const gpu::ShaderReflection box = gpu::reflectSpirv(gpu::embeddedSpirv("box_vert"));
    EXPECT_EQ(box.stage, VK_SHADER_STAGE_VERTEX_BIT);
    EXPECT_TRUE(box.bindings.empty());
    EXPECT_EQ(box.pushConstantSize, sizeof(gpudata::DrawConstants));

    const gpu::ShaderReflection raster = gpu::reflectSpirv(gpu::embeddedSpirv("draw_raster"));
    EXPECT_EQ(raster.stage, VK_SHADER_STAGE_COMPUTE_BIT);
    EXPECT_EQ(raster.bindings.size(), 3u);
    EXPECT_EQ(raster.pushConstantSize, sizeof(gpudata::DrawConstants));
    const gpu::ShaderReflection resolve = gpu::reflectSpirv(gpu::embeddedSpirv("draw_resolve"));
    EXPECT_EQ(resolve.stage, VK_SHADER_STAGE_COMPUTE_BIT);
    EXPECT_EQ(resolve.bindings, (std::vector<VkDescriptorType>{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                               VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}));
    EXPECT_EQ(resolve.pushConstantSize, sizeof(gpudata::DrawConstants));
    const gpu::ShaderReflection overTarget = gpu::reflectSpirv(gpu::embeddedSpirv("box_over_target_frag"));
    EXPECT_EQ(overTarget.stage, VK_SHADER_STAGE_FRAGMENT_BIT);
    EXPECT_EQ(overTarget.bindings.size(), 1u);
}

TEST(SpirvReflection, RejectsGarbage) {
    const std::vector<uint32_t> junk = {1, 2, 3, 4, 5, 6};
    EXPECT_THROW(gpu::reflectSpirv(junk), gpu::Error);
    EXPECT_TRUE(gpu::embeddedSpirv("no such shader").empty());
}

// Ids as onesweep.comp and grid_search_coherent.comp (through rules.glsl) declare them (layout(constant_id =
// N)).
TEST(SpirvReflection, FindsSpecializationConstantsByName) {
    const gpu::ShaderReflection onesweep = gpu::reflectSpirv(gpu::embeddedSpirv("sort_onesweep"));
    const std::vector<uint32_t> ids = gpu::specConstantIds(
        "sort_onesweep", onesweep,
        {{gpu::localSizeX, 512}, {"KEYS_PER_THREAD", 8}, {"SPIN_LIMIT", 1}, {"LOOKBACK_WINDOW", 4}});
    EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 3, 5}));
    EXPECT_EQ(onesweep.specConstants.size(), 5u); // the local size's has no name
    // A bool (OpSpecConstantFalse) is found as well.
    const gpu::ShaderReflection search = gpu::reflectSpirv(gpu::embeddedSpirv("grid_search_coherent"));
    EXPECT_EQ(gpu::specConstantIds("grid_search_coherent", search, {{"COHESION_IS_ALIGNMENT", 1}}),
              std::vector<uint32_t>{1});
}

TEST(SpirvReflection, RefusesUnknownAndRepeatedSpecializationConstants) {
    const gpu::ShaderReflection scan = gpu::reflectSpirv(gpu::embeddedSpirv("sort_scan"));
    EXPECT_THROW(gpu::specConstantIds("sort_scan", scan, {{"KEYS_PER_THREAD", 8}}), gpu::Error);
    EXPECT_THROW(gpu::specConstantIds("sort_scan", scan, {{"items", 4}}), gpu::Error); // names are exact
    EXPECT_THROW(gpu::specConstantIds("sort_scan", scan, {{"ITEMS", 4}, {"ITEMS", 2}}), gpu::Error);
    // A vertex shader has no local size to specialize.
    const gpu::ShaderReflection box = gpu::reflectSpirv(gpu::embeddedSpirv("box_vert"));
    EXPECT_THROW(gpu::specConstantIds("box_vert", box, {{gpu::localSizeX, 64}}), gpu::Error);
    EXPECT_EQ(gpu::specConstantIds("sort_scan", scan, {{"ITEMS", 4}}), std::vector<uint32_t>{1});
}
