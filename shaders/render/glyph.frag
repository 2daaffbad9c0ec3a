#version 460
// A glyph's fragments: its boid's colour.
layout(location = 0) flat in vec3 color;
layout(location = 0) out vec4 outColor;

void main() {
    outColor = vec4(color, 1.0);
}
