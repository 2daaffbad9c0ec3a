#pragma once
// Instance, validation, physical-device choice, device and its one queue.

#include "gpu/check.h"
#include "gpu/shader_compiler.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpu {

struct ContextOptions {
    bool validation = false;                     // the Khronos validation layer, with synchronization checks
    int deviceIndex = -1;                        // index in enumeration order; -1 picks the best
    bool quietDeviceNote = false;                // don't print the "running on a CPU driver" note
    bool pipelineStatistics = false;             // print the driver's statistics of every compute pipeline
    std::vector<const char*> instanceExtensions; // such as those GLFW needs for surfaces
    std::function<VkSurfaceKHR(VkInstance)> createSurface; // set for the windowed demo
    // --shaders: the folder, and every module compiled from it (compileAllModules), used in place of
    // the embedded modules
    std::string shaderFolder;
    std::vector<SourceModule> shaderModules;
};

// Which request of ContextOptions a refusal is about, for the caller to name it as the user gave it.
enum class ContextOption { Validation, Device, PipelineStatistics };

// A request of ContextOptions the system or the device cannot meet: which one, and why in words that
// follow its name ("5: there are only 2 devices ...").
struct OptionRefused : Unsupported {
    OptionRefused(ContextOption option, const std::string& why) : Unsupported(why), option(option) {}
    ContextOption option;
};

struct DeviceSummary {
    uint32_t index = 0;
    std::string name;
    std::string type; // "discrete GPU", "CPU", ...
    std::string api;  // "1.3.230"
    std::string driver;
    uint32_t subgroupSize = 0;
    VkDeviceSize localMemory = 0;
    bool usable = false;
    std::string whyNot; // why the device cannot be used, when it cannot
    int rank = 0;       // lower is preferred
};

struct ProgramCache; // program.h: the compute programs a context keeps

struct Context {
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE; // graphics and compute, and present when there is a surface
    uint32_t queueFamily = 0;
    VkCommandPool oneShotPool = VK_NULL_HANDLE; // for blocking uploads and readbacks
    VkFence oneShotFence = VK_NULL_HANDLE;
    // The pool's command buffers that are done, reused by the next one-off submissions: allocating
    // and freeing one each time leaves memory behind in the validation layer (Debian 12's keeps
    // about 3 KB for each), which a long run would pile up.
    std::shared_ptr<std::vector<VkCommandBuffer>> idleOneShots;

    VkPhysicalDeviceProperties properties{};
    VkPhysicalDeviceMemoryProperties memoryProperties{};
    std::string driverName; // from VkPhysicalDeviceDriverProperties
    std::string driverInfo;
    bool isCpu = false; // a CPU driver, such as lavapipe

    uint32_t subgroupSize = 0; // the device's default subgroup size
    uint32_t minSubgroupSize = 0;
    uint32_t maxSubgroupSize = 0;
    bool computeSubgroupSizeControl = false; // compute pipelines can pin their subgroup size
    uint32_t maxComputeWorkgroupSubgroups = 0;
    bool largePoints = false;             // points wider than a pixel
    bool shaderFloat16 = false;           // float16 arithmetic in shaders
    bool bufferInt64Atomics = false;      // 64-bit integers and their atomics on storage buffers
    bool imageWriteWithoutFormat = false; // storage image stores that convert to the view's format
    bool pipelineStatistics = false;      // VK_KHR_pipeline_executable_properties enabled and asked for
    uint32_t vertexStrideAlignment = 1;   // 4 on MoltenVK, a portability implementation; 1 allows any stride

    uint32_t timestampValidBits = 0; // 0 means the queue cannot write timestamps
    double timestampPeriodNs = 0;
    VkDeviceSize deviceLocalBytes = 0; // the largest device-local heap
    bool validation = false;
    std::shared_ptr<ProgramCache> keptPrograms; // programs, kept until destroyContext
};

Context createContext(const ContextOptions& options);
void destroyContext(Context& context);

// Every physical device, in enumeration order (what --device N indexes). Needs a bare instance,
// so it creates and destroys one.
std::vector<DeviceSummary> listDevices();

// Validation messages of severity error seen since start-up (all contexts).
uint32_t validationErrorCount();

// A command buffer for a blocking one-off submission (uploads, readbacks, tests); one-offs may nest.
VkCommandBuffer beginOneShot(const Context& context);
void endOneShot(const Context& context, VkCommandBuffer cmd); // submits and waits
// Ends `cmd`, submits it alone, waits on `fence` and resets it for the next submission.
void submitAndWait(const Context& context, VkCommandBuffer cmd, VkFence fence);

std::string apiVersionString(uint32_t version);

} // namespace gpu
