// VK_KHR_portability_subset (MoltenVK) is still a provisional extension in the headers.
#define VK_ENABLE_BETA_EXTENSIONS
#include "gpu/context.h"
#include "gpu/program.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <utility>

namespace gpu {
namespace {

std::atomic<uint32_t> validationErrors{0};
// Set while validationAnswers runs, so that the error it provokes on purpose is neither counted nor
// shown.
std::atomic<bool> probing{false};
std::atomic<uint32_t> probeAnswers{0};

const char* const validationLayer = "VK_LAYER_KHRONOS_validation";
const char* const noValidationLayer =
    "needs the Khronos validation layer (the Vulkan SDK; on Debian, vulkan-validationlayers)";

VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    const bool error = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    if (probing) {
        if (error) probeAnswers++;
        return VK_FALSE;
    }
    if (error) validationErrors++;
    std::fprintf(stderr, "validation %s: %s\n", error ? "error" : "warning", data->pMessage);
    return VK_FALSE;
}

// Under Wine the host's loader runs the layer beneath winevulkan when its environment names it
// (VK_INSTANCE_LAYERS), yet lists no layers to the program. Where the layer was not listed, one
// invalid call (a buffer without usage) shows whether it answers.
bool validationAnswers(VkDevice device) {
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = 16;
    info.usage = 0; // VUID-VkBufferCreateInfo-usage-requiredbitmask
    probeAnswers = 0;
    probing = true;
    VkBuffer buffer = VK_NULL_HANDLE;
    if (vkCreateBuffer(device, &info, nullptr, &buffer) == VK_SUCCESS)
        vkDestroyBuffer(device, buffer, nullptr);
    probing = false;
    return probeAnswers > 0;
}

void initVolk() {
    static bool done = false;
    if (done) return;
    if (volkInitialize() != VK_SUCCESS)
        throw Error("no Vulkan loader found: install a Vulkan driver (on Debian, libvulkan1 and "
                    "mesa-vulkan-drivers, which provides lavapipe)");
    done = true;
}

bool hasLayer(const char* name) {
    uint32_t count = 0;
    VK_CHECK(vkEnumerateInstanceLayerProperties(&count, nullptr));
    std::vector<VkLayerProperties> layers(count);
    VK_CHECK(vkEnumerateInstanceLayerProperties(&count, layers.data()));
    for (const auto& l : layers)
        if (std::strcmp(l.layerName, name) == 0) return true;
    return false;
}

bool hasInstanceExtension(const char* name) {
    uint32_t count = 0;
    VK_CHECK(vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr));
    std::vector<VkExtensionProperties> extensions(count);
    VK_CHECK(vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data()));
    for (const auto& e : extensions)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

// With validation, `layerListed` says whether the program enabled the layer itself.
VkInstance createInstance(bool validation, std::vector<const char*> extensions, bool* layerListed = nullptr) {
    initVolk();
    // Wine's loader reports version 1.0 whatever the host's loader is, so a reported 1.0 is let through
    // here and checked by creating the instance: a real 1.0 loader refuses an instance for 1.3 with
    // VK_ERROR_INCOMPATIBLE_DRIVER.
    const uint32_t loader = volkGetInstanceVersion();
    if (loader != VK_API_VERSION_1_0 && loader < VK_API_VERSION_1_3)
        throw Error("the Vulkan loader is older than 1.3 (" + apiVersionString(loader) + ")");
    if (hasInstanceExtension(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME))
        extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vkboids";
    app.apiVersion = VK_API_VERSION_1_3;

    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    if (hasInstanceExtension(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME))
        info.flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;

    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    if (validation) {
        // A layer that is not listed may still run beneath winevulkan (see validationAnswers) and
        // report through debug utils.
        const bool listed = hasLayer(validationLayer);
        if (!listed && !hasInstanceExtension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
            throw OptionRefused(ContextOption::Validation, noValidationLayer);
        if (layerListed) *layerListed = listed;
        info.enabledLayerCount = listed ? 1 : 0;
        info.ppEnabledLayerNames = &validationLayer;
        info.pNext = &features;
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }
    info.enabledExtensionCount = uint32_t(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();

    VkInstance instance = VK_NULL_HANDLE;
    const VkResult created = vkCreateInstance(&info, nullptr, &instance);
    if (created == VK_ERROR_INCOMPATIBLE_DRIVER)
        throw Error(loader == VK_API_VERSION_1_0 ? "no Vulkan 1.3 driver (the loader or the driver is older)"
                                                 : "no compatible Vulkan driver found");
    VK_CHECK(created);
    volkLoadInstanceOnly(instance);
    return instance;
}

const char* typeName(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
    }
}

int typeRank(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 4;
    default: return 3;
    }
}

