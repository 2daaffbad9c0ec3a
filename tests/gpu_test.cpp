#include "gpu_test.h"

#include "gpu/image.h"
#include "gpu/program.h"

#include <cstdlib>
#include <memory>
#include <string>

namespace test {
namespace {

struct ContextHolder {
    gpu::Context context;
    ContextHolder() { context = gpu::createContext({.validation = true, .quietDeviceNote = true}); }
    ~ContextHolder() { gpu::destroyContext(context); }
};

// Errors a test provoked on purpose, to show that validation runs: not counted against the run.
uint32_t provokedErrors = 0;

std::unique_ptr<ContextHolder>& holder() {
    static std::unique_ptr<ContextHolder> h;
    return h;
}

// Destroys the context after the last test, then fails the run if that produced validation errors.
class ContextEnvironment : public ::testing::Environment {
  public:
    void TearDown() override {
        holder().reset();
        EXPECT_EQ(gpu::validationErrorCount(), provokedErrors)
            << "validation errors were reported during the run";
    }
};

const bool registered = (::testing::AddGlobalTestEnvironment(new ContextEnvironment), true);

// Validation is on and reaches the tests' counter, however the layer was enabled (by the program, or
// under Wine by the host loader's environment): a buffer with no usage is invalid, and said to be.
TEST(Validation, AnInvalidCallIsReported) {
    const gpu::Context& ctx = gpuContext();
    const uint32_t before = gpu::validationErrorCount();
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = 256;
    info.usage = 0; // VUID-VkBufferCreateInfo-usage-requiredbitmask
    VkBuffer buffer = VK_NULL_HANDLE;
    const VkResult result = vkCreateBuffer(ctx.device, &info, nullptr, &buffer);
    if (result == VK_SUCCESS) vkDestroyBuffer(ctx.device, buffer, nullptr);
    const uint32_t provoked = gpu::validationErrorCount() - before;
    provokedErrors += provoked;
    EXPECT_GE(provoked, 1u) << "validation did not report a buffer created without usage";
}

// The context keeps each compute program it creates and hands out the same one when asked again,
// destroyProgram leaving it; one-off command buffers are reused, nested ones apart.
TEST(Context, KeepsEachComputeProgramAndReusesOneOffCommandBuffers) {
    const gpu::Context& ctx = gpuContext();
    const uint64_t compiledBefore = gpu::programCounts(ctx).compiled;
    gpu::Program a = gpu::createComputeProgram(ctx, "grid_index", {{gpu::localSizeX, 64}});
    const VkPipeline kept = a.pipeline;
    gpu::destroyProgram(ctx, a);
    gpu::Program b = gpu::createComputeProgram(ctx, "grid_index", {{gpu::localSizeX, 64}});
    EXPECT_EQ(b.pipeline, kept);
    // Still alive after its first owner let it go: binding a destroyed pipeline is a validation error,
    // which fails the run.
    const uint32_t errorsBefore = gpu::validationErrorCount();
    runCommands(
        [&](VkCommandBuffer cmd) { vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b.pipeline); });
    EXPECT_EQ(gpu::validationErrorCount(), errorsBefore) << "the kept pipeline was destroyed";
    gpu::Program other = gpu::createComputeProgram(ctx, "grid_index", {{gpu::localSizeX, 32}});
    EXPECT_NE(other.pipeline, kept);
    EXPECT_LE(gpu::programCounts(ctx).compiled - compiledBefore, 2u);
    gpu::destroyProgram(ctx, b);
    gpu::destroyProgram(ctx, other);

    VkCommandBuffer first = gpu::beginOneShot(ctx);
    gpu::endOneShot(ctx, first);
    VkCommandBuffer again = gpu::beginOneShot(ctx);
    VkCommandBuffer nested = gpu::beginOneShot(ctx);
    EXPECT_EQ(again, first);
    EXPECT_NE(nested, again);
    gpu::endOneShot(ctx, nested);
    gpu::endOneShot(ctx, again);
}

// Buffers and images get their memory from one function, which turns a device without room into
// gpu::OutOfMemory for both (one line, "out of GPU memory", and exit code 2). Here the device's heaps
// are said to hold 1 MiB, so that a 4 MiB image or buffer is refused before the driver is asked; each
// is left destroyed and untallied.
TEST(Memory, AnImageOrBufferWithoutRoomIsOutOfMemory) {
    gpu::Context small = gpuContext();
    for (uint32_t h = 0; h < small.memoryProperties.memoryHeapCount; ++h)
        small.memoryProperties.memoryHeaps[h].size = 1 << 20;
    const gpu::MemoryTally before = gpu::allocatedMemory();
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    try {
        gpu::Image image = gpu::createImage(small, 1024, 1024, VK_FORMAT_R8G8B8A8_UNORM, usage);
        gpu::destroyImage(small, image);
        ADD_FAILURE() << "a 4 MiB image was made in a 1 MiB heap";
    } catch (const gpu::OutOfMemory& e) {
        EXPECT_NE(std::string(e.what()).find("no room for a 1024x1024 image"), std::string::npos) << e.what();
    }
    EXPECT_THROW(gpu::createBuffer(small, 4 << 20, gpu::storageUsage, gpu::MemoryUse::Device),
                 gpu::OutOfMemory);
    EXPECT_EQ(gpu::allocatedMemory().bytes, before.bytes);
    EXPECT_EQ(gpu::allocatedMemory().allocations, before.allocations);
    // Where there is room the same sizes are made, tallied and given back.
    gpu::Image image = gpu::createImage(gpuContext(), 1024, 1024, VK_FORMAT_R8G8B8A8_UNORM, usage);
    EXPECT_GE(gpu::allocatedMemory().bytes, before.bytes + (4 << 20));
    gpu::destroyImage(gpuContext(), image);
    EXPECT_EQ(gpu::allocatedMemory().bytes, before.bytes);
}

} // namespace

const gpu::Context& gpuContext() {
    if (!holder()) holder() = std::make_unique<ContextHolder>();
    return holder()->context;
}

void GpuTest::SetUp() {
    const gpu::Context& context = gpuContext();
    // The runs at other subgroup sizes (tests/CMakeLists.txt) ask the driver for one through its
    // environment; a driver that ignored the request would pass them at its default size.
    if (const char* expected = std::getenv("VKBOIDS_TEST_SUBGROUP_SIZE")) {
        ASSERT_EQ(gpu::preferredSubgroupSize(context), std::stoul(expected))
            << "the device's subgroup size is not the one this run asked for";
    }
    errorsBefore = gpu::validationErrorCount();
}

void GpuTest::TearDown() {
    EXPECT_EQ(gpu::validationErrorCount(), errorsBefore) << "Vulkan validation errors during this test";
}

void runCommands(const std::function<void(VkCommandBuffer)>& record) {
    VkCommandBuffer cmd = gpu::beginOneShot(gpuContext());
    record(cmd);
    gpu::endOneShot(gpuContext(), cmd);
}

} // namespace test
