#version 460
// Dependent-load latency (tools/latency_probe.cpp): one invocation walks CHAINS cycles of a random
// permutation in step, so a step is one load's round trip with CHAINS loads in flight. The sort's
// look-back (shaders/sort/onesweep.comp) is such a walk: its steps read words other groups published.
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_realtime_clock : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint MODE = 0;    // 0: plain loads, 1: coherent loads, 2: relaxed device-scope atomics
layout(constant_id = 1) const uint CHAINS = 1;  // 1 to 16

layout(std430, binding = 0) readonly buffer Plain { uint plainNext[]; };
layout(std430, binding = 1) coherent buffer Coherent { uint coherentNext[]; };
layout(std430, binding = 2) readonly buffer Starts { uint starts[]; };  // each chain's first word
layout(std430, binding = 3) writeonly buffer Result { uint result[]; };  // device-clock ticks (2 words), a checksum
layout(push_constant) uniform Push { uint steps; };

uint next(uint i) {
    if (MODE == 0) return plainNext[i];
    if (MODE == 1) return coherentNext[i];
    return atomicLoad(coherentNext[i], gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
}

void main() {
    if (gl_LocalInvocationID.x != 0) return;
    uint at[CHAINS];
    [[unroll]] for (uint c = 0; c < CHAINS; ++c) at[c] = starts[c];
    // The first walk is untimed: it brings the lines into the caches the timed walk may hit.
    for (uint s = 0; s < steps; ++s)
        [[unroll]] for (uint c = 0; c < CHAINS; ++c) at[c] = next(at[c]);
    const uvec2 t0 = clockRealtime2x32EXT();
    for (uint s = 0; s < steps; ++s)
        [[unroll]] for (uint c = 0; c < CHAINS; ++c) at[c] = next(at[c]);
    uint sum = 0;
    [[unroll]] for (uint c = 0; c < CHAINS; ++c) sum ^= at[c];
    const uvec2 t1 = clockRealtime2x32EXT();
    result[0] = t1.x - t0.x;
    result[1] = t1.y - t0.y - (t1.x < t0.x ? 1u : 0u);
    result[2] = sum;
}
