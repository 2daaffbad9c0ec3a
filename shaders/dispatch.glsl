// Indices of a dispatch, whatever its shape: every pass may be split over y.
#ifndef VKBOIDS_DISPATCH_GLSL
#define VKBOIDS_DISPATCH_GLSL

// Dispatches wider than the device's x limit are split over y (gpu::dispatchGroupsRaw).
uint linearGroupIndex() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint linearInvocationIndex() { return linearGroupIndex() * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }

#endif
