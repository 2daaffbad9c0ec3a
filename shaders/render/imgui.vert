#version 460
// Dear ImGui's vertices (ImDrawVert), in its display coordinates.
#extension GL_GOOGLE_include_directive : require
#include "draw_types.h"

layout(push_constant) uniform Push { ImGuiConstants c; };
layout(location = 0) in vec2 inPos;
layout(location = 1) in vec2 inUv;
layout(location = 2) in vec4 inColor;
layout(location = 0) out vec2 uv;
layout(location = 1) out vec4 color;

void main() {
    uv = inUv;
    color = inColor;
    gl_Position = vec4(inPos * vec2(c.scale[0], c.scale[1]) + vec2(c.translate[0], c.translate[1]), 0.0, 1.0);
}