bool hasDeviceExtension(VkPhysicalDevice device, const char* name) {
    uint32_t count = 0;
    VK_CHECK(vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr));
    std::vector<VkExtensionProperties> extensions(count);
    VK_CHECK(vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data()));
    for (const auto& e : extensions)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

// The first family with graphics and compute (and present, when asked); UINT32_MAX if none.
uint32_t findQueueFamily(VkPhysicalDevice device, VkSurfaceKHR surface) {
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    for (uint32_t i = 0; i < count; ++i) {
        const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        if ((families[i].queueFlags & need) != need) continue;
        if (surface) {
            VkBool32 present = VK_FALSE;
            VK_CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(device, i, surface, &present));
            if (!present) continue;
        }
        return i;
    }
    return UINT32_MAX;
}

// The names of the Vulkan 1.3 features createContext enables that the device lacks, or "" when it has
// them all.
std::string missingVulkan13Features(const VkPhysicalDeviceVulkan13Features& f) {
    std::string missing;
    const std::pair<VkBool32, const char*> needed[] = {{f.synchronization2, "synchronization2"},
                                                       {f.dynamicRendering, "dynamicRendering"},
                                                       {f.subgroupSizeControl, "subgroupSizeControl"},
                                                       {f.computeFullSubgroups, "computeFullSubgroups"},
                                                       {f.maintenance4, "maintenance4"}};
    for (const auto& [have, name] : needed)
        if (!have) missing += (missing.empty() ? "" : ", ") + std::string(name);
    return missing;
}

DeviceSummary summarize(VkPhysicalDevice device, uint32_t index, VkSurfaceKHR surface) {
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
                                                &driver};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
    vkGetPhysicalDeviceProperties2(device, &props);
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(device, &memory);

    DeviceSummary s;
    s.index = index;
    s.name = props.properties.deviceName;
    s.type = typeName(props.properties.deviceType);
    s.api = apiVersionString(props.properties.apiVersion);
    s.driver = std::string(driver.driverName) + " " + driver.driverInfo;
    s.subgroupSize = subgroup.subgroupSize;
    s.rank = typeRank(props.properties.deviceType);
    for (uint32_t h = 0; h < memory.memoryHeapCount; ++h)
        if (memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            s.localMemory = std::max(s.localMemory, memory.memoryHeaps[h].size);

    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f13};
    vkGetPhysicalDeviceFeatures2(device, &features);
    const VkSubgroupFeatureFlags needOps = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                           VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
                                           VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
    if (props.properties.apiVersion < VK_API_VERSION_1_3)
        s.whyNot = "Vulkan " + s.api + " (1.3 needed)";
    else if (const std::string missing = missingVulkan13Features(f13); !missing.empty())
        s.whyNot = "no " + missing + " (Vulkan 1.3 features vkboids needs)";
    else if (!(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
             (subgroup.supportedOperations & needOps) != needOps)
        s.whyNot = "compute shaders lack basic/vote/arithmetic/ballot/shuffle subgroup operations";
    else if (!hasDeviceExtension(device, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
        s.whyNot = "no VK_KHR_push_descriptor";
    else if (surface && !hasDeviceExtension(device, VK_KHR_SWAPCHAIN_EXTENSION_NAME))
        s.whyNot = "no VK_KHR_swapchain";
    else if (findQueueFamily(device, surface) == UINT32_MAX)
        s.whyNot =
            surface ? "no queue with graphics, compute and present" : "no queue with graphics and compute";
    s.usable = s.whyNot.empty();
    return s;
}

// A portability implementation (MoltenVK on macOS) must have its subset extension enabled. vkboids
// uses none of the subset's features, and of its limits only the vertex stride alignment, which is
// checked for each pipeline. Returns that alignment, or 0 for a device that is not a portability
// implementation.
uint32_t portabilityStrideAlignment(VkPhysicalDevice device) {
    if (!hasDeviceExtension(device, VK_KHR_PORTABILITY_SUBSET_EXTENSION_NAME)) return 0;
    VkPhysicalDevicePortabilitySubsetPropertiesKHR portability{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PORTABILITY_SUBSET_PROPERTIES_KHR};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &portability};
    vkGetPhysicalDeviceProperties2(device, &props);
    return std::max(1u, portability.minVertexInputBindingStrideAlignment);
}

std::vector<VkPhysicalDevice> enumerate(VkInstance instance) {
    uint32_t count = 0;
    VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, nullptr));
    std::vector<VkPhysicalDevice> devices(count);
    VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, devices.data()));
    return devices;
}

} // namespace

