// The ImGui renderer against CPU expectations, drawn over a frame of background as the demo's panel
// is: the pipeline's blending, clip rectangles as scissors, draw lists one after the other in the
// buffers, the font atlas sampled, and buffers that grow with the draw data.

#include "render/imgui_renderer.h"
#include "render_test.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace {

using namespace drawtest;

struct Rgba {
    double r, g, b, a;
};

// The background as the frame stores it, RGBA8.
Rgba background() {
    const float* bg = gpudata::drawBackground;
    return {std::round(bg[0] * 255), std::round(bg[1] * 255), std::round(bg[2] * 255), 255};
}

// Straight-alpha "over" of an ImGui colour (texture white) on the stored background.
Rgba over(ImU32 c, Rgba dst) {
    const double r = c & 0xff, g = (c >> 8) & 0xff, b = (c >> 16) & 0xff, a = (c >> 24) / 255.0;
    return {r * a + dst.r * (1 - a), g * a + dst.g * (1 - a), b * a + dst.b * (1 - a),
            255 * a + dst.a * (1 - a)};
}

class ImGuiTest : public DrawTest {
  protected:
    void SetUp() override {
        DrawTest::SetUp();
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(float(width), float(height));
        imgui = render::createImGuiRenderer(ctx(), VK_FORMAT_R8G8B8A8_UNORM, 1);
    }
    void TearDown() override {
        render::destroyImGuiRenderer(ctx(), imgui);
        ImGui::DestroyContext();
        DrawTest::TearDown();
    }

    // The frame: no boids (the background), then the ImGui frame begun by the caller over it.
    std::vector<uint8_t> drawFrame() {
        ImGui::Render();
        gpu::Buffer pos = test::makeBuffer(std::vector<glm::vec4>{}, 1);
        gpu::Buffer vel = test::makeBuffer(std::vector<glm::vec4>{}, 1);
        test::runCommands([&](VkCommandBuffer cmd) {
            render::recordOffscreenDraw(cmd, ctx(), renderer, offscreen, pos, vel, 0,
                                        settings(DrawPath::Points, 1.0f));
            render::beginOverlay(cmd, renderer, offscreen.frame);
            render::recordImGui(cmd, ctx(), imgui, ImGui::GetDrawData(),
                                {offscreen.frame.width, offscreen.frame.height}, 0);
            render::endOverlay(cmd, renderer, offscreen.frame);
        });
        gpu::destroyBuffer(ctx(), pos);
        gpu::destroyBuffer(ctx(), vel);
        return render::readOffscreen(ctx(), offscreen);
    }

    void expectPixel(const std::vector<uint8_t>& rgba, uint32_t x, uint32_t y, Rgba want) {
        const uint8_t* p = &rgba[4 * (size_t(y) * width + x)];
        const std::string where = "pixel (" + std::to_string(x) + ", " + std::to_string(y) + ")";
        EXPECT_NEAR(p[0], want.r, 1.0) << where;
        EXPECT_NEAR(p[1], want.g, 1.0) << where;
        EXPECT_NEAR(p[2], want.b, 1.0) << where;
        EXPECT_NEAR(p[3], want.a, 1.0) << where;
    }

    render::ImGuiRenderer imgui;
};

bool inside(uint32_t x, uint32_t y, ImVec4 r) {
    return x + 0.5f >= r.x && x + 0.5f < r.z && y + 0.5f >= r.y && y + 0.5f < r.w;
}

TEST_F(ImGuiTest, RectanglesBlendOverTheFrameInsideTheirClipRectangles) {
    // Two draw lists: a half-transparent rectangle behind everything, and an opaque one in front, clipped.
    const ImVec4 translucent(8, 6, 40, 30), clip(44, 10, 56, 20);
    const ImU32 orange = IM_COL32(240, 120, 30, 128), green = IM_COL32(20, 200, 90, 255);
    ImGui::NewFrame();
    ImGui::GetBackgroundDrawList()->AddRectFilled(ImVec2(translucent.x, translucent.y),
                                                  ImVec2(translucent.z, translucent.w), orange);
    ImDrawList* front = ImGui::GetForegroundDrawList();
    front->PushClipRect(ImVec2(clip.x, clip.y), ImVec2(clip.z, clip.w));
    front->AddRectFilled(ImVec2(42, 4), ImVec2(60, 40), green);
    front->PopClipRect();
    const std::vector<uint8_t> rgba = drawFrame();
    ASSERT_EQ(ImGui::GetDrawData()->CmdListsCount, 2);
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            const Rgba want = inside(x, y, clip)          ? over(green, background())
                              : inside(x, y, translucent) ? over(orange, background())
                                                          : background();
            expectPixel(rgba, x, y, want);
        }
}

