// The glyph path against a CPU reference of its arrowheads: footprints oriented along each boid's
// screen heading, a diamond where the heading has no screen direction, depth against nearer boids,
// nothing for boids the camera cannot see.

#include "render_test.h"

#include <array>
#include <cmath>
#include <optional>
#include <string>

namespace {

using namespace drawtest;

constexpr float glyphSize = 12.0f;
// Pixels whose centres lie this close to a glyph's edge may go either way (the GPU's float and
// fixed-point rounding against the CPU's doubles); every other pixel is checked.
constexpr double edgeMargin = 0.15;

// A glyph in pixel coordinates: tip, left wing, notch, right wing (the diamond's corners in the same
// order), as glyph.vert makes it.
struct Glyph {
    glm::dvec2 centre;
    std::array<glm::dvec2, 4> corners;
    bool pointed = false;
};

// The CPU reference of glyph.vert: the boid's pixel, the screen motion of its heading, the arrowhead
// along it or the diamond. Empty where the boid is behind the camera or outside the depth range.
std::optional<Glyph> glyphOf(glm::vec3 p, glm::vec3 v, const glm::mat4& m, double size) {
    const glm::dvec4 clip = glm::dmat4(m) * glm::dvec4(glm::dvec3(p), 1.0);
    if (!(clip.w > 0) || clip.z < 0 || clip.z > clip.w) return std::nullopt;
    const glm::dvec2 toPixels(0.5 * width, 0.5 * height);
    const auto motion = [&](int axis) {
        return (glm::dvec2(m[axis]) * clip.w - glm::dvec2(clip) * double(m[axis].w)) * toPixels;
    };
    const glm::dvec2 dx = motion(0), dy = motion(1), dz = motion(2);
    const double speed = glm::length(glm::dvec3(v));
    const glm::dvec3 h = speed > 0 ? glm::dvec3(v) / speed : glm::dvec3(0.0);
    const glm::dvec2 heading = dx * h.x + dy * h.y + dz * h.z;
    const double sideways = 0.5 * (glm::dot(dx, dx) + glm::dot(dy, dy) + glm::dot(dz, dz));
    const double least = double(GLYPH_MIN_SCREEN_HEADING);
    Glyph g;
    g.pointed = glm::dot(heading, heading) > least * least * sideways;
    const glm::dvec2 forward = g.pointed ? glm::normalize(heading) : glm::dvec2(1, 0);
    const glm::dvec2 side(-forward.y, forward.x);
    const double tip = GLYPH_TIP, back = GLYPH_WING_BACK, wing = GLYPH_WING_SIDE, notch = GLYPH_NOTCH_BACK,
                 radius = GLYPH_DIAMOND_RADIUS;
    const std::array<glm::dvec2, 4> shape =
        g.pointed ? std::array<glm::dvec2, 4>{glm::dvec2(tip, 0), {-back, wing}, {-notch, 0}, {-back, -wing}}
                  : std::array<glm::dvec2, 4>{glm::dvec2(radius, 0), {0, radius}, {-radius, 0}, {0, -radius}};
    g.centre = (glm::dvec2(clip) / clip.w * 0.5 + 0.5) * glm::dvec2(width, height);
    for (int i = 0; i < 4; ++i) g.corners[i] = g.centre + (shape[i].x * forward + shape[i].y * side) * size;
    return g;
}

double segmentDistance(glm::dvec2 q, glm::dvec2 a, glm::dvec2 b) {
    const double t = std::clamp(glm::dot(q - a, b - a) / glm::dot(b - a, b - a), 0.0, 1.0);
    return glm::length(q - (a + t * (b - a)));
}

enum class Cover { Inside, Outside, Edge };

// Where a pixel's centre lies against the glyph's outline (the crossing rule).
Cover cover(const Glyph& g, uint32_t x, uint32_t y) {
    const glm::dvec2 q(x + 0.5, y + 0.5);
    bool inside = false;
    double nearest = 1e30;
    for (int i = 0; i < 4; ++i) {
        const glm::dvec2 a = g.corners[i], b = g.corners[(i + 1) % 4];
        nearest = std::min(nearest, segmentDistance(q, a, b));
        if ((a.y > q.y) != (b.y > q.y) && q.x < a.x + (q.y - a.y) * (b.x - a.x) / (b.y - a.y))
            inside = !inside;
    }
    return nearest < edgeMargin ? Cover::Edge : inside ? Cover::Inside : Cover::Outside;
}

const uint8_t background[3] = {5, 5, 9};

bool isBackground(const std::vector<uint8_t>& rgba, size_t pixel) {
    for (int c = 0; c < 3; ++c)
        if (rgba[4 * pixel + c] != background[c]) return false;
    return true;
}

bool hasColor(const std::vector<uint8_t>& rgba, size_t pixel, glm::vec3 color) {
    for (int c = 0; c < 3; ++c)
        if (std::abs(double(rgba[4 * pixel + c]) - std::round(color[c] * 255.0)) > 1.0) return false;
    return true;
}

class GlyphTest : public DrawTest {
  protected:
    std::vector<uint8_t> drawGlyphs(const Scene& scene, const glm::mat4& viewProj = projection(),
                                    float domainHalf = 1e-3f) {
        render::DrawSettings s = settings(DrawPath::Glyphs, 2.0f, domainHalf);
        s.style.glyphSize = glyphSize;
        s.viewProj = viewProj;
        return draw(scene, s);
    }