std::string apiVersionString(uint32_t v) {
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
           std::to_string(VK_API_VERSION_PATCH(v));
}

uint32_t validationErrorCount() {
    return validationErrors.load();
}

std::vector<DeviceSummary> listDevices() {
    VkInstance instance = createInstance(false, {});
    std::vector<DeviceSummary> out;
    std::vector<VkPhysicalDevice> devices = enumerate(instance);
    for (uint32_t i = 0; i < devices.size(); ++i) out.push_back(summarize(devices[i], i, VK_NULL_HANDLE));
    vkDestroyInstance(instance, nullptr);
    return out;
}

namespace {

VkDebugUtilsMessengerEXT createMessenger(VkInstance instance) {
    VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = onValidationMessage;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDebugUtilsMessengerEXT(instance, &info, nullptr, &messenger));
    return messenger;
}

// The device asked for by index, or else the usable one of the best type.
const DeviceSummary& chooseDevice(const ContextOptions& options,
                                  const std::vector<DeviceSummary>& summaries) {
    if (options.deviceIndex >= 0) {
        if (options.deviceIndex >= int(summaries.size()))
            throw OptionRefused(ContextOption::Device,
                                std::to_string(options.deviceIndex) + ": there " +
                                    (summaries.size() == 1
                                         ? "is only 1 device"
                                         : "are only " + std::to_string(summaries.size()) + " devices") +
                                    " (devices count from 0)");
        const DeviceSummary& chosen = summaries[options.deviceIndex];
        if (!chosen.usable)
            throw OptionRefused(ContextOption::Device, std::to_string(options.deviceIndex) + " (" +
                                                           chosen.name +
                                                           ") cannot run vkboids: " + chosen.whyNot);
        return chosen;
    }
    const DeviceSummary* chosen = nullptr;
    for (const auto& s : summaries)
        if (s.usable && (!chosen || s.rank < chosen->rank)) chosen = &s;
    if (!chosen) throw Error("no usable Vulkan device: " + summaries[0].name + ": " + summaries[0].whyNot);
    return *chosen;
}

// What the context tells of the chosen device: properties, subgroup sizes, memory, timestamps.
void readDeviceProperties(Context& ctx) {
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceSubgroupSizeControlProperties sizeControl{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES, &driver};
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
                                                &sizeControl};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
    vkGetPhysicalDeviceProperties2(ctx.physicalDevice, &props);
    ctx.properties = props.properties;
    ctx.driverName = driver.driverName;
    ctx.driverInfo = driver.driverInfo;
    ctx.isCpu = props.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    ctx.subgroupSize = subgroup.subgroupSize;
    ctx.minSubgroupSize = sizeControl.minSubgroupSize;
    ctx.maxSubgroupSize = sizeControl.maxSubgroupSize;
    ctx.computeSubgroupSizeControl = sizeControl.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT;
    ctx.maxComputeWorkgroupSubgroups = sizeControl.maxComputeWorkgroupSubgroups;
    ctx.timestampPeriodNs = props.properties.limits.timestampPeriod;
    vkGetPhysicalDeviceMemoryProperties(ctx.physicalDevice, &ctx.memoryProperties);

    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(ctx.physicalDevice, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(ctx.physicalDevice, &familyCount, families.data());
    ctx.timestampValidBits = families[ctx.queueFamily].timestampValidBits;
}

