#version 460
// Publish-to-observe latency between two work groups (tools/latency_probe.cpp): group 0 stores a
// word, group 1 polls until it sees it and answers in another word, ROUNDS times. A round trip is
// two hops of the sort's chain of prefixes: a relaxed store seen by another group's polls. Each
// group is as wide as the device allows and holds nearly all the shared memory a group may, so that
// the two most likely run on different SMs; Vulkan cannot pin them. Vulkan promises no concurrency
// between groups either: every wait gives up after SPIN_LIMIT polls, and the host says so.
#extension GL_EXT_shader_realtime_clock : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint PAD_WORDS = 4096;
layout(constant_id = 2) const uint SPIN_LIMIT = 1u << 22;
#include "../shared.h"

layout(std430, binding = 0) coherent buffer Flags { uint flags[]; };  // [0] group 0's word, [64] group 1's
layout(std430, binding = 1) writeonly buffer Result { uint result[]; }; // per group: ticks (2), rounds done
layout(push_constant) uniform Push { ProbeConstants c; };

shared uint sPad[PAD_WORDS];

uint load(uint i) { return atomicLoad(flags[i], gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed); }
void store(uint i, uint v) { atomicStore(flags[i], v, gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed); }

// Polls word i until it reads v; false after SPIN_LIMIT polls.
bool waitFor(uint i, uint v) {
    for (uint spin = 0; spin < SPIN_LIMIT; ++spin)
        if (load(i) == v) return true;
    return false;
}

void main() {
    const uint tid = gl_LocalInvocationID.x;
    for (uint i = tid; i < PAD_WORDS; i += gl_WorkGroupSize.x) sPad[i] = i;
    barrier();
    const uint g = gl_WorkGroupID.x;
    if (tid != 0 || g > 1) return;
    const uint mine = g == 0 ? 0u : 64u, theirs = g == 0 ? 64u : 0u;
    uint done = 0;
    const uvec2 t0 = clockRealtime2x32EXT();
    for (uint r = 1; r <= c.rounds; ++r) {
        if (g == 0) store(mine, r);
        if (!waitFor(theirs, r)) break;
        if (g == 1) store(mine, r);
        done = r;
    }
    const uvec2 t1 = clockRealtime2x32EXT();
    result[g * 4 + 0] = t1.x - t0.x;
    result[g * 4 + 1] = t1.y - t0.y - (t1.x < t0.x ? 1u : 0u);
    result[g * 4 + 2] = done;
    result[g * 4 + 3] = sPad[(done * 7) % PAD_WORDS];
}
