#pragma once
// Checks that stay on in every build: a failed Vulkan call or a broken invariant throws gpu::Error,
// which the command-line entry turns into one line on stderr and a non-zero exit.

#include <volk.h>

#include <stdexcept>
#include <string>

namespace gpu {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// An Error raised by the device running out of memory, so callers can say "too many boids".
struct OutOfMemory : Error {
    using Error::Error;
};

// A request the device cannot meet as asked (a device index, a work-group size): the user's input,
// reported like other bad input.
struct Unsupported : Error {
    using Error::Error;
};

const char* resultString(VkResult result);
[[noreturn]] void failVk(const char* call, VkResult result, const char* file, int line);
[[noreturn]] void failCheck(const char* what, const char* file, int line);

} // namespace gpu

#define VK_CHECK(call)                                                                                       \
    do {                                                                                                     \
        VkResult vkCheckResult = (call);                                                                     \
        if (vkCheckResult < 0) ::gpu::failVk(#call, vkCheckResult, __FILE__, __LINE__);                      \
    } while (0)

#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        if (!(cond)) ::gpu::failCheck(#cond, __FILE__, __LINE__);                                            \
    } while (0)
