#version 460
// Dependent-load latency (tools/latency_probe.cpp): one invocation walks CHAINS cycles of a random
// permutation in step, so a step is one load's round trip with CHAINS loads in flight. The sort's
// look-back (shaders/sort/onesweep.comp) is such a walk: its steps read words other groups published.
// The walk runs twice from the same starts: the first brings its lines into the caches, the second
// is timed by the device clock.
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_realtime_clock : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 1) in;
layout(constant_id = 0) const uint MODE = 0;    // 0: plain loads, 1: coherent loads, 2: relaxed device-scope atomics
layout(constant_id = 1) const uint CHAINS = 1;  // 1 to 16
#include "../shared.h"

layout(std430, binding = 0) readonly buffer Plain { uint plainNext[]; };
layout(std430, binding = 1) coherent buffer Coherent { uint coherentNext[]; };
layout(std430, binding = 2) readonly buffer Starts { uint starts[]; };  // each chain's first word
// Device-clock ticks of the untimed walk and of the timed one (two words each), then where the
// walks ended (each chain's last word, hashed in chain order).
layout(std430, binding = 3) writeonly buffer Result { uint result[]; };
layout(push_constant) uniform Push { ProbeConstants c; };

uint next(uint i) {
    if (MODE == 0) return plainNext[i];
    if (MODE == 1) return coherentNext[i];
    return atomicLoad(coherentNext[i], gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
}

uvec2 ticksBetween(uvec2 t0, uvec2 t1) { return uvec2(t1.x - t0.x, t1.y - t0.y - (t1.x < t0.x ? 1u : 0u)); }

void main() {
    uint at[CHAINS];
    uint hash = 0;
    uvec2 ticks[2];
    [[unroll]] for (uint walk = 0; walk < 2; ++walk) {
        [[unroll]] for (uint k = 0; k < CHAINS; ++k) at[k] = starts[k];
        const uvec2 t0 = clockRealtime2x32EXT();
        for (uint s = 0; s < c.steps; ++s)
            [[unroll]] for (uint k = 0; k < CHAINS; ++k) at[k] = next(at[k]);
        [[unroll]] for (uint k = 0; k < CHAINS; ++k) hash = hash * 16777619u ^ at[k];
        ticks[walk] = ticksBetween(t0, clockRealtime2x32EXT());  // after the hash: every load is back
    }
    result[0] = ticks[0].x;
    result[1] = ticks[0].y;
    result[2] = ticks[1].x;
    result[3] = ticks[1].y;
    result[4] = hash;
}
