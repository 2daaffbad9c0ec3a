#pragma once
// SPIR-V modules compiled from shaders/ at build time and embedded in the binary, each with the
// source and definitions it was compiled from (shaders/shaders.cmake).

#include <cstdint>
#include <span>
#include <string_view>

namespace gpu {

struct EmbeddedShader {
    std::string_view name; // as C++ asks for it: "key_starts_reorder"
    std::span<const uint32_t> spirv;
    std::string_view source;  // relative to shaders/: "sim/key_starts.comp"
    std::string_view defines; // separated by spaces: "REORDER", "RANK REORDER", or empty
};

std::span<const EmbeddedShader> embeddedShaders();

// The module called `name`, or nullptr.
const EmbeddedShader* embeddedShader(std::string_view name);

// The SPIR-V of the module called `name`, or an empty span.
std::span<const uint32_t> embeddedSpirv(std::string_view name);

// The shaders/ folder of the source tree the binary was built from (it may since have moved).
std::string_view builtShaderFolder();

} // namespace gpu
