#pragma once
// The panel's presets: rule settings to play with, applied without restarting the flock (one changes
// the count, through the reset that keeps the density).

#include "sim/params.h"

#include <cstdint>
#include <string>
#include <vector>

namespace app {

struct Preset {
    const char* name;
    const char* id;          // the preset's name on the command line (--preset)
    sim::Params params;      // the rules (and L where setsDomain)
    uint32_t boids = 0;      // if not 0, a fresh flock of this many boids at the same density
    bool setsDomain = false; // whether the preset sets L; otherwise the flock keeps its own
};

const std::vector<Preset>& presets();

// Every preset's id, comma-separated, for help and errors.
std::string presetIds();

// The preset whose id (or name) is `text`, or null.
const Preset* findPreset(const std::string& text);

// A frame slower than this, under a preset just chosen, is said (slowPresetNote).
constexpr double slowPresetFrameSeconds = 0.25;

// "large-flock: about 5 s a frame on this device (measured); fewer boids run faster".
std::string slowPresetNote(const std::string& id, double seconds);

// The preset's rules over `current`, keeping its predator (and its L unless the preset sets it).
sim::Params applyPreset(const Preset& preset, const sim::Params& current);

} // namespace app
