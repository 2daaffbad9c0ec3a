// A boid's colour, the same on every drawing path: by speed, heading, grid cell or slot, darkened with
// distance. tests/test_colors.cpp holds the CPU reference of each; the cell colour's hash and
// checkerboard are shared with it through cell_color.h.
#include "cell_color.h"

// A perceptual ramp from deep purple (still) through teal to yellow (at the speed limit).
vec3 speedRamp(float t) {
    const vec3 a = vec3(0.27, 0.00, 0.33), b = vec3(0.13, 0.57, 0.55), d = vec3(0.99, 0.91, 0.14);
    return t < 0.5 ? mix(a, b, t * 2.0) : mix(b, d, t * 2.0 - 1.0);
}

// A fully saturated colour of hue h (0: red, 1/3: green, 2/3: blue).
vec3 hueColor(float h) {
    return clamp(abs(fract(h + vec3(0.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0) - 1.0, 0.0, 1.0);
}

// The cell coordinate along one axis: the simulation's cellCoordinate (shaders/sim/common.glsl), written
// again because drawing does not depend on the simulation.
uint drawCellCoordinate(float x, DrawConstants c) {
    const float f = floor((x + c.domainHalf) * c.invCellWidth);
    return f > 0.0 ? min(uint(f), c.gridDim - 1u) : 0u;
}

// The colour of the boid's grid cell: a hue hashed from the cell's coordinates, softened towards
// white, at the cell's checkerboard brightness (cell_color.h).
vec3 cellColor(vec3 p, DrawConstants c) {
    const uvec3 cell = uvec3(drawCellCoordinate(p.x, c), drawCellCoordinate(p.y, c), drawCellCoordinate(p.z, c));
    return mix(vec3(1.0), hueColor(cellHue(cell.x, cell.y, cell.z)), 0.8) * cellBrightness(cell.x, cell.y, cell.z);
}

// Slot `index` of `count` along hues from red to violet: where the simulation keeps boids sorted
// (coherent mode), the order of the sort.
vec3 orderColor(uint index, uint count) {
    return hueColor(0.8 * float(index) / float(max(count, 2u) - 1u));
}

// clipW is the boid's distance along the view axis (clip space w).
vec3 boidColor(vec3 p, vec3 v, uint index, float clipW, DrawConstants c) {
    vec3 color;
    if (c.colorMode == DRAW_COLOR_SPEED) {
        color = speedRamp(clamp(length(v) / c.maxSpeed, 0.0, 1.0));
    } else if (c.colorMode == DRAW_COLOR_CELL) {
        color = cellColor(p, c);
    } else if (c.colorMode == DRAW_COLOR_ORDER) {
        color = orderColor(index, c.count);
    } else {
        const float speed = length(v);
        color = speed > 0.0 ? 0.5 + 0.5 * v / speed : vec3(0.5);
    }
    // Far boids fade towards the background, so that a dense flock reads as a volume.
    if (c.depthCue != 0u) color *= mix(1.0, 0.3, clamp((clipW - c.cueNear) / (c.cueFar - c.cueNear), 0.0, 1.0));
    return color;
}

mat4 viewProjection(DrawConstants c) {
    return mat4(c.viewProj[0], c.viewProj[1], c.viewProj[2], c.viewProj[3], c.viewProj[4], c.viewProj[5],
                c.viewProj[6], c.viewProj[7], c.viewProj[8], c.viewProj[9], c.viewProj[10], c.viewProj[11],
                c.viewProj[12], c.viewProj[13], c.viewProj[14], c.viewProj[15]);
}
