#version 460
layout(location = 0) out vec4 outColor;

void main() { outColor = vec4(0.22, 0.24, 0.30, 0.45); }  // faint, premultiplied alpha
