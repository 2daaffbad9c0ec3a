#version 460
// One pass of the multi-level exclusive scan of 32-bit counts (sort::recordExclusiveScan). A group
// takes a chunk of ITEMS consecutive elements an invocation: REDUCE writes the chunk's total to
// sums[group]; otherwise the chunk's exclusive scan, plus sums[group] (the totals of the chunks
// before it, scanned one level up) with addSums, goes to out[i * outStride]. In place (in == out)
// is fine: every invocation reads its own elements before a barrier and writes only those.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Before the includes: dispatch.glsl uses gl_WorkGroupSize, which must already be specialized.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITEMS = 4;  // tuning::scanItemsPerInvocation
#include "sort_types.h"
#include "../dispatch.glsl"
#include "subgroup_index.glsl"

layout(std430, binding = 0) buffer In { uint valuesIn[]; };
layout(std430, binding = 1) buffer Out { uint valuesOut[]; };
layout(std430, binding = 2) buffer Sums { uint sums[]; };
layout(push_constant) uniform Push { ScanConstants c; };

// Each subgroup's total, then their exclusive scan; at least one subgroup of 1 per invocation.
shared uint subgroupTotals[gl_WorkGroupSize.x];
shared uint groupTotal;

void main() {
    const uint group = linearGroupIndex();
    const uint chunk = gl_WorkGroupSize.x * ITEMS;
    // Groups past the end (a dispatch split over y) leave together, before any barrier.
    if (group * chunk >= c.count) return;
    const uint first = group * chunk + subgroupMajorIndex() * ITEMS;
    uint items[ITEMS];
    uint total = 0;
    for (uint j = 0; j < ITEMS; ++j) {
        items[j] = first + j < c.count ? valuesIn[first + j] : 0u;
        total += items[j];
    }
    const uint before = subgroupExclusiveAdd(total);
    const uint subgroupTotal = subgroupAdd(total);
    if (subgroupElect()) subgroupTotals[gl_SubgroupID] = subgroupTotal;
    barrier();
    // The first subgroup scans the subgroup totals, gl_SubgroupSize at a time with a carry.
    if (gl_SubgroupID == 0) {
        uint carry = 0;
        for (uint base = 0; base < gl_NumSubgroups; base += gl_SubgroupSize) {
            const uint s = base + gl_SubgroupInvocationID;
            const uint t = s < gl_NumSubgroups ? subgroupTotals[s] : 0u;
            const uint scanned = subgroupExclusiveAdd(t) + carry;
            if (s < gl_NumSubgroups) subgroupTotals[s] = scanned;
            carry += subgroupAdd(t);
        }
        if (subgroupElect()) groupTotal = carry;
    }
    barrier();
    if (c.reduce != 0) {
        if (subgroupMajorIndex() == 0) sums[group] = groupTotal;
        return;
    }
    uint running = subgroupTotals[gl_SubgroupID] + before + (c.addSums != 0 ? sums[group] : 0u);
    for (uint j = 0; j < ITEMS; ++j) {
        if (first + j < c.count) valuesOut[(first + j) * c.outStride] = running;
        running += items[j];
    }
}
