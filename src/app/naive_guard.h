#pragma once
// Naive mode's all-pairs step grows as n^2: on a slow device one step at the default count takes
// seconds and freezes the window. Switching to it then waits for the user's confirmation; started
// in it from the command line, the demo says so and opens paused.

#include "gpu/context.h"
#include "sim/params.h"

#include <cstdint>
#include <string>
#include <utility>

namespace app {

// A step longer than this asks first.
constexpr double slowNaiveStepSeconds = 1.0;

// A naive step measured: the boids stepped and the seconds the step took.
struct NaiveTiming {
    uint32_t boids = 0; // the flock that was stepped
    double seconds = 0; // its step's time
};

// The time of a naive step with `boids` boids: a measured step scaled by the square of the counts'
// ratio (each boid tests every other).
double estimateNaiveStepSeconds(uint32_t boids, NaiveTiming measured);

// A naive step timed on the device, on a random flock at the density of `params` (the rules' costs
// depend on how many neighbours a boid has): from 1024 boids, doubling until one step takes a
// twentieth of a second or the count reaches `boids`, so that a fast GPU's fixed costs do not
// inflate the scaled estimate while a CPU driver measures in a fraction of a second.
NaiveTiming measureNaiveStep(const gpu::Context& ctx, uint32_t boids, const sim::Params& params);

// "naive with 20,000 boids: about 4 s a step on this device. Switch anyway?"
std::string naiveQuestion(uint32_t boids, double seconds);

// The demo started in naive mode from the command line: the same cost, and, where it opens paused
// rather than freeze its window, how to go on.
std::string naiveStartNote(uint32_t boids, double seconds, bool opensPaused);

} // namespace app
