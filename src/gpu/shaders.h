#pragma once
// SPIR-V modules compiled from shaders/ at build time and embedded in the binary.

#include <cstdint>
#include <span>
#include <string_view>

namespace gpu {

// The module called `name` in shaders/shaders.cmake, or an empty span.
std::span<const uint32_t> embeddedSpirv(std::string_view name);

} // namespace gpu
