// The drawing's GPU data, shared by C++ (namespace gpudata) and GLSL: std430 layouts.
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

// Push constants of every drawing program: the boids (any path), their resolve and the box.
struct DrawConstants {
    f32 viewProj[16]; // column-major
    f32 pointSize;    // diameter in pixels
    f32 maxSpeed;     // the speed ramp's top
    f32 domainHalf;
    u32 colorMode; // DRAW_COLOR_*
    u32 width;     // the target's size in pixels
    u32 height;
    u32 count;        // boids
    u32 depthCue;     // 1: darken with distance from the camera
    f32 cueNear;      // clip w where darkening starts (the domain's nearest point)
    f32 cueFar;       // clip w where it is strongest (the farthest)
    f32 glyphSize;    // a glyph's length in pixels, tip to wings
    u32 gridDim;      // DRAW_COLOR_CELL: the simulation's grid, cells per axis,
    f32 invCellWidth; // and cells per unit length (as the simulation's step constants hold them)
    u32 pad0;
    u32 pad1;
    u32 pad2;
};

// Push constants of the ImGui program: ImGui's display coordinates to clip space.
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

// The compute path's target: one 64-bit word a pixel, depth's float bits above the RGBA8 colour, so
// one atomicMin keeps the nearest boid (and, at equal depths, the smaller colour word). Cleared to
// all ones: no boid.
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
