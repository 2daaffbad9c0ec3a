// The compute rasterizer against exact expectations and against the hardware point path.

#include "render_test.h"

#include "gpu/profiler.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

namespace {

using namespace drawtest;

// The pixels a point of `size` at pixel coordinates (px, py) covers, clipped to the image.
std::vector<uint32_t> footprint(double px, double py, int size) {
    std::vector<uint32_t> pixels;
    const int x0 = int(std::floor(px - 0.5 * (size - 1))), y0 = int(std::floor(py - 0.5 * (size - 1)));
    for (int dy = 0; dy < size; ++dy)
        for (int dx = 0; dx < size; ++dx) {
            const bool corner = size >= 3 && (dx == 0 || dx == size - 1) && (dy == 0 || dy == size - 1);
            const int x = x0 + dx, y = y0 + dy;
            if (!corner && x >= 0 && y >= 0 && x < int(width) && y < int(height))
                pixels.push_back(uint32_t(y) * width + uint32_t(x));
        }
    return pixels;
}

uint32_t depthBits(uint64_t word) {
    return uint32_t(word >> 32);
}

void expectColor(uint64_t word, glm::vec3 expected, const std::string& where) {
    const uint32_t rgba = uint32_t(word);
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(double((rgba >> (8 * c)) & 0xff), std::round(expected[c] * 255.0), 1.0)
            << where << " channel " << c;
    EXPECT_EQ(rgba >> 24, 0xffu) << where;
}

TEST_F(RenderTest, KnownBoidsCoverExactlyTheirPixels) {
    // Pixel coordinates a quarter off the centres: no rounding can move a footprint.
    struct Known {
        double px, py, distance;
        glm::vec3 v;
    };
    const std::vector<Known> known = {
        {32.25, 24.25, 10, {1, 0, 0}},  // the centre
        {0.25, 10.75, 12, {0, 1, 0}},   // the left edge: part of the larger footprints falls off
        {63.75, 47.75, 14, {0, 0, 1}},  // the bottom right corner
        {10.75, 0.25, 30, {-1, 0, 0}},  // the top edge, farther (darker)
        {-6.25, 20.25, 10, {0, -1, 0}}, // off-screen to the left
        {20.25, 60.25, 10, {0, 0, -1}}, // off-screen below
        {45.25, 30.75, 200, {1, 1, 0}}, // beyond the far plane
    };
    for (int size = 1; size <= 4; ++size) {
        Scene scene;
        for (const Known& k : known) scene.add(atPixel(k.px, k.py, k.distance), k.v);
        // Behind the camera: would project onto the centre through the camera's back.
        scene.add(glm::vec4(0.3f, -0.2f, 5.0f, 0.0f), {1, 0, 1});
        const std::vector<uint64_t> words = rasterize(scene, float(size));
        std::vector<int> owner(words.size(), -1);
        for (size_t b = 0; b < known.size(); ++b)
            if (known[b].distance < farPlane)
                for (uint32_t p : footprint(known[b].px, known[b].py, size)) owner[p] = int(b);
        for (size_t p = 0; p < words.size(); ++p) {
            const std::string where = "size " + std::to_string(size) + " pixel (" +
                                      std::to_string(p % width) + ", " + std::to_string(p / width) + ")";
            if (owner[p] < 0) {
                EXPECT_EQ(words[p], empty) << where;
                continue;
            }
            const Known& k = known[size_t(owner[p])];
            const glm::vec4 clip = projection() * glm::vec4(glm::vec3(atPixel(k.px, k.py, k.distance)), 1.0f);
            const float depth = clip.z / clip.w;
            uint32_t cpuDepth = 0;
            std::memcpy(&cpuDepth, &depth, 4);
            EXPECT_LE(std::abs(int64_t(depthBits(words[p])) - int64_t(cpuDepth)), 4) << where;
            expectColor(words[p], expectedColor(k.v, float(k.distance)), where);
        }
    }
}

TEST_F(RenderTest, TheNearestBoidWinsAndEqualDepthsResolveTheSameWay) {
    for (int size = 1; size <= 4; ++size) {
        const glm::vec4 near = atPixel(20.25, 20.25, 8), far = atPixel(20.25, 20.25, 16);
        const glm::vec3 a(1, 0, 0), b(0, 0, 1), c(0, 1, 0);
        auto alone = [&](glm::vec4 p, glm::vec3 v) {
            Scene s;
            s.add(p, v);
            return rasterize(s, float(size));
        };
        const std::vector<uint64_t> nearA = alone(near, a), farB = alone(far, b), nearC = alone(near, c);
        const uint32_t centre = 20 * width + 20;
        ASSERT_NE(nearA[centre], empty);
        ASSERT_LT(depthBits(nearA[centre]), depthBits(farB[centre]));
        ASSERT_EQ(depthBits(nearA[centre]), depthBits(nearC[centre]));
        ASSERT_NE(nearA[centre], nearC[centre]);
        // Whatever the order in the buffer, the nearer boid wins; between equal depths the smaller
        // word (the colour's bits) wins, the same on every run.
        for (int order = 0; order < 2; ++order) {
            Scene s;
            if (order == 0) {
                s.add(far, b), s.add(near, a), s.add(near, c);
            } else {
                s.add(near, c), s.add(near, a), s.add(far, b);
            }
            for (int run = 0; run < 2; ++run) {
                const std::vector<uint64_t> both = rasterize(s, float(size));
                for (size_t p = 0; p < both.size(); ++p)
                    ASSERT_EQ(both[p], std::min({nearA[p], farB[p], nearC[p]}))
                        << "size " << size << " order " << order << " pixel " << p;
            }
        }
    }
}

TEST_F(RenderTest, TheResolveWritesTheTargetsColoursIntoTheFrame) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Scene scene;
    for (int i = 0; i < 300; ++i)
        scene.add(atPixel(32 + 40 * u(rng), 24 + 30 * u(rng), 10 + 8 * u(rng)), {u(rng), u(rng), u(rng)});
    const std::vector<uint64_t> words = rasterize(scene, 3.0f);
    const std::vector<uint8_t> frame = draw(scene, DrawPath::Compute, 3.0f);
    size_t covered = 0;
    for (size_t p = 0; p < words.size(); ++p) {
        const uint32_t expected = words[p] == empty ? 0xff090505u : uint32_t(words[p]); // the clear colour
        uint32_t got = 0;
        std::memcpy(&got, &frame[4 * p], 4);
        for (int c = 0; c < 4; ++c)
            ASSERT_NEAR(double((got >> (8 * c)) & 0xff), double((expected >> (8 * c)) & 0xff), 1.0)
                << "pixel " << p;
        covered += words[p] != empty;
    }
    EXPECT_GT(covered, 300u);
}

