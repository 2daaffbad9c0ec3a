#pragma once
// Boids drawn straight from the simulation's position and velocity buffers (no copy through the
// CPU), and the domain's box. Three paths: a compute rasterizer that writes each boid's pixels with
// 64-bit atomics and resolves them into the frame in a compute pass; hardware points, one vertex a
// boid; or glyphs, an arrowhead a boid pointing along its heading.

#include "gpu/buffer.h"
#include "gpu/image.h"
#include "gpu/program.h"
#include "io/names.h"

#include <glm/mat4x4.hpp>

#include <optional>
#include <string>
#include <vector>

namespace render {

// Auto draws glyphs up to glyphsUpTo boids, and above that the fastest point path the device has.
enum class DrawPath { Compute, Points, Glyphs, Auto };
constexpr io::NameTable<DrawPath, 4> drawPathNames{{"compute", "points", "glyphs", "auto"}};

inline const char* drawPathName(DrawPath path) {
    return io::nameIn(drawPathNames, path);
}
inline std::optional<DrawPath> drawPathFromName(const std::string& name) {
    return io::valueIn(drawPathNames, name);
}

// Auto draws glyphs up to this many boids, because a glyph costs two triangles and a point only one
// pixel write.
constexpr uint32_t glyphsUpTo = 20000;

// The values of draw_types.h's DRAW_COLOR_*.
enum class ColorMode { Speed, Heading, Cell, Order };
constexpr io::NameTable<ColorMode, 4> colorModeNames{{"speed", "heading", "cell", "order"}};

inline const char* colorModeName(ColorMode mode) {
    return io::nameIn(colorModeNames, mode);
}
inline std::optional<ColorMode> colorModeFromName(const std::string& name) {
    return io::valueIn(colorModeNames, name);
}

constexpr float minPointSize = 1.0f, maxPointSize = 4.0f;
constexpr float minGlyphSize = 4.0f, maxGlyphSize = 16.0f;

// What the user chooses: the panel's drawing section and the command line.
struct DrawStyle {
    DrawPath path = DrawPath::Auto;
    float pointSize = 2.0f;  // diameter in pixels, 1 to 4
    float glyphSize = 10.0f; // a glyph's length in pixels, 4 to 16
    // Heading is the default because most boids fly at the speed limit, so colouring by speed would
    // show one colour.
    ColorMode colorMode = ColorMode::Heading;
    bool depthCue = true; // darken boids with distance
};

struct DrawSettings {
    DrawStyle style;
    glm::mat4 viewProj{1.0f};
    uint32_t width = 1, height = 1; // the frame's size in pixels
    float maxSpeed = 1.0f;          // the speed at the top of the colour ramp
    float domainHalf = 100.0f;
    float cueNear = 0.0f; // view distance where darkening starts
    float cueFar = 1.0f;  // the view distance where darkening is strongest
    // For ColorMode::Cell, the simulation's grid as its step constants hold it.
    uint32_t gridDim = 1;
    float invCellWidth = 0.0f;
};

struct Renderer {
    VkFormat colorFormat = VK_FORMAT_UNDEFINED;
    VkFormat depthFormat = VK_FORMAT_UNDEFINED;
    // The layout the frame's colour is left in after each drawing: presentable, or ready to be copied out.
    VkImageLayout finalLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    gpu::Program points, glyphs, box;
    gpu::Program raster, resolve, boxOverTarget; // the compute path, where the device has it
    gpu::Buffer target;                          // the compute path's (depth, colour) words, one per pixel
    uint32_t targetWidth = 0, targetHeight = 0;
};

// The compute path needs 64-bit atomics on storage buffers and stores to images of any format.
bool computePathAvailable(const gpu::Context& context);
// The path that draws `count` boids when the user chose `chosen`. Auto means glyphs up to glyphsUpTo
// boids, then compute on GPUs that can run it and points on CPU drivers; compute falls back to points
// where the frame or the device cannot take it.
DrawPath resolveDrawPath(DrawPath chosen, uint32_t count, bool computeUsable, bool cpuDevice);

Renderer createRenderer(const gpu::Context& context, VkFormat colorFormat, VkFormat depthFormat,
                        VkImageLayout finalLayout);
void destroyRenderer(const gpu::Context& context, Renderer& renderer);

// An image a frame is drawn into, of the renderer's colour format, and a depth image of its depth format.
struct FrameTarget {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkImage depthImage = VK_NULL_HANDLE;
    VkImageView depthView = VK_NULL_HANDLE;
    uint32_t width = 0, height = 0;
    bool storage = false; // the image takes storage writes, as the compute path's resolve needs
};

// Sizes the compute path's target for frames of width x height (nothing without the compute path).
// It waits for the device to idle when the size changes, so call it where the frames' images are made
// or remade.
void sizeTarget(const gpu::Context& context, Renderer& renderer, uint32_t width, uint32_t height);

// The path that draws `count` boids into the frame with these settings (never Auto).
DrawPath drawnPath(const gpu::Context& context, const Renderer& renderer, const FrameTarget& frame,
                   const DrawSettings& settings, uint32_t count);

// Draws `count` boids and the box into the frame, in a rendering of their own that leaves colour in
// finalLayout. The compute path's work runs before it, in a target sized for the frame (sizeTarget).
void recordDraw(VkCommandBuffer cmd, const gpu::Context& context, const Renderer& renderer,
                const FrameTarget& frame, const gpu::Buffer& pos, const gpu::Buffer& vel, uint32_t count,
                const DrawSettings& settings);

// Begins a rendering over the drawn frame's colour, without depth, for overlays such as the panel;
// endOverlay ends it and leaves the colour in finalLayout again. The overlay gets a rendering of its
// own so that it is timed apart from the boids (see gpu/profiler.h).
void beginOverlay(VkCommandBuffer cmd, const Renderer& renderer, const FrameTarget& frame);
void endOverlay(VkCommandBuffer cmd, const Renderer& renderer, const FrameTarget& frame);

// An RGBA8 offscreen frame, for headless benchmarks and tests.
struct Offscreen {
    gpu::Image color, depth;
    FrameTarget frame;
};

// Creates an offscreen frame in the renderer's depth format (its colour format must be RGBA8), and
// sizes the renderer's target for it.
Offscreen createOffscreen(const gpu::Context& context, Renderer& renderer, uint32_t width, uint32_t height);
void destroyOffscreen(const gpu::Context& context, Offscreen& offscreen);

// Records recordDraw into the offscreen frame.
void recordOffscreenDraw(VkCommandBuffer cmd, const gpu::Context& context, const Renderer& renderer,
                         const Offscreen& offscreen, const gpu::Buffer& pos, const gpu::Buffer& vel,
                         uint32_t count, const DrawSettings& settings);

// Reads the offscreen colour image back as RGBA8 bytes, rows top to bottom. It blocks, so it is for
// tests and tools; the renderer that drew it must have finalLayout TRANSFER_SRC_OPTIMAL.
std::vector<uint8_t> readOffscreen(const gpu::Context& context, const Offscreen& offscreen);

} // namespace render
