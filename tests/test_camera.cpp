// The demo's orbit camera without a window: picking the point under the cursor, and framing the
// domain in the space the panels leave free.

#include "app/camera.h"
#include "app/demo/picking.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>

namespace {

glm::vec2 toPixel(const glm::mat4& viewProj, const glm::vec3& p, float width, float height) {
    const glm::vec4 clip = viewProj * glm::vec4(p, 1);
    return {(clip.x / clip.w * 0.5f + 0.5f) * width, (clip.y / clip.w * 0.5f + 0.5f) * height};
}

TEST(Picking, TheViewsCentreIsTheDomainsCentre) {
    const app::OrbitCamera camera = app::defaultCamera(100);
    const glm::mat4 vp = app::viewProjection(camera, 1280, 800, 100);
    const std::optional<glm::vec3> hit = app::pickOnPlane(vp, 640, 400, 1280, 800, glm::vec3(0));
    ASSERT_TRUE(hit);
    EXPECT_LT(glm::length(*hit), 1e-3f);
}

TEST(Picking, TheHitIsUnderTheCursorOnThePlaneFacingTheCamera) {
    for (const glm::vec3& centre : {glm::vec3(0), glm::vec3(10, -20, 5)})
        for (float yaw : {0.0f, 0.6f, 2.5f}) {
            app::OrbitCamera camera = app::defaultCamera(50);
            camera.yaw = yaw;
            camera.pitch = -0.3f;
            const glm::mat4 vp = app::viewProjection(camera, 1000, 600, 50);
            // The camera's eye looks at the origin: the plane's normal is the eye's direction.
            const glm::vec3 eye =
                camera.distance * glm::vec3(std::cos(camera.pitch) * std::sin(yaw), std::sin(camera.pitch),
                                            std::cos(camera.pitch) * std::cos(yaw));
            for (const glm::vec2 pixel : {glm::vec2(100, 50), glm::vec2(900, 580), glm::vec2(500, 300)}) {
                const std::optional<glm::vec3> hit =
                    app::pickOnPlane(vp, pixel.x, pixel.y, 1000, 600, centre);
                ASSERT_TRUE(hit);
                const glm::vec2 back = toPixel(vp, *hit, 1000, 600);
                EXPECT_NEAR(back.x, pixel.x, 0.1f);
                EXPECT_NEAR(back.y, pixel.y, 0.1f);
                EXPECT_NEAR(glm::dot(*hit - centre, glm::normalize(eye)), 0.0f, 1e-3f * camera.distance);
            }
        }
    // Top left of the view is up and to the left: y grows downwards in pixels.
    const app::OrbitCamera front{.yaw = 0, .pitch = 0, .distance = 100};
    const std::optional<glm::vec3> topLeft =
        app::pickOnPlane(app::viewProjection(front, 800, 800, 50), 0, 0, 800, 800, glm::vec3(0));
    ASSERT_TRUE(topLeft);
    EXPECT_LT(topLeft->x, 0);
    EXPECT_GT(topLeft->y, 0);
    EXPECT_NEAR(topLeft->z, 0, 1e-3f);
    EXPECT_FALSE(app::pickOnPlane(glm::mat4(0), 1, 1, 10, 10, glm::vec3(0)));
}

// The default view's domain, framed: every corner on the screen lies within the frame.
void expectDomainWithin(const app::PixelRect& frame, uint32_t width, uint32_t height) {
    app::OrbitCamera camera = app::defaultCamera(100.0f);
    camera.frame = frame;
    const glm::mat4 viewProj = app::viewProjection(camera, width, height, 100.0f);
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec4 c = viewProj * glm::vec4(corner & 1 ? 100 : -100, corner & 2 ? 100 : -100,
                                                 corner & 4 ? 100 : -100, 1);
        const float x = (c.x / c.w * 0.5f + 0.5f) * float(width),
                    y = (c.y / c.w * 0.5f + 0.5f) * float(height);
        EXPECT_TRUE(x >= frame.x0 && x <= frame.x1 && y >= frame.y0 && y <= frame.y1)
            << width << "x" << height << ": corner " << corner << " at " << x << ", " << y;
    }
}

TEST(Camera, FramesTheDomainBesideThePanels) {
    // A wide window: between the panel and the timings; a small one: below the timings.
    const app::PixelRect wide = app::freeFrame(1280, 800, {10, 10, 350, 740}, {964, 10, 1270, 296});
    EXPECT_EQ(wide.x0, 350);
    EXPECT_EQ(wide.x1, 964);
    EXPECT_EQ(wide.y0, 0);
    expectDomainWithin(wide, 1280, 800);
    const app::PixelRect small = app::freeFrame(800, 600, {10, 10, 350, 590}, {484, 10, 790, 296});
    EXPECT_EQ(small.x0, 350);
    EXPECT_EQ(small.x1, 800);
    EXPECT_EQ(small.y0, 296);
    expectDomainWithin(small, 800, 600);
    EXPECT_LT(app::frameScale(small, 600), app::frameScale(wide, 800));
    // On a scaled display the same layout in pixels frames the same view.
    const app::PixelRect doubled = app::freeFrame(2560, 1600, {20, 20, 700, 1480}, {1928, 20, 2540, 592});
    EXPECT_EQ(doubled.x0, 2 * wide.x0);
    EXPECT_EQ(doubled.x1, 2 * wide.x1);
    EXPECT_FLOAT_EQ(app::frameScale(doubled, 1600), app::frameScale(wide, 800));
    // No panels: the whole window, unscaled.
    const app::PixelRect whole = app::freeFrame(1280, 800, {}, {});
    EXPECT_EQ(whole.x1, 1280);
    EXPECT_EQ(whole.y1, 800);
    EXPECT_EQ(app::frameScale({}, 800), 1.0f);
    expectDomainWithin(whole, 1280, 800);
}

TEST(Picking, ClampsIntoTheDomain) {
    EXPECT_EQ(app::clampToDomain(glm::vec3(150, -3, -400), 100), glm::vec3(100, -3, -100));
}

} // namespace
