#include "gpu/shaders.h"

namespace gpu {

const EmbeddedShader* embeddedShader(std::string_view name) {
    for (const EmbeddedShader& s : embeddedShaders())
        if (s.name == name) return &s;
    return nullptr;
}

std::span<const uint32_t> embeddedSpirv(std::string_view name) {
    const EmbeddedShader* s = embeddedShader(name);
    return s ? s->spirv : std::span<const uint32_t>{};
}

} // namespace gpu