// The device extensions to enable: those vkboids needs, and those the options and the device call
// for. Each optional extension chosen is noted in the context (vertexStrideAlignment,
// pipelineStatistics), where chainFeatures reads it.
std::vector<const char*> chooseDeviceExtensions(Context& ctx, const ContextOptions& options) {
    std::vector<const char*> extensions = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    if (ctx.surface) extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    if (const uint32_t alignment = portabilityStrideAlignment(ctx.physicalDevice)) {
        extensions.push_back(VK_KHR_PORTABILITY_SUBSET_EXTENSION_NAME);
        ctx.vertexStrideAlignment = alignment;
    }
    if (options.pipelineStatistics) {
        if (!hasDeviceExtension(ctx.physicalDevice, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME))
            throw OptionRefused(
                ContextOption::PipelineStatistics,
                std::string(ctx.properties.deviceName) +
                    " does not report pipeline statistics (VK_KHR_pipeline_executable_properties)");
        extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
        ctx.pipelineStatistics = true;
    }
    return extensions;
}

// The pNext chain vkCreateDevice reads, filled in place (its structs point at each other).
struct FeatureChain {
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executableInfo{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
};

// The features vkboids needs, and the optional ones the device has (noted in the context).
void chainFeatures(Context& ctx, FeatureChain& chain) {
    VkPhysicalDeviceVulkan13Features& f13 = chain.f13;
    f13.synchronization2 = VK_TRUE;
    f13.subgroupSizeControl = VK_TRUE;
    f13.computeFullSubgroups = VK_TRUE;
    f13.maintenance4 = VK_TRUE;     // for LocalSizeId, which takes local sizes from specialization constants
    f13.dynamicRendering = VK_TRUE; // for vkCmdBeginRendering, so no render pass or framebuffer objects
    if (ctx.pipelineStatistics) {
        chain.executableInfo.pipelineExecutableInfo = VK_TRUE;
        f13.pNext = &chain.executableInfo;
    }
    VkPhysicalDeviceVulkan12Features& f12 = chain.f12;
    f12.pNext = &f13;
    {
        VkPhysicalDeviceVulkan12Features have12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
        VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &have12};
        vkGetPhysicalDeviceFeatures2(ctx.physicalDevice, &have);
        f12.shaderFloat16 = have12.shaderFloat16;
        ctx.shaderFloat16 = have12.shaderFloat16;
        f12.shaderBufferInt64Atomics = have12.shaderBufferInt64Atomics;
        ctx.bufferInt64Atomics = have12.shaderBufferInt64Atomics && have.features.shaderInt64;
    }
    VkPhysicalDeviceFeatures2& features = chain.features;
    features.pNext = &f12;
    VkPhysicalDeviceFeatures available{};
    vkGetPhysicalDeviceFeatures(ctx.physicalDevice, &available);
    features.features.largePoints = available.largePoints;
    features.features.shaderInt64 = ctx.bufferInt64Atomics;
    features.features.shaderStorageImageWriteWithoutFormat = available.shaderStorageImageWriteWithoutFormat;
    ctx.imageWriteWithoutFormat = available.shaderStorageImageWriteWithoutFormat;
    ctx.largePoints = available.largePoints;
}

void createDevice(Context& ctx, const std::vector<const char*>& extensions,
                  const VkPhysicalDeviceFeatures2& features) {
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = ctx.queueFamily;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;

    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    info.enabledExtensionCount = uint32_t(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    VK_CHECK(vkCreateDevice(ctx.physicalDevice, &info, nullptr, &ctx.device));
    volkLoadDevice(ctx.device);
}

// The pool and fence of beginOneShot/endOneShot.
void createOneShot(Context& ctx) {
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = ctx.queueFamily;
    VK_CHECK(vkCreateCommandPool(ctx.device, &poolInfo, nullptr, &ctx.oneShotPool));
    VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK_CHECK(vkCreateFence(ctx.device, &fenceInfo, nullptr, &ctx.oneShotFence));
    ctx.idleOneShots = std::make_shared<std::vector<VkCommandBuffer>>();
}

} // namespace

