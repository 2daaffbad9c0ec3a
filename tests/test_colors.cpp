// Every colour mode (color.glsl) on every drawing path against its CPU reference: known boids in known
// grid cells and slots get the colours computed here.

#include "render/cell_color.h"
#include "render_test.h"
#include "sim/grid.h"

#include <cmath>
#include <random>
#include <set>
#include <tuple>

namespace {

using namespace drawtest;

// The CPU references of color.glsl, the same float operations.
glm::vec3 hueColor(float h) {
    const glm::vec3 shifted = h + glm::vec3(0.0f, 2.0f / 3.0f, 1.0f / 3.0f);
    return glm::clamp(glm::abs((shifted - glm::floor(shifted)) * 6.0f - 3.0f) - 1.0f, 0.0f, 1.0f);
}

// The hue and the brightness come from cell_color.h, the very functions color.glsl runs.
glm::vec3 cellColorOf(glm::uvec3 cell) {
    const float hue = gpudata::cellHue(cell.x, cell.y, cell.z);
    return glm::mix(glm::vec3(1.0f), hueColor(hue), 0.8f) * gpudata::cellBrightness(cell.x, cell.y, cell.z);
}

// The boid's cell as the simulation computes it (sim::cellCoordinate): the drawing must agree.
glm::uvec3 cellOf(glm::vec3 p, float L, float invCellWidth, uint32_t dim) {
    return {sim::cellCoordinate(p.x, L, invCellWidth, dim), sim::cellCoordinate(p.y, L, invCellWidth, dim),
            sim::cellCoordinate(p.z, L, invCellWidth, dim)};
}

glm::vec3 orderColor(uint32_t index, uint32_t count) {
    return hueColor(0.8f * float(index) / float(std::max(count, 2u) - 1u));
}

glm::vec3 speedColor(glm::vec3 v, float maxSpeed) {
    const float t = std::clamp(glm::length(v) / maxSpeed, 0.0f, 1.0f);
    const glm::vec3 a(0.27f, 0.00f, 0.33f), b(0.13f, 0.57f, 0.55f), d(0.99f, 0.91f, 0.14f);
    return t < 0.5f ? glm::mix(a, b, t * 2.0f) : glm::mix(b, d, t * 2.0f - 1.0f);
}

// The depth cue of the tests' settings (cueNear 1, cueFar 50).
float cue(float w) {
    return glm::mix(1.0f, 0.3f, std::clamp((w - 1.0f) / 49.0f, 0.0f, 1.0f));
}

// A grid the drawing is told about: L, and cells per axis; invCellWidth as the step constants hold it.
struct GridCase {
    float L;
    uint32_t dim;
    float invCellWidth() const { return float(dim) / (2.0f * L); }
};

// Boids 8 pixels apart (no footprint touches another), 15 to 45 from the camera, none within a
// thousandth of a cell of a cell's edge, where float rounding could move it.
Scene spreadScene(const GridCase& g, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> distance(15.0f, 45.0f), u(-1.0f, 1.0f);
    Scene scene;
    for (uint32_t y = 4; y < height; y += 8)
        for (uint32_t x = 4; x < width; x += 8)
            for (;;) {
                const glm::vec4 p = atPixel(x + 0.25, y + 0.25, distance(rng));
                bool nearEdge = false;
                for (int a = 0; a < 3; ++a) {
                    const float f = (p[a] + g.L) * g.invCellWidth();
                    nearEdge = nearEdge || std::abs(f - std::round(f)) < 1e-3f;
                }
                if (nearEdge) continue;
                scene.add(p, {u(rng), u(rng), u(rng)});
                break;
            }
    return scene;
}

class ColorTest : public DrawTest {};

TEST_F(ColorTest, EveryModeOnEveryPathMatchesTheReference) {
    const std::vector<DrawPath> paths =
        render::computePathAvailable(ctx())
            ? std::vector{DrawPath::Compute, DrawPath::Points, DrawPath::Glyphs}
            : std::vector{DrawPath::Points, DrawPath::Glyphs};
    // A grid whose cells are wide and whose box lies beyond the far plane, and a small one that most
    // boids lie outside of: their cells clamp to the grid's faces, as the simulation's do.
    for (const GridCase g : {GridCase{500.0f, 100}, GridCase{20.0f, 4}}) {
        const Scene scene = spreadScene(g, g.dim);
        const uint32_t n = uint32_t(scene.pos.size());
        std::set<std::tuple<uint32_t, uint32_t, uint32_t>> cells;
        for (const glm::vec4& p : scene.pos) {
            const glm::uvec3 c = cellOf(glm::vec3(p), g.L, g.invCellWidth(), g.dim);
            cells.insert({c.x, c.y, c.z});
        }
        ASSERT_GE(cells.size(), g.dim == 4 ? 4u : 12u) << "the scene spans too few cells";
        for (DrawPath path : paths)
            for (render::ColorMode mode : {render::ColorMode::Speed, render::ColorMode::Heading,
                                           render::ColorMode::Cell, render::ColorMode::Order}) {
                render::DrawSettings s = settings(path, 3.0f, g.L);
                s.style.glyphSize = 6.0f;
                s.style.colorMode = mode;
                s.maxSpeed = 1.5f;
                s.gridDim = g.dim;
                s.invCellWidth = g.invCellWidth();
                const std::vector<uint8_t> frame = draw(scene, s);
                int wrong = 0;
                for (uint32_t i = 0; i < n; ++i) {
                    const glm::vec3 p(scene.pos[i]), v(scene.vel[i]);
                    const float w = -p.z;
                    const glm::vec3 expected =
                        mode == render::ColorMode::Speed ? cue(w) * speedColor(v, s.maxSpeed)
                        : mode == render::ColorMode::Cell
                            ? cue(w) * cellColorOf(cellOf(p, g.L, g.invCellWidth(), g.dim))
                        : mode == render::ColorMode::Order ? cue(w) * orderColor(i, n)
                                                           : expectedColor(v, w);
                    // Boid i was placed a quarter pixel into this pixel: its footprint covers it on every
                    // path.
                    const size_t pixel = size_t(4 + 8 * (i / 8)) * width + 4 + 8 * (i % 8);
                    for (int c = 0; c < 3; ++c)
                        if (std::abs(double(frame[4 * pixel + c]) - std::round(expected[c] * 255.0)) > 1.0 &&
                            wrong++ < 5)
                            ADD_FAILURE() << render::drawPathName(path) << " " << render::colorModeName(mode)
                                          << " L " << g.L << ": boid " << i << " channel " << c << " is "
                                          << int(frame[4 * pixel + c]) << ", expected "
                                          << std::round(expected[c] * 255.0);
                }
            }
    }
}

// Face neighbours differ in brightness (a 3D checkerboard) and the hashed hues spread over the whole
// wheel. The hue and the brightness are the shaders' own (cell_color.h), so a change to the shaders'
// hash that clumps the hues fails here.
TEST(CellColors, NeighboursAreDistinguishable) {
    std::set<int> hues;
    for (uint32_t z = 0; z < 8; ++z)
        for (uint32_t y = 0; y < 8; ++y)
            for (uint32_t x = 0; x < 8; ++x) {
                const glm::vec3 c = cellColorOf({x, y, z});
                const float brightest = std::max({c.r, c.g, c.b});
                for (glm::uvec3 n :
                     {glm::uvec3(x + 1, y, z), glm::uvec3(x, y + 1, z), glm::uvec3(x, y, z + 1)}) {
                    const glm::vec3 d = cellColorOf(n);
                    const float ratio = brightest / std::max({d.r, d.g, d.b});
                    EXPECT_TRUE(ratio > 1.9f || ratio < 1 / 1.9f) << x << "," << y << "," << z;
                }
                // Which twelfth of the wheel; in double, where the product is exact.
                hues.insert(int(double(gpudata::cellHue(x, y, z)) * 12.0));
            }
    EXPECT_EQ(hues.size(), 12u);
}

} // namespace