TEST_F(RenderTest, BothPathsDrawTheSameScene) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Scene scene;
    for (int i = 0; i < 200; ++i)
        scene.add(atPixel(32 + 36 * u(rng), 24 + 26 * u(rng), 12 + 6 * u(rng)), {u(rng), u(rng), u(rng)});
    // Without the box, and with the camera inside a box whose far edges run behind some boids and
    // in front of others: each path hides them behind nearer boids.
    for (auto [size, domainHalf] : {std::pair{1.0f, 1e-3f}, {2.0f, 1e-3f}, {4.0f, 1e-3f}, {2.0f, 14.0f}}) {
        const std::vector<uint8_t> compute = draw(scene, DrawPath::Compute, size, domainHalf);
        const std::vector<uint8_t> points = draw(scene, DrawPath::Points, size, domainHalf);
        // Both cover the same footprint, but a point whose centre lies within rounding of a pixel
        // edge, or two at nearly one depth, may land differently: at most 2% of the covered pixels.
        size_t differing = 0, coveredCompute = 0, coveredPoints = 0;
        for (size_t p = 0; p < size_t(width) * height; ++p) {
            int worst = 0;
            for (int c = 0; c < 3; ++c)
                worst = std::max(worst, std::abs(int(compute[4 * p + c]) - int(points[4 * p + c])));
            differing += worst > 2;
            coveredCompute += compute[4 * p + 2] != 9 || compute[4 * p] != 5;
            coveredPoints += points[4 * p + 2] != 9 || points[4 * p] != 5;
        }
        EXPECT_GT(coveredCompute, 150u) << "size " << size;
        EXPECT_LE(differing, coveredCompute / 50) << "size " << size;
        EXPECT_NEAR(double(coveredCompute), double(coveredPoints), 0.02 * coveredCompute) << "size " << size;
    }
}

