#version 460
// A point's square with its corners cut from 3 px up, the footprint of the compute path.
#extension GL_GOOGLE_include_directive : require
#include "draw_types.h"

layout(push_constant) uniform Push { DrawConstants c; };
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 outColor;

void main() {
    const int size = int(c.pointSize);
    const ivec2 cell = min(ivec2(gl_PointCoord * float(size)), ivec2(size - 1));
    if (size >= 3 && (cell.x == 0 || cell.x == size - 1) && (cell.y == 0 || cell.y == size - 1)) discard;
    outColor = vec4(color, 1.0);
}
