#include "app/demo/help.h"

#include <imgui.h>

namespace app {

void drawHelp(bool* open) {
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Appearing,
                            ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(600, 0), ImGuiCond_Appearing);
    if (!ImGui::Begin("Help", open, ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return;
    }
    const char* const controls[][2] = {
        {"left drag", "orbit the camera"},
        {"right button held", "a predator under the cursor: boids within its radius flee (Play)"},
        {"P", "the predator stays where it was last placed, or goes"},
        {"scroll", "zoom"},
        {"R", "reset the camera"},
        {"Space", "pause / resume"},
        {"N", "one step (while paused)"},
        {"M", "next mode (naive, scattered, coherent)"},
        {"H", "hide / show the panel"},
        {"F1 or ?", "show / hide this help"},
        {"F5", "with --shaders: compile every shader again from its folder"},
        {"F12", "screenshot: vkboids-YYYYMMDD-HHMMSS.png in the working directory"},
        {"Esc", "close this help; quit when it is closed"},
    };
    if (ImGui::BeginTable("controls", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        for (const auto& [input, action] : controls) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(input);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(action);
        }
        ImGui::EndTable();
    }
    ImGui::Separator();
    ImGui::TextWrapped("naive: every boid looks at every other, exactly; the work grows with the count "
                       "squared, so it slows down past a few tens of thousands.");
    ImGui::TextWrapped("scattered: a uniform grid; boids are sorted by cell and each looks only at the "
                       "cells around it, through sorted indices into the unsorted boid data.");
    ImGui::TextWrapped("coherent: the same grid, with the boid data itself kept in cell order, so that "
                       "neighbours are read from nearby memory; the fastest at large counts.");
    ImGui::End();
}

} // namespace app
