// The hash and the checkerboard behind the cell colour mode, written once in the subset of C++ and
// GLSL that both read. color.glsl draws with them and tests/test_colors.cpp checks them, so a change
// to the hash is a change to what the tests check.
#ifndef VKBOIDS_CELL_COLOR_H
#define VKBOIDS_CELL_COLOR_H

#include "draw_types.h"

#ifdef __cplusplus
namespace gpudata {
// C++ needs inline for functions defined in a header; GLSL has no such keyword.
#define CELL_COLOR_INLINE inline
#else
#define CELL_COLOR_INLINE
#endif

// Chris Wellons' lowbias32 integer hash: each input bit changes about half of the output bits, so
// neighbouring cells get unrelated hues.
CELL_COLOR_INLINE u32 lowbias32(u32 x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// The hue of the cell at grid coordinates (x, y, z), in [0, 1) around the colour wheel. It is hashed
// from the 3D coordinates rather than the cell's index, so that a cell keeps its colour whatever
// order (row-major or Morton) the grid numbers its cells in.
CELL_COLOR_INLINE f32 cellHue(u32 x, u32 y, u32 z) {
    const u32 h = lowbias32(x ^ lowbias32(y ^ lowbias32(z)));
    return f32(h >> 8) * (1.0f / 16777216.0f);
}

// 1 or 0.5, alternating like a 3D checkerboard, so that cells sharing a face always differ in
// brightness.
CELL_COLOR_INLINE f32 cellBrightness(u32 x, u32 y, u32 z) {
    return ((x + y + z) & 1u) == 0u ? 1.0f : 0.5f;
}

#undef CELL_COLOR_INLINE
#ifdef __cplusplus
} // namespace gpudata
#endif

#endif
