#pragma once
// Shared by the drawing tests: an offscreen frame of 64x48, a camera at the origin looking down -z,
// and scenes of boids placed at known pixels.

#include "gpu_test.h"
#include "render/draw_types.h"
#include "render/renderer.h"

#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/glm.hpp>

#include <algorithm>
#include <vector>

namespace drawtest {

using render::DrawPath;

constexpr uint32_t width = 64, height = 48;
constexpr float fovY = 0.9f, nearPlane = 0.5f, farPlane = 100.0f;
constexpr uint64_t empty = ~0ull;

// The camera sits at the origin looking down -z (view = identity), Vulkan's y pointing down.
inline glm::mat4 projection() {
    glm::mat4 p = glm::perspectiveRH_ZO(fovY, float(width) / float(height), nearPlane, farPlane);
    p[1][1] *= -1.0f;
    return p;
}

// The world position that projects to pixel coordinates (px, py) at view distance `distance`.
inline glm::vec4 atPixel(double px, double py, double distance) {
    const glm::mat4 p = projection();
    const double ndcX = 2.0 * px / width - 1.0, ndcY = 2.0 * py / height - 1.0;
    return glm::vec4(float(ndcX * distance / p[0][0]), float(ndcY * distance / p[1][1]), float(-distance),
                     0.0f);
}

struct Scene {
    std::vector<glm::vec4> pos, vel;
    void add(glm::vec4 p, glm::vec3 v) {
        pos.push_back(p);
        vel.push_back(glm::vec4(v, 0.0f));
    }
};

inline render::DrawSettings settings(DrawPath path, float pointSize, float domainHalf = 1e-3f) {
    render::DrawSettings s;
    s.style.path = path;
    s.style.pointSize = pointSize;
    s.style.colorMode = render::ColorMode::Heading; // distinct colours for distinct velocities
    s.style.depthCue = true;
    s.viewProj = projection();
    s.width = width;
    s.height = height;
    s.maxSpeed = 1.0f;
    s.domainHalf = domainHalf; // by default the box lies inside the near plane: clipped away
    s.cueNear = 1.0f;
    s.cueFar = 50.0f;
    return s;
}

// The colour the CPU expects for a boid flying along v at view distance w (heading, darkened as the
// settings above ask).
inline glm::vec3 expectedColor(glm::vec3 v, float w) {
    const float speed = glm::length(v);
    glm::vec3 c = speed > 0 ? 0.5f + 0.5f * v / speed : glm::vec3(0.5f);
    return c * glm::mix(1.0f, 0.3f, std::clamp((w - 1.0f) / 49.0f, 0.0f, 1.0f));
}

// A renderer and an offscreen frame of width x height: every path.
class DrawTest : public test::GpuTest {
  protected:
    void SetUp() override {
        test::GpuTest::SetUp();
        renderer = render::createRenderer(ctx(), VK_FORMAT_R8G8B8A8_UNORM, gpu::findDepthFormat(ctx()),
                                          VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        offscreen = render::createOffscreen(ctx(), renderer, width, height);
    }
    void TearDown() override {
        render::destroyOffscreen(ctx(), offscreen);
        render::destroyRenderer(ctx(), renderer);
        test::GpuTest::TearDown();
    }

    // The finished frame, RGBA8, drawn with these settings.
    std::vector<uint8_t> draw(const Scene& scene, const render::DrawSettings& s) {
        gpu::Buffer pos = test::makeBuffer(scene.pos, 1), vel = test::makeBuffer(scene.vel, 1);
        test::runCommands([&](VkCommandBuffer cmd) {
            render::recordOffscreenDraw(cmd, ctx(), renderer, offscreen, pos, vel, uint32_t(scene.pos.size()),
                                        s);
        });
        std::vector<uint8_t> rgba = render::readOffscreen(ctx(), offscreen);
        gpu::destroyBuffer(ctx(), pos);
        gpu::destroyBuffer(ctx(), vel);
        return rgba;
    }

    // The finished frame through a path, with the test's settings.
    std::vector<uint8_t> draw(const Scene& scene, DrawPath path, float pointSize, float domainHalf = 1e-3f,
                              const glm::mat4* viewProj = nullptr) {
        render::DrawSettings s = settings(path, pointSize, domainHalf);
        if (viewProj) s.viewProj = *viewProj;
        return draw(scene, s);
    }

    render::Offscreen offscreen;
    render::Renderer renderer;
};

// The compute path's own tests: where the device has it.
class RenderTest : public DrawTest {
  protected:
    void SetUp() override {
        DrawTest::SetUp();
        if (!render::computePathAvailable(ctx())) GTEST_SKIP() << "no 64-bit buffer atomics on this device";
    }

    // The compute path's target after a frame of the scene (poisoned first: the frame clears it).
    std::vector<uint64_t> rasterize(const Scene& scene, float pointSize) {
        gpu::Buffer pos = test::makeBuffer(scene.pos, 1), vel = test::makeBuffer(scene.vel, 1);
        const render::DrawSettings s = settings(DrawPath::Compute, pointSize);
        // A first frame sizes the target; poison it, then draw again over the poison.
        test::runCommands([&](VkCommandBuffer cmd) {
            render::recordOffscreenDraw(cmd, ctx(), renderer, offscreen, pos, vel, 0, s);
        });
        gpu::fillBuffer(ctx(), renderer.target, 0xabababab);
        test::runCommands([&](VkCommandBuffer cmd) {
            render::recordOffscreenDraw(cmd, ctx(), renderer, offscreen, pos, vel, uint32_t(scene.pos.size()),
                                        s);
        });
        std::vector<uint64_t> words = test::readBuffer<uint64_t>(renderer.target, size_t(width) * height);
        gpu::destroyBuffer(ctx(), pos);
        gpu::destroyBuffer(ctx(), vel);
        return words;
    }
};

} // namespace drawtest
