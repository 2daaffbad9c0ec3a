// An invocation's index within its work group, numbered subgroup by subgroup: lane l of subgroup g
// is g * gl_SubgroupSize + l. Vulkan ties gl_LocalInvocationID to no subgroup, so a pass that lays
// items out by invocation and scans them with subgroup operations numbers its invocations this way.
// Under full subgroups, which every sort and scan pipeline has (its pinned subgroup size divides its
// local size), this numbers the group's invocations 0 to local size - 1, each once.
#ifndef VKBOIDS_SORT_SUBGROUP_INDEX_GLSL
#define VKBOIDS_SORT_SUBGROUP_INDEX_GLSL

uint subgroupMajorIndex() { return gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID; }

#endif