TEST_F(ImGuiTest, TextSamplesTheFontAtlas) {
    ImGui::NewFrame();
    const char* text = "vkboids";
    const ImVec2 at(4, 4), size = ImGui::CalcTextSize(text);
    ImGui::GetForegroundDrawList()->AddText(at, IM_COL32_WHITE, text);
    const std::vector<uint8_t> rgba = drawFrame();
    const ImVec4 box(at.x, at.y, at.x + size.x, at.y + size.y);
    const Rgba bg = background();
    uint32_t lit = 0, brightest = 0;
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            if (!inside(x, y, box)) {
                expectPixel(rgba, x, y, bg);
                continue;
            }
            const uint32_t green = rgba[4 * (size_t(y) * width + x) + 1];
            lit += green > bg.g + 1;
            brightest = std::max(brightest, green);
        }
    EXPECT_GT(lit, 20u) << "the glyphs' texels were not sampled";
    EXPECT_GE(brightest, 250u) << "a glyph's opaque texel is white";
}

TEST_F(ImGuiTest, BuffersGrowWithTheDrawData) {
    // A first frame with one rectangle, then one with a rectangle a pixel: more than the first buffers hold.
    ImGui::NewFrame();
    ImGui::GetForegroundDrawList()->AddRectFilled(ImVec2(0, 0), ImVec2(2, 2), IM_COL32_WHITE);
    drawFrame();
    const VkDeviceSize firstSize = imgui.frames[0].vertices.size;
    ImGui::NewFrame();
    auto colorAt = [](uint32_t x, uint32_t y) { return IM_COL32(8 * x, 8 * y, 255 - 4 * (x + y), 255); };
    for (uint32_t y = 0; y < 30; ++y)
        for (uint32_t x = 0; x < 30; ++x)
            ImGui::GetForegroundDrawList()->AddRectFilled(ImVec2(float(x), float(y)),
                                                          ImVec2(float(x + 1), float(y + 1)), colorAt(x, y));
    const std::vector<uint8_t> rgba = drawFrame();
    EXPECT_GT(imgui.frames[0].vertices.size, firstSize);
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x)
            expectPixel(rgba, x, y, x < 30 && y < 30 ? over(colorAt(x, y), background()) : background());
}

TEST_F(ImGuiTest, ListsOverSixteenBitIndicesTakeVertexOffsets) {
    // 17,000 rectangles in one list, 68,000 vertices: ImGui starts a command at a vertex offset past
    // what 16-bit indices reach. Only the last rectangle lies on the frame.
    ImGui::NewFrame();
    ImDrawList* list = ImGui::GetForegroundDrawList();
    for (int i = 0; i < 16999; ++i) list->AddRectFilled(ImVec2(-8, -8), ImVec2(-4, -4), IM_COL32_WHITE);
    const ImVec4 last(20, 10, 30, 22);
    const ImU32 blue = IM_COL32(30, 60, 230, 255);
    list->AddRectFilled(ImVec2(last.x, last.y), ImVec2(last.z, last.w), blue);
    const std::vector<uint8_t> rgba = drawFrame();
    const ImDrawList* drawn = ImGui::GetDrawData()->CmdLists[0];
    ASSERT_GT(drawn->VtxBuffer.Size, 65536);
    ASSERT_GT(drawn->CmdBuffer.back().VtxOffset, 0u) << "ImGui drew the list without a vertex offset";
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x)
            expectPixel(rgba, x, y, inside(x, y, last) ? over(blue, background()) : background());
}

