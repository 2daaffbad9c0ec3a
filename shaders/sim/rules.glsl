// The flocking rules of the CUDA flocking lab, for one boid over its neighbours: the only
// place the GPU passes write them (the CPU's are in tests/reference.cpp). A pass that includes this
// defines neighbourVelocity(j), where the velocity of the neighbour it calls j is read from.
#ifndef VKBOIDS_RULES_GLSL
#define VKBOIDS_RULES_GLSL

// r1 == r3 (the lab's defaults): cohesion and alignment share one test and one count.
layout(constant_id = 1) const bool COHESION_IS_ALIGNMENT = false;

vec3 neighbourVelocity(uint j);

// Accumulated neighbour sums of one boid.
struct Neighbours {
    vec3 cohesion; // sum of d over dist < r1
    float cohesionCount;
    vec3 separation; // sum of d over dist < r2
    vec3 alignment;  // sum of v_j over dist < r3
    float alignmentCount;
};

Neighbours noNeighbours() { return Neighbours(vec3(0), 0.0, vec3(0), vec3(0), 0.0); }

// Neighbour j at displacement d = p_j - p_i (the minimum image). Its velocity is read only when it
// is within r3.
void addNeighbour(inout Neighbours n, vec3 d, uint j, StepConstants c) {
    const float dist2 = d.x * d.x + d.y * d.y + d.z * d.z;
    if (dist2 < c.cohesionRadiusSq) {
        n.cohesion += d;
        n.cohesionCount += 1.0;
        if (COHESION_IS_ALIGNMENT) n.alignment += neighbourVelocity(j);
    }
    if (dist2 < c.separationRadiusSq) n.separation += d;
    if (!COHESION_IS_ALIGNMENT && dist2 < c.alignmentRadiusSq) {
        n.alignment += neighbourVelocity(j);
        n.alignmentCount += 1.0;
    }
}

// A pass that meets the boid itself among its candidates (at d = 0, within every radius) takes it
// out afterwards, rather than test j != i for every candidate.
void removeSelf(inout Neighbours n, vec3 v) {
    n.cohesionCount -= 1.0;
    n.alignment -= v;
    n.alignmentCount -= 1.0;
}

// Rule 4, the predator: a boid at minimum-image displacement d from it, 0 < |d| < R, flees along d
// with strength S (1 - |d| / R): S near the predator, fading to 0 at R, so no jump at the radius.
vec3 flee(vec3 p, StepConstants c) {
    const vec3 d = minImage(p - vec3(c.predatorX, c.predatorY, c.predatorZ), c.domainHalf);
    const float dist2 = dot(d, d);
    if (!(dist2 < c.predatorRadiusSq) || dist2 == 0.0) return vec3(0);
    const float dist = sqrt(dist2);
    return d * (c.predatorScale * (1.0 / dist - c.predatorInvRadius));
}

// New velocity and position of a boid from its neighbour sums: rules 1 to 4, the speed limit, and
// the step wrapped into the periodic domain.
void integrate(vec3 p, vec3 v, Neighbours n, StepConstants c, out vec3 pNew, out vec3 vNew) {
    const float alignmentCount = COHESION_IS_ALIGNMENT ? n.cohesionCount : n.alignmentCount;
    vec3 dv = vec3(0);
    if (n.cohesionCount > 0.0) dv += n.cohesion / n.cohesionCount * c.cohesionScale;
    dv -= n.separation * c.separationScale;
    if (alignmentCount > 0.0) dv += n.alignment / alignmentCount * c.alignmentScale;
    // Uniform (a push constant): without a predator the step is exactly the three rules'.
    if (c.predatorOn != 0u) dv += flee(p, c);
    vNew = v + dv;
    float speed = length(vNew);
    if (speed > c.maxSpeed) {
        // Huge velocities (a loaded state) overflow the squared length: scale down first.
        if (isinf(speed)) {
            vNew /= max(max(abs(vNew.x), abs(vNew.y)), abs(vNew.z));
            speed = length(vNew);
        }
        vNew *= c.maxSpeed / speed;
    }
    pNew = wrapPosition(p + vNew * c.dt, c.domainHalf);
}

#endif
