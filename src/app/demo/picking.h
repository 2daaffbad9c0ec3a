#pragma once
// Where the cursor points in the flock: the ray through a pixel met with a plane facing the camera.

#include <glm/glm.hpp>

#include <cstdint>
#include <optional>

namespace app {

// The point where the ray through pixel (x, y) (from the top left) of a width x height view meets the
// plane through `centre` facing the camera (normal to the view direction). viewProj maps to Vulkan
// clip space (y down, depth 0 to 1), as camera.h's viewProjection does. Empty when the matrix is
// singular or the ray runs along the plane.
std::optional<glm::vec3> pickOnPlane(const glm::mat4& viewProj, float x, float y, uint32_t width,
                                     uint32_t height, const glm::vec3& centre);

// p clamped into the cube [-L, L]^3.
glm::vec3 clampToDomain(const glm::vec3& p, float domainHalf);

} // namespace app
