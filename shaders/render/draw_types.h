// The drawing's GPU data in std430 layout, written once here and included by both C++ (namespace
// gpudata) and GLSL.
#ifndef VKBOIDS_DRAW_TYPES_H
#define VKBOIDS_DRAW_TYPES_H

#ifdef __cplusplus
#include <cstdint>
namespace gpudata {
using u32 = uint32_t;
using f32 = float;
#else
#define u32 uint
#define f32 float
#endif

// The push constants of every drawing program: the boids on any path, their resolve and the box.
struct DrawConstants {
    f32 viewProj[16]; // column-major
    f32 pointSize;    // diameter in pixels
    f32 maxSpeed;     // the speed at the top of the colour ramp
    f32 domainHalf;
    u32 colorMode; // DRAW_COLOR_*
    u32 width;     // the target's size in pixels
    u32 height;
    u32 count;        // the number of boids
    u32 depthCue;     // 1 means darken with distance from the camera
    f32 cueNear;      // the clip w where darkening starts (the domain's nearest point)
    f32 cueFar;       // the clip w where it is strongest (the domain's farthest point)
    f32 glyphSize;    // a glyph's length in pixels, tip to wings
    u32 gridDim;      // for DRAW_COLOR_CELL, the simulation's cells per axis
    f32 invCellWidth; // and its cells per unit length, as its step constants hold them
    u32 pad0;
    u32 pad1;
    u32 pad2;
};

// The push constants of the ImGui program, which map ImGui's display coordinates to clip space.
struct ImGuiConstants {
    f32 scale[2];
    f32 translate[2];
};

#define DRAW_COLOR_SPEED 0u
#define DRAW_COLOR_HEADING 1u
#define DRAW_COLOR_CELL 2u  // the boid's grid cell, from its 3D coordinates
#define DRAW_COLOR_ORDER 3u // the boid's slot in the buffers: its sorted position in coherent mode

// A glyph: an arrowhead of two triangles (tip, left wing, notch) and (tip, notch, right wing) in the
// screen's plane, in units of glyphSize along the boid's screen heading (forward) and across it. Where
// the heading has no screen direction (still, or flying along the view ray) the glyph is a diamond:
// GLYPH_DIAMOND_* instead.
#define GLYPH_TIP 0.55f           // the tip, ahead of the boid
#define GLYPH_WING_BACK 0.45f     // the wings, behind it,
#define GLYPH_WING_SIDE 0.35f     // and to either side
#define GLYPH_NOTCH_BACK 0.15f    // the notch between the wings, behind it
#define GLYPH_DIAMOND_RADIUS 0.3f // from the diamond's centre to each corner
// Below this fraction of the screen motion a sideways velocity would give, the heading counts as
// along the view ray: its screen direction would be noise.
#define GLYPH_MIN_SCREEN_HEADING 0.02f
#define GLYPH_VERTICES 6u

// The compute path's target holds one 64-bit word per pixel, with the depth's float bits above the
// RGBA8 colour, so that one atomicMin keeps the nearest boid (and, at equal depths, the smaller colour
// word). It is cleared to all ones, which means no boid.
#define DRAW_EMPTY_DEPTH 0xffffffffu

// The background of every frame.
#ifdef __cplusplus
constexpr float drawBackground[4] = {0.02f, 0.02f, 0.035f, 1.0f};
#else
#define DRAW_BACKGROUND vec4(0.02, 0.02, 0.035, 1.0)
#endif

#ifdef __cplusplus
static_assert(sizeof(DrawConstants) == 128); // the least maxPushConstantsSize Vulkan allows
static_assert(sizeof(ImGuiConstants) == 16);
} // namespace gpudata
#endif

#endif
