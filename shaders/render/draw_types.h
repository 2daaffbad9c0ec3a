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

// Push constants of every drawing program: the boids (either path), their resolve and the box.
struct DrawConstants {
    f32 viewProj[16]; // column-major
    f32 pointSize;    // diameter in pixels
    f32 maxSpeed;     // the speed ramp's top
    f32 halfDomain;
    u32 colorMode; // DRAW_COLOR_*
    u32 width;     // the target's size in pixels
    u32 height;
    u32 count;     // boids
    u32 depthCue;  // 1: darken with distance from the camera
    f32 cueNear;   // clip w where darkening starts (the domain's nearest point)
    f32 cueFar;    // clip w where it is strongest (the farthest)
    u32 pad0;
    u32 pad1;
};

#define DRAW_COLOR_SPEED 0u
#define DRAW_COLOR_HEADING 1u

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
static_assert(sizeof(DrawConstants) == 112);
} // namespace gpudata
#endif

#endif
