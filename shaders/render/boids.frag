#version 460
// Round points with a little shading towards the rim.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 outColor;

void main() {
    const vec2 corner = gl_PointCoord * 2.0 - 1.0;
    const float r2 = dot(corner, corner);
    if (r2 > 1.0) discard;
    outColor = vec4(color * (1.0 - 0.35 * r2), 1.0);
}
