// The panel's "Play" section: presets, and the predator's switch, radius and strength.

#include "app/demo/panel.h"
#include "app/presets.h"

#include <imgui.h>

namespace app {

PanelRequest selectPreset(PanelState& st, const Preset& preset) {
    sim::Params& p = st.sim.params;
    const float L = p.domainHalf;
    p = applyPreset(preset, p);
    PanelRequest asked;
    if (p.domainHalf != L) asked.flock = PanelRequest::Flock::Wrap;
    st.presetWatched = preset.id;
    st.presetFrames = 0;
    if (preset.boids) { // a fresh flock of that many, at the present density
        st.boidInput = int(preset.boids);
        st.sim.density = sim::densityOf(st.boids, p.domainHalf);
        asked.flock = PanelRequest::Flock::Fresh;
    }
    return asked;
}

void drawPlaySection(PanelState& st, PanelRequest& asked) {
    if (!ImGui::CollapsingHeader("Play")) return;
    sim::Params& p = st.sim.params;
    ImGui::SetNextItemWidth(200);
    if (ImGui::BeginCombo("preset", "choose...")) {
        for (const Preset& preset : presets())
            if (ImGui::Selectable(preset.name)) asked.add(selectPreset(st, preset));
        ImGui::EndCombo();
    }
    ImGui::Checkbox("predator stays (P)", &st.predatorPinned);
    ImGui::TextDisabled("hold the right button to place it");
    ImGui::SliderFloat(io::nameIn(sliderNames, sim::Param::PredatorRadius), &p.predatorRadius, 0.0f, 100.0f,
                       "%.1f", ImGuiSliderFlags_AlwaysClamp);
    ImGui::SliderFloat(io::nameIn(sliderNames, sim::Param::PredatorScale), &p.predatorScale, -2.0f, 5.0f,
                       "%.2f", ImGuiSliderFlags_AlwaysClamp);
    if (p.predatorScale < 0) ImGui::TextDisabled("(negative: an attractor)");
}

} // namespace app
