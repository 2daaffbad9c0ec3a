// The indices of a dispatch, whatever its shape. Every pass must use these, because any dispatch may
// be split over y.
#ifndef VKBOIDS_DISPATCH_GLSL
#define VKBOIDS_DISPATCH_GLSL

// A dispatch wider than the device's limit on x groups is split over y (gpu::dispatchGroupsRaw).
uint linearGroupIndex() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint linearInvocationIndex() { return linearGroupIndex() * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }

#endif