TEST_F(ImGuiTest, ClipRectanglesPastTheFrameAreCutToIt) {
    // Clip rectangles that start left of and above the frame, and end past its right and bottom.
    ImGui::NewFrame();
    ImDrawList* list = ImGui::GetForegroundDrawList();
    const ImU32 red = IM_COL32(220, 40, 40, 255), teal = IM_COL32(20, 180, 170, 255);
    list->PushClipRect(ImVec2(-20, -20), ImVec2(6, 5));
    list->AddRectFilled(ImVec2(-10, -10), ImVec2(12, 12), red);
    list->PopClipRect();
    const float w = float(width), h = float(height);
    list->PushClipRect(ImVec2(w - 7, h - 3), ImVec2(w + 50, h + 50));
    list->AddRectFilled(ImVec2(w - 20, h - 20), ImVec2(w + 20, h + 20), teal);
    list->PopClipRect();
    const std::vector<uint8_t> rgba = drawFrame();
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            const Rgba want = x < 6 && y < 5                      ? over(red, background())
                              : x >= width - 7 && y >= height - 3 ? over(teal, background())
                                                                  : background();
            expectPixel(rgba, x, y, want);
        }
}

#ifdef IMGUI_HAS_TEXTURES
// ImGui 1.92 and later rasterize glyphs at the size they are drawn: a size the atlas lacks is added to
// it by an update request, and an atlas that runs out of room is replaced by a larger one, the old one
// destroyed once no frame in flight samples it.
TEST_F(ImGuiTest, GlyphsOfNewSizesReachTheAtlasAsImGuiAsks) {
    ImGui::NewFrame();
    ImGui::GetForegroundDrawList()->AddText(ImVec2(4, 4), IM_COL32_WHITE, "v");
    drawFrame();

    // One large glyph, at a size not drawn before: its texels must have been uploaded to be seen.
    ImGui::NewFrame();
    const float size = 40.0f;
    ImGui::GetForegroundDrawList()->AddText(ImGui::GetFont(), size, ImVec2(2, 2), IM_COL32_WHITE, "W");
    const std::vector<uint8_t> rgba = drawFrame();
    const Rgba bg = background();
    uint32_t lit = 0, top = height, bottom = 0;
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x)
            if (rgba[4 * (size_t(y) * width + x) + 1] > bg.g + 1) {
                ++lit;
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
    EXPECT_GT(lit, 100u) << "the new size's glyph was not uploaded";
    EXPECT_GE(bottom - top, 20u) << "the glyph was drawn at the atlas's old size";

    // Many large sizes: the atlas grows into new textures, and the old ones go once unused.
    std::set<int> seen;
    for (int frame = 0; frame < 24; ++frame) {
        ImGui::NewFrame();
        if (frame < 16)
            ImGui::GetForegroundDrawList()->AddText(ImGui::GetFont(), 48.0f + 8.0f * frame, ImVec2(0, 0),
                                                    IM_COL32_WHITE, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
        drawFrame();
        for (const ImTextureData* tex : ImGui::GetPlatformIO().Textures) {
            seen.insert(tex->UniqueID);
            EXPECT_TRUE(tex->Status == ImTextureStatus_OK || tex->Status == ImTextureStatus_Destroyed ||
                        tex->Status == ImTextureStatus_WantDestroy) // ImGui asks for that at the next frame
                << "texture " << tex->UniqueID << " has a request left unmet: " << int(tex->Status);
        }
    }
    EXPECT_GT(seen.size(), 1u) << "the atlas never grew into a new texture";
    // The old atlases are gone, on ImGui's side and the renderer's.
    size_t live = 0;
    for (const ImTextureData* tex : ImGui::GetPlatformIO().Textures) {
        EXPECT_NE(tex->Status, ImTextureStatus_WantDestroy)
            << "texture " << tex->UniqueID << " was never destroyed";
        live += tex->Status == ImTextureStatus_OK;
    }
    EXPECT_EQ(imgui.textures.size(), live) << "the renderer holds textures ImGui let go of";
}
#endif

} // namespace