    // One boid drawn alone: its glyph's inside pixels in its colour, all others background. Returns
    // the number of pixels certainly inside.
    size_t expectGlyph(glm::vec4 p, glm::vec3 v, const std::string& what) {
        Scene scene;
        scene.add(p, v);
        const std::vector<uint8_t> frame = drawGlyphs(scene);
        const std::optional<Glyph> g = glyphOf(glm::vec3(p), v, projection(), glyphSize);
        const glm::vec3 color = expectedColor(v, -p.z);
        size_t inside = 0, wrong = 0;
        for (uint32_t y = 0; y < height; ++y)
            for (uint32_t x = 0; x < width; ++x) {
                const size_t pixel = size_t(y) * width + x;
                const Cover c = g ? cover(*g, x, y) : Cover::Outside;
                if (c == Cover::Inside) {
                    ++inside;
                    if (!hasColor(frame, pixel, color) && wrong++ < 5)
                        ADD_FAILURE() << what << ": pixel (" << x << ", " << y << ") inside the glyph is "
                                      << int(frame[4 * pixel]) << "," << int(frame[4 * pixel + 1]) << ","
                                      << int(frame[4 * pixel + 2]);
                } else if (c == Cover::Outside && !isBackground(frame, pixel) && wrong++ < 5) {
                    ADD_FAILURE() << what << ": pixel (" << x << ", " << y << ") outside the glyph is lit";
                }
            }
        EXPECT_EQ(wrong, 0u) << what;
        return inside;
    }
};

bool lit(const std::vector<uint8_t>& frame, uint32_t x, uint32_t y) {
    return !isBackground(frame, size_t(y) * width + x);
}

TEST_F(GlyphTest, AnArrowheadPointsAlongTheScreenHeading) {
    struct Case {
        double px, py, distance;
        glm::vec3 v;
        const char* what;
    };
    // The camera looks down -z with y up in the world, so +x is right on the screen and +y up.
    const std::vector<Case> cases = {
        {32.25, 24.25, 10, {1, 0, 0}, "+x"},
        {32.25, 24.25, 10, {-0.5f, 0, 0}, "-x, slow"},
        {32.25, 24.25, 10, {0, 1, 0}, "+y"},
        {32.25, 24.25, 10, {0, -3, 0}, "-y, fast"},
        {20.6, 30.1, 12, {0.7f, 0.7f, 0}, "diagonal"},
        {40.3, 18.8, 9, {1, -2, 0.5f}, "oblique, partly towards the camera"},
        {12.2, 10.7, 15, {0, 0, 1}, "towards the camera, off-centre: outwards"},
        {2.25, 20.25, 10, {-1, 0.2f, 0}, "at the left edge, partly off-screen"},
    };
    for (const Case& k : cases) {
        const glm::vec4 p = atPixel(k.px, k.py, k.distance);
        const std::optional<Glyph> g = glyphOf(glm::vec3(p), k.v, projection(), glyphSize);
        ASSERT_TRUE(g && g->pointed) << k.what;
        EXPECT_GT(expectGlyph(p, k.v, k.what), 15u) << k.what;
    }
    // The same facts in plain pixels: ahead of the boid its glyph, behind it the notch.
    const auto frameOf = [&](glm::vec3 v) {
        Scene s;
        s.add(atPixel(32.25, 24.25, 10), v);
        return drawGlyphs(s);
    };
    const std::vector<uint8_t> right = frameOf({1, 0, 0}), up = frameOf({0, 1, 0});
    EXPECT_TRUE(lit(right, 36, 24) && lit(right, 32, 24));
    EXPECT_FALSE(lit(right, 28, 24)); // the notch
    EXPECT_FALSE(lit(right, 36, 27) || lit(right, 36, 21));
    EXPECT_TRUE(lit(right, 29, 26) && lit(right, 29, 22)); // the wings,
    EXPECT_FALSE(lit(right, 29, 24));                      // the notch between them
    EXPECT_TRUE(lit(up, 32, 20) && lit(up, 32, 24));
    EXPECT_FALSE(lit(up, 32, 28));
}

TEST_F(GlyphTest, WithoutAScreenHeadingADiamond) {
    struct Case {
        double px, py;
        glm::vec3 v;
        const char* what;
    };
    const std::vector<Case> cases = {
        {32.25, 24.25, {0, 0, 0}, "still"},
        {17.6, 33.2, {0, 0, 0}, "still, elsewhere"},
        // Along the view ray through the screen's centre: the screen motion is nearly nothing.
        {32.25, 24.25, {0, 0, -1}, "away from the camera"},
        {32.25, 24.25, {0, 0, 2}, "towards the camera"},
    };
    for (const Case& k : cases) {
        const glm::vec4 p = atPixel(k.px, k.py, 10);
        const std::optional<Glyph> g = glyphOf(glm::vec3(p), k.v, projection(), glyphSize);
        ASSERT_TRUE(g && !g->pointed) << k.what;
        EXPECT_GT(expectGlyph(p, k.v, k.what), 15u) << k.what;
    }
    // Symmetric: lit as far to the left as to the right, above as below.
    Scene still;
    still.add(atPixel(32.5, 24.5, 10), {0, 0, 0});
    const std::vector<uint8_t> frame = drawGlyphs(still);
    for (uint32_t d = 1; d <= 4; ++d) {
        EXPECT_EQ(lit(frame, 32 + d, 24), lit(frame, 32 - d, 24)) << d;
        EXPECT_EQ(lit(frame, 32, 24 + d), lit(frame, 32, 24 - d)) << d;
    }
    EXPECT_TRUE(lit(frame, 35, 24) && lit(frame, 29, 24) && lit(frame, 32, 21) && lit(frame, 32, 27));
}

// Whatever the order in the buffers, the nearer glyph covers the farther one where they overlap.
TEST_F(GlyphTest, TheNearerGlyphWins) {
    const glm::vec4 near = atPixel(30.25, 24.25, 8), far = atPixel(31.25, 25.25, 16);
    const glm::vec3 a(1, 0, 0), b(0, -1, 0);
    Scene nearOnly, farOnly;
    nearOnly.add(near, a);
    farOnly.add(far, b);
    const std::vector<uint8_t> nearFrame = drawGlyphs(nearOnly), farFrame = drawGlyphs(farOnly);
    size_t overlap = 0, farShows = 0;
    for (size_t p = 0; p < size_t(width) * height; ++p) {
        overlap += !isBackground(nearFrame, p) && !isBackground(farFrame, p);
        farShows += isBackground(nearFrame, p) && !isBackground(farFrame, p);
    }
    ASSERT_GT(overlap, 10u);
    ASSERT_GT(farShows, 10u);
    for (int order = 0; order < 2; ++order) {
        Scene both;
        if (order == 0) {
            both.add(far, b), both.add(near, a);
        } else {
            both.add(near, a), both.add(far, b);
        }
        const std::vector<uint8_t> frame = drawGlyphs(both);
        for (size_t p = 0; p < size_t(width) * height; ++p) {
            const std::vector<uint8_t>& expected = isBackground(nearFrame, p) ? farFrame : nearFrame;
            for (int c = 0; c < 3; ++c)
                ASSERT_EQ(frame[4 * p + c], expected[4 * p + c]) << "order " << order << " pixel " << p;
        }
    }
}

// Behind the camera, at it, beyond the far plane or far off-screen: nothing drawn, and no stray
// triangles from a projection through w <= 0.
TEST_F(GlyphTest, BoidsTheCameraCannotSeeDrawNothing) {
    Scene scene;
    scene.add(glm::vec4(0.3f, -0.2f, 5.0f, 0), {1, 0, 0});  // behind
    scene.add(glm::vec4(0.0f, 0.0f, 0.1f, 0), {0, 1, 0});   // just behind
    scene.add(glm::vec4(0.0f, 0.0f, 0.0f, 0), {0, 0, 1});   // at the camera: w = 0
    scene.add(glm::vec4(0.01f, 0.0f, -0.2f, 0), {1, 0, 0}); // inside the near plane
    scene.add(atPixel(30, 20, 200), {1, 1, 0});             // beyond the far plane
    scene.add(atPixel(-40, 20, 10), {1, 0, 0});             // off-screen to the left, heading in
    scene.add(atPixel(30, 90, 10), {0, 1, 0});              // below, heading up
    scene.add(atPixel(3000, 20, 10), {-1, 0, 0});           // far off to the right
    for (const glm::vec4& p : scene.pos) {
        const std::optional<Glyph> g = glyphOf(glm::vec3(p), glm::vec3(1, 0, 0), projection(), glyphSize);
        for (int corner = 0; g && corner < 4; ++corner) {
            const glm::dvec2 c = g->corners[corner];
            ASSERT_TRUE(c.x < 0 || c.y < 0 || c.x > width || c.y > height) << "a visible case";
        }
    }
    const std::vector<uint8_t> frame = drawGlyphs(scene);
    for (size_t p = 0; p < size_t(width) * height; ++p) ASSERT_TRUE(isBackground(frame, p)) << "pixel " << p;
    // With one visible boid among them, exactly its glyph.
    scene.add(atPixel(32.25, 24.25, 10), {1, 0, 0});
    const std::vector<uint8_t> one = drawGlyphs(scene);
    Scene alone;
    alone.add(atPixel(32.25, 24.25, 10), {1, 0, 0});
    EXPECT_EQ(one, drawGlyphs(alone));
}

// The size is the user's, in pixels, within its bounds.
TEST_F(GlyphTest, TheGlyphSizeScalesTheFootprint) {
    Scene scene;
    scene.add(atPixel(32.25, 24.25, 10), {1, 0, 0});
    size_t previous = 0;
    for (float size : {render::minGlyphSize, 8.0f, render::maxGlyphSize, 100.0f}) {
        render::DrawSettings s = settings(DrawPath::Glyphs, 2.0f);
        s.style.glyphSize = size;
        const std::vector<uint8_t> frame = draw(scene, s);
        size_t covered = 0;
        for (size_t p = 0; p < size_t(width) * height; ++p) covered += !isBackground(frame, p);
        const double area = 0.5 * (GLYPH_TIP + GLYPH_WING_BACK) * 2 * GLYPH_WING_SIDE -
                            0.5 * (GLYPH_WING_BACK - GLYPH_NOTCH_BACK) * 2 * GLYPH_WING_SIDE;
        const double clamped = std::min(size, render::maxGlyphSize);
        EXPECT_NEAR(double(covered), area * clamped * clamped, 0.2 * area * clamped * clamped + 3) << size;
        EXPECT_GE(covered, previous) << size;
        previous = covered;
    }
}

} // namespace
