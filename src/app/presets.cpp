#include "app/presets.h"

#include <cstdio>

namespace app {
namespace {

sim::Params rules(float r1, float r2, float r3, float s1, float s2, float s3, float maxSpeed) {
    sim::Params p;
    p.cohesionRadius = r1;
    p.separationRadius = r2;
    p.alignmentRadius = r3;
    p.cohesionScale = s1;
    p.separationScale = s2;
    p.alignmentScale = s3;
    p.maxSpeed = maxSpeed;
    return p;
}

} // namespace

const std::vector<Preset>& presets() {
    static const std::vector<Preset> table = {
        {"lab defaults", "lab-defaults", sim::Params{}, 0, true},
        // Wide, gentle cohesion and alignment, little separation, slow: large soft sheets.
        {"calm murmuration", "calm-murmuration", rules(10, 2.5f, 10, 0.004f, 0.05f, 0.05f, 0.6f)},
        // Short radii, strong cohesion and alignment: many small dense schools.
        {"tight schools", "tight-schools", rules(4, 1.2f, 4, 0.05f, 0.25f, 0.3f, 1.2f)},
        // The lab's rules at its scale of a million boids, at the flock's present density.
        {"large flock (1M, same density)", "large-flock", sim::Params{}, 1000000},
    };
    return table;
}

std::string presetIds() {
    std::string ids;
    for (const Preset& p : presets()) ids += std::string(ids.empty() ? "" : ", ") + p.id;
    return ids;
}

const Preset* findPreset(const std::string& text) {
    for (const Preset& p : presets())
        if (text == p.id || text == p.name) return &p;
    return nullptr;
}

std::string slowPresetNote(const std::string& id, double seconds) {
    char time[32];
    if (seconds < 10)
        std::snprintf(time, sizeof time, "%.2g", seconds);
    else
        std::snprintf(time, sizeof time, "%.0f", seconds);
    return id + ": about " + time + " s a frame on this device (measured); fewer boids run faster";
}

sim::Params applyPreset(const Preset& preset, const sim::Params& current) {
    sim::Params p = preset.params;
    if (!preset.setsDomain) p.domainHalf = current.domainHalf;
    p.predator = current.predator;
    for (int a = 0; a < 3; ++a) p.predatorPos[a] = current.predatorPos[a];
    p.predatorRadius = current.predatorRadius;
    p.predatorScale = current.predatorScale;
    return p;
}

} // namespace app
