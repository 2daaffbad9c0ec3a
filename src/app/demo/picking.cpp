#include "app/demo/picking.h"

#include <algorithm>
#include <cmath>

namespace app {
namespace {

glm::vec3 unproject(const glm::mat4& inverse, float ndcX, float ndcY, float depth) {
    const glm::vec4 p = inverse * glm::vec4(ndcX, ndcY, depth, 1.0f);
    return glm::vec3(p) / p.w;
}

} // namespace

std::optional<glm::vec3> pickOnPlane(const glm::mat4& viewProj, float x, float y, uint32_t width,
                                     uint32_t height, const glm::vec3& centre) {
    if (width == 0 || height == 0 || std::abs(glm::determinant(viewProj)) < 1e-30f) return std::nullopt;
    const glm::mat4 inverse = glm::inverse(viewProj);
    const float ndcX = 2.0f * x / float(width) - 1.0f, ndcY = 2.0f * y / float(height) - 1.0f;
    const glm::vec3 origin = unproject(inverse, ndcX, ndcY, 0.0f);
    const glm::vec3 direction = unproject(inverse, ndcX, ndcY, 1.0f) - origin;
    // The view direction: the ray through the middle of the view.
    const glm::vec3 normal = unproject(inverse, 0, 0, 1.0f) - unproject(inverse, 0, 0, 0.0f);
    const float along = glm::dot(direction, normal);
    if (!(std::abs(along) > 1e-12f * glm::length(direction) * glm::length(normal))) return std::nullopt;
    const float t = glm::dot(centre - origin, normal) / along;
    const glm::vec3 hit = origin + t * direction;
    if (!std::isfinite(hit.x) || !std::isfinite(hit.y) || !std::isfinite(hit.z)) return std::nullopt;
    return hit;
}

glm::vec3 clampToDomain(const glm::vec3& p, float domainHalf) {
    return glm::clamp(p, glm::vec3(-domainHalf), glm::vec3(domainHalf));
}

} // namespace app
