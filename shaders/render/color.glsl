// A boid's colour, the same on both drawing paths: by speed or heading, darkened with distance.

// A perceptual ramp from deep purple (still) through teal to yellow (at the speed limit).
vec3 speedRamp(float t) {
    const vec3 a = vec3(0.27, 0.00, 0.33), b = vec3(0.13, 0.57, 0.55), d = vec3(0.99, 0.91, 0.14);
    return t < 0.5 ? mix(a, b, t * 2.0) : mix(b, d, t * 2.0 - 1.0);
}

// clipW: the boid's distance along the view axis (clip space w).
vec3 boidColor(vec3 v, float clipW, DrawConstants c) {
    const float speed = length(v);
    vec3 color = c.colorMode == DRAW_COLOR_SPEED ? speedRamp(clamp(speed / c.maxSpeed, 0.0, 1.0))
                 : speed > 0.0                   ? 0.5 + 0.5 * v / speed
                                                 : vec3(0.5);
    // Far boids fade towards the background, so that a dense flock reads as a volume.
    if (c.depthCue != 0u) color *= mix(1.0, 0.3, clamp((clipW - c.cueNear) / (c.cueFar - c.cueNear), 0.0, 1.0));
    return color;
}

mat4 viewProjection(DrawConstants c) {
    return mat4(c.viewProj[0], c.viewProj[1], c.viewProj[2], c.viewProj[3], c.viewProj[4], c.viewProj[5],
                c.viewProj[6], c.viewProj[7], c.viewProj[8], c.viewProj[9], c.viewProj[10], c.viewProj[11],
                c.viewProj[12], c.viewProj[13], c.viewProj[14], c.viewProj[15]);
}