Context createContext(const ContextOptions& options) {
    Context ctx;
    ctx.validation = options.validation;
    bool layerListed = true;
    ctx.instance = createInstance(options.validation, options.instanceExtensions, &layerListed);
    if (options.validation) ctx.messenger = createMessenger(ctx.instance);
    if (options.createSurface) ctx.surface = options.createSurface(ctx.instance);

    std::vector<VkPhysicalDevice> devices = enumerate(ctx.instance);
    if (devices.empty()) throw Error("no Vulkan device found (install mesa-vulkan-drivers for lavapipe)");
    std::vector<DeviceSummary> summaries;
    for (uint32_t i = 0; i < devices.size(); ++i) summaries.push_back(summarize(devices[i], i, ctx.surface));
    const DeviceSummary& chosen = chooseDevice(options, summaries);
    ctx.physicalDevice = devices[chosen.index];
    ctx.queueFamily = findQueueFamily(ctx.physicalDevice, ctx.surface);
    ctx.deviceLocalBytes = chosen.localMemory;
    readDeviceProperties(ctx);
    if (ctx.isCpu && !options.quietDeviceNote)
        std::fprintf(stderr, "vkboids: note: running on %s, a CPU Vulkan driver (no GPU found)\n",
                     ctx.properties.deviceName);

    const std::vector<const char*> extensions = chooseDeviceExtensions(ctx, options);
    FeatureChain chain;
    chainFeatures(ctx, chain);
    createDevice(ctx, extensions, chain.features);
    if (options.validation && !layerListed && !validationAnswers(ctx.device)) {
        destroyContext(ctx);
        throw OptionRefused(ContextOption::Validation, noValidationLayer);
    }
    vkGetDeviceQueue(ctx.device, ctx.queueFamily, 0, &ctx.queue);
    createOneShot(ctx);
    ctx.keptPrograms = createProgramCache();
    if (!options.shaderFolder.empty()) useSourceModules(ctx, options.shaderFolder, options.shaderModules);
    return ctx;
}

void destroyContext(Context& ctx) {
    if (ctx.device) {
        vkDeviceWaitIdle(ctx.device);
        destroyKeptPrograms(ctx);
        vkDestroyFence(ctx.device, ctx.oneShotFence, nullptr);
        vkDestroyCommandPool(ctx.device, ctx.oneShotPool, nullptr);
        vkDestroyDevice(ctx.device, nullptr);
    }
    if (ctx.surface) vkDestroySurfaceKHR(ctx.instance, ctx.surface, nullptr);
    if (ctx.messenger) vkDestroyDebugUtilsMessengerEXT(ctx.instance, ctx.messenger, nullptr);
    if (ctx.instance) vkDestroyInstance(ctx.instance, nullptr);
    ctx = Context{};
}

VkCommandBuffer beginOneShot(const Context& ctx) {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (!ctx.idleOneShots->empty()) {
        cmd = ctx.idleOneShots->back();
        ctx.idleOneShots->pop_back();
    } else {
        VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        alloc.commandPool = ctx.oneShotPool;
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = 1;
        VK_CHECK(vkAllocateCommandBuffers(ctx.device, &alloc, &cmd));
    }
    // Beginning resets a buffer used before (its pool allows it).
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
    return cmd;
}

void submitAndWait(const Context& ctx, VkCommandBuffer cmd, VkFence fence) {
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkCommandBufferSubmitInfo cmdInfo{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cmdInfo.commandBuffer = cmd;
    VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    submit.commandBufferInfoCount = 1;
    submit.pCommandBufferInfos = &cmdInfo;
    VK_CHECK(vkQueueSubmit2(ctx.queue, 1, &submit, fence));
    VK_CHECK(vkWaitForFences(ctx.device, 1, &fence, VK_TRUE, UINT64_MAX));
    VK_CHECK(vkResetFences(ctx.device, 1, &fence));
}

void endOneShot(const Context& ctx, VkCommandBuffer cmd) {
    submitAndWait(ctx, cmd, ctx.oneShotFence);
    ctx.idleOneShots->push_back(cmd);
}

} // namespace gpu
