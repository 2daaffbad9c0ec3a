#version 460
// ImGui's colour times its texture (the font atlas; shapes sample its white texel), straight alpha.
layout(binding = 0) uniform sampler2D font;
layout(location = 0) in vec2 uv;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 outColor;

void main() {
    outColor = color * texture(font, uv);
}
