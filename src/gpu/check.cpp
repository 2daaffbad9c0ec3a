#include "gpu/check.h"

namespace gpu {

const char* resultString(VkResult result) {
    switch (result) {
#define CASE(r)                                                                                              \
    case r: return #r;
        CASE(VK_SUCCESS)
        CASE(VK_NOT_READY)
        CASE(VK_TIMEOUT)
        CASE(VK_EVENT_SET)
        CASE(VK_EVENT_RESET)
        CASE(VK_INCOMPLETE)
        CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
        CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        CASE(VK_ERROR_INITIALIZATION_FAILED)
        CASE(VK_ERROR_DEVICE_LOST)
        CASE(VK_ERROR_MEMORY_MAP_FAILED)
        CASE(VK_ERROR_LAYER_NOT_PRESENT)
        CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
        CASE(VK_ERROR_FEATURE_NOT_PRESENT)
        CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
        CASE(VK_ERROR_TOO_MANY_OBJECTS)
        CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
        CASE(VK_ERROR_FRAGMENTED_POOL)
        CASE(VK_ERROR_UNKNOWN)
        CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
        CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        CASE(VK_ERROR_FRAGMENTATION)
        CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
        CASE(VK_PIPELINE_COMPILE_REQUIRED)
        CASE(VK_ERROR_SURFACE_LOST_KHR)
        CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        CASE(VK_SUBOPTIMAL_KHR)
        CASE(VK_ERROR_OUT_OF_DATE_KHR)
        CASE(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR)
        CASE(VK_ERROR_VALIDATION_FAILED_EXT)
        CASE(VK_ERROR_INVALID_SHADER_NV)
#undef CASE
    default: return "VK_RESULT_UNKNOWN";
    }
}

void failVk(const char* call, VkResult result, const char* file, int line) {
    std::string message = std::string(call) + " failed with " + resultString(result) + " at " + file + ":" +
                          std::to_string(line);
    if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY)
        throw OutOfMemory(message);
    throw Error(message);
}

void failCheck(const char* what, const char* file, int line) {
    throw Error(std::string("check failed: ") + what + " at " + file + ":" + std::to_string(line));
}

} // namespace gpu
