// The flocking rules of the CUDA flocking lab, applied to one boid over its neighbours. This is the
// only place the GPU passes write them; the CPU's copy is in tests/reference.cpp.
//
// A pass that includes this file defines neighbourVelocity(j), which returns the velocity of the
// neighbour that the pass calls j. A pass that defines PACKABLE_VELOCITY before the include may
// instead, when the PACKED_VELOCITY specialization constant is set, hand each neighbour's packed
// velocity (sim_types.h) to addNeighbour. The rules then sum those words as integers and decode the
// sums once for each boid, which saves loading every neighbour's velocity.
#ifndef VKBOIDS_RULES_GLSL
#define VKBOIDS_RULES_GLSL

// Set where r1 == r3, as in the lab's defaults, so that cohesion and alignment share one distance
// test and one count.
layout(constant_id = 1) const bool COHESION_IS_ALIGNMENT = false;

#ifdef PACKABLE_VELOCITY
layout(constant_id = 2) const bool PACKED_VELOCITY = false;
// How many candidates the packed sums may take between two decodes. The default,
// PACKED_VELOCITY_ROOM (sim_types.h), is the most that no sum can overflow. Tests set fewer, so that
// the decode in the middle of a scan runs too.
layout(constant_id = 3) const uint PACKED_ROOM = PACKED_VELOCITY_ROOM;
#else
const bool PACKED_VELOCITY = false;
#endif

vec3 neighbourVelocity(uint j);

// Accumulated neighbour sums of one boid.
struct Neighbours {
    vec3 cohesion; // sum of d over dist < r1
    float cohesionCount;
    vec3 separation; // sum of d over dist < r2
    vec3 alignment;  // sum of v_j over dist < r3 (PACKED_VELOCITY: of those decoded so far)
    float alignmentCount;
#ifdef PACKABLE_VELOCITY
    uvec3 packedSums;   // the sums s0, s1, s2 of sim_types.h since the last decode
    float decodedCount; // the alignment count at the last decode
    uint room;          // candidates the packed sums may still take
#endif
};

Neighbours noNeighbours() {
    Neighbours n;
    n.cohesion = vec3(0);
    n.cohesionCount = 0.0;
    n.separation = vec3(0);
    n.alignment = vec3(0);
    n.alignmentCount = 0.0;
#ifdef PACKABLE_VELOCITY
    n.packedSums = uvec3(0);
    n.decodedCount = 0.0;
    n.room = PACKED_ROOM;
#endif
    return n;
}

// The velocity of neighbour j, or its packed velocity w, into the alignment sum: with
// PACKED_VELOCITY three integer adds, and no load.
void addVelocity(inout Neighbours n, uint j, uint w) {
#ifdef PACKABLE_VELOCITY
    if (PACKED_VELOCITY) {
        n.packedSums += uvec3(w, w >> 10, w >> 20);
        return;
    }
#endif
    n.alignment += neighbourVelocity(j);
}

// Neighbour j at displacement d = p_j - p_i (the minimum image), its packed velocity w (read only
// with PACKED_VELOCITY). Its velocity is read only when it is within r3.
void addNeighbour(inout Neighbours n, vec3 d, uint j, uint w, StepConstants c) {
    const float dist2 = d.x * d.x + d.y * d.y + d.z * d.z;
    if (dist2 < c.cohesionRadiusSq) {
        n.cohesion += d;
        n.cohesionCount += 1.0;
        if (COHESION_IS_ALIGNMENT) addVelocity(n, j, w);
    }
    if (dist2 < c.separationRadiusSq) n.separation += d;
    if (!COHESION_IS_ALIGNMENT && dist2 < c.alignmentRadiusSq) {
        addVelocity(n, j, w);
        n.alignmentCount += 1.0;
    }
}

#ifdef PACKABLE_VELOCITY
// The packed sums into the alignment sum (sim_types.h), and started again: once a boid, or more
// often only when its candidates outgrow PACKED_ROOM.
void decodeVelocities(inout Neighbours n, StepConstants c) {
    const float count = COHESION_IS_ALIGNMENT ? n.cohesionCount : n.alignmentCount;
    // The words summed since the last decode (counts are exact integers in float below 2^24).
    const uint bias = uint(int(count - n.decodedCount)) * 512u;
    const uvec3 s = n.packedSums;
    const ivec3 q = ivec3(uvec3(s.x - (s.y << 10), s.y - (s.z << 10), s.z) - bias);
    n.alignment += vec3(q) * c.velocityPackStep;
    n.packedSums = uvec3(0);
    n.decodedCount = count;
    n.room = PACKED_ROOM;
}
#endif

// A pass that meets the boid itself among its candidates (at d = 0, within every radius) takes it
// out afterwards, rather than test j != i for every candidate: its velocity v, or its packed
// velocity w.
void removeSelf(inout Neighbours n, vec3 v, uint w) {
    n.cohesionCount -= 1.0;
    n.alignmentCount -= 1.0;
#ifdef PACKABLE_VELOCITY
    if (PACKED_VELOCITY) {
        n.packedSums -= uvec3(w, w >> 10, w >> 20);
        return;
    }
#endif
    n.alignment -= v;
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
