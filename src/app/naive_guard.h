#pragma once
// Naive mode's all-pairs step grows as n^2: on a slow device one step at the default count takes
// seconds and freezes the window. Switching to it then waits for the user's confirmation; started
// in it from the command line, the demo says so and opens paused.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace app {

// A step longer than this asks first.
constexpr double slowNaiveStepSeconds = 1.0;

// The time of a naive step with `boids` boids: the last measured step (count, seconds) scaled by
// the square of the counts' ratio, or before any measurement n^2 times a rough cost per pair.
double estimateNaiveStepSeconds(uint32_t boids, std::optional<std::pair<uint32_t, double>> measured,
                                bool cpuDevice);

// "naive with 20,000 boids: about 4 s a step on this device. Switch anyway?"
std::string naiveQuestion(uint32_t boids, double seconds);

// The demo started in naive mode from the command line: the same cost, and, where it opens paused
// rather than freeze its window, how to go on.
std::string naiveStartNote(uint32_t boids, double seconds, bool opensPaused);

} // namespace app