// The box's edges are hidden behind nearer boids and drawn over farther ones, on every path: the
// compute path tests them against the target's depths, points and glyphs against the depth buffer.
TEST_F(RenderTest, TheBoxIsHiddenBehindNearerBoidsOnly) {
    const float domainHalf = 14.0f;
    // The camera 30 from the box's centre, looking at it: the whole box in view, 16 to 44 away.
    const glm::vec3 camera(0.0f, 0.0f, 30.0f);
    const glm::mat4 viewProj = projection() * glm::translate(glm::mat4(1.0f), -camera);
    const glm::mat4 inverse = glm::inverse(viewProj);
    // The point at `distance` from the camera along pixel (x, y)'s ray.
    const auto along = [&](double x, double y, float distance) {
        const glm::vec2 ndc(float(2.0 * x / width - 1.0), float(2.0 * y / height - 1.0));
        const glm::vec4 far = inverse * glm::vec4(ndc, 1.0f, 1.0f);
        const glm::vec3 dir = glm::normalize(glm::vec3(far) / far.w - camera);
        return glm::vec4(camera + dir * distance, 0.0f);
    };
    const std::vector<uint8_t> boxOnly = draw(Scene{}, DrawPath::Compute, 4.0f, domainHalf, &viewProj);
    // A pixel of an edge, away from the image's borders.
    int edge = -1;
    for (int y = 8; y < int(height) - 8 && edge < 0; ++y)
        for (int x = 8; x < int(width) - 8 && edge < 0; ++x)
            if (boxOnly[4 * (y * width + x) + 2] > 20) edge = y * int(width) + x;
    ASSERT_GE(edge, 0) << "no edge of the box in the image";
    const double px = edge % int(width) + 0.25, py = edge / int(width) + 0.25;
    for (DrawPath path : {DrawPath::Compute, DrawPath::Points, DrawPath::Glyphs}) {
        SCOPED_TRACE(render::drawPathName(path));
        const std::vector<uint8_t> clear = draw(Scene{}, path, 4.0f, domainHalf, &viewProj);
        Scene nearScene, farScene;
        nearScene.add(along(px, py, 5.0f), {1, 0, 0}); // in front of every edge
        farScene.add(along(px, py, 60.0f), {1, 0, 0}); // behind the box's far faces
        const std::vector<uint8_t> nearFrame = draw(nearScene, path, 4.0f, domainHalf, &viewProj);
        const std::vector<uint8_t> farFrame = draw(farScene, path, 4.0f, domainHalf, &viewProj);
        // The boid without the box (inside the near plane, clipped away): its colour alone.
        const std::vector<uint8_t> alone = draw(nearScene, path, 4.0f, 1e-3f, &viewProj);
        const std::vector<uint8_t> aloneFar = draw(farScene, path, 4.0f, 1e-3f, &viewProj);
        const size_t p = 4 * size_t(edge);
        for (int ch = 0; ch < 3; ++ch) {
            EXPECT_EQ(nearFrame[p + ch], alone[p + ch])
                << "channel " << ch << ": the edge shows over a nearer boid";
            EXPECT_NE(clear[p + ch], uint8_t(5 + 4 * (ch == 2))) << "no edge at the chosen pixel";
        }
        int differs = 0;
        for (int ch = 0; ch < 3; ++ch) differs += farFrame[p + ch] != aloneFar[p + ch];
        EXPECT_GT(differs, 0) << "the edge does not show over a farther boid";
    }
}

// A renderer draws into frames of another size once its target is resized (sizeTarget).
TEST_F(RenderTest, TheTargetFollowsTheFramesSize) {
    Scene scene;
    scene.add(atPixel(10.25, 8.25, 10), {0, 1, 0});
    const std::vector<uint64_t> before = rasterize(scene, 2.0f);
    EXPECT_EQ(std::count_if(before.begin(), before.end(), [](uint64_t w) { return w != empty; }), 4);
    render::Offscreen small = render::createOffscreen(ctx(), renderer, 32, 24);
    EXPECT_EQ(renderer.targetWidth, 32u);
    EXPECT_EQ(renderer.targetHeight, 24u);
    gpu::Buffer pos = test::makeBuffer(scene.pos), vel = test::makeBuffer(scene.vel);
    render::DrawSettings s = settings(DrawPath::Compute, 2.0f);
    s.width = 32;
    s.height = 24;
    test::runCommands([&](VkCommandBuffer cmd) {
        render::recordOffscreenDraw(cmd, ctx(), renderer, small, pos, vel, 1, s);
    });
    const std::vector<uint64_t> words = test::readBuffer<uint64_t>(renderer.target, 32 * 24);
    EXPECT_EQ(std::count_if(words.begin(), words.end(), [](uint64_t w) { return w != empty; }), 4);
    // The same projection at half the size: the point lands at half the pixel coordinates.
    EXPECT_NE(words[4 * 32 + 5], empty);
    gpu::destroyBuffer(ctx(), pos);
    gpu::destroyBuffer(ctx(), vel);
    render::destroyOffscreen(ctx(), small);
    render::sizeTarget(ctx(), renderer, width, height); // back for the fixture's offscreen frame
}

// After drawing, the profiler's probe finds timestamps that it can report: lavapipe's only behind
// barriers (its plain ones read a fraction of the work), a GPU's as they are.
TEST_F(RenderTest, TimestampsAfterADrawSeeTheWork) {
    const gpu::TimestampProbe probe = gpu::probeTimestamps(ctx());
    EXPECT_TRUE(gpu::timesReported(probe.trust)) << gpu::timestampTrustName(probe.trust);
    EXPECT_GT(probe.barriersMs, 0);
    if (probe.trust == gpu::TimestampTrust::Barriers) {
        EXPECT_LT(probe.directMs, probe.barriersMs / 2);
    }
}

} // namespace
