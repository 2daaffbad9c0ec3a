#pragma once
// Frame timings to files: one CSV row per frame, and a JSON summary per run (configuration).

#include "gpu/context.h"
#include "gpu/profiler.h"
#include "sim/config.h"
#include "sim/search_count.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace app {

// The passes with a column of their own, in column order. Scopes with other names (the sort's
// sub-passes) are not columns.
const std::vector<std::string>& passNames();

// A pass's CSV column: "key starts + reorder" becomes "gpu_key_starts_reorder_ms"
std::string passColumn(const std::string& pass);

// A float as the user gave it: the shortest decimal that reads back as the same float ("0.1", where
// its double prints as 0.10000000149011612).
std::string floatText(float value);
// That decimal as the nearest double, for JSON, which prints its numbers as doubles.
double floatDecimal(float value);

struct FrameRow {
    uint64_t frame = 0;
    double tMs = 0; // since the first measured frame began
    // The configuration that was stepped, with L already set (sim::configFor). The columns mode,
    // cells, cell_order, grid_build and domain_half come from it; a naive step builds no grid, so its
    // grid columns are empty.
    sim::Config config;
    uint32_t boids = 0;
    std::string presentMode;
    std::string draw; // the drawing path; empty where nothing was drawn
    std::string
        shadersHash; // --shaders: gpu::shaderOrigin's hash of the sources; empty: the built-in shaders
    double cpuFrameMs = 0;
    std::optional<double> gpuTotalMs;     // empty where the device has no timestamps
    std::map<std::string, double> passMs; // keyed by pass name
    // The search's candidates and neighbours per boid, its lane efficiency and its rule lanes
    // (sim::SearchCounts, from bench --count-candidates). They are empty where nothing was counted;
    // the lanes are also empty for naive steps.
    std::optional<double> candidates, neighbours, laneEfficiency, ruleLanes;
};

// Fills a row's GPU columns from a frame's scopes: the scope "frame" gives the total, and the scopes
// named in passNames() give the parts.
void addScopeTimes(FrameRow& row, const std::vector<gpu::ScopeTime>& scopes);

std::string csvHeader();
std::string csvRow(const FrameRow& row);

// One run, as its JSON summary names it. The grid, the search and the rows it scans follow from the
// configuration and the count (sim::gridFor), so they are not held here.
struct RunInfo {
    sim::Config config; // L is already set (sim::configFor); its parameters are the rules the run used
    uint32_t boids = 0;
    std::string presentMode;
    std::string draw;  // the drawing path; empty where nothing was drawn
    std::string color; // the colour mode, reported only where something was drawn
    uint64_t seed = 0;
    uint64_t warmupFrames = 0;
    // What the search counted on the state the run left (bench --count-candidates); empty if not counted.
    std::optional<sim::SearchCounts> counted;
};

// Device, driver, how far its timestamps can be believed, and build, for the top of a JSON file.
nlohmann::json deviceJson(const gpu::Context& context, const gpu::TimestampProbe& probe);
nlohmann::json buildJson();

// One run's summary, the same keys for the demo's capture and for each run of a bench: configuration,
// grid, parameters, what the search counted, and per column the mean, median, p95, p99, min, max and
// standard deviation; FPS average and 1% low from the CPU frame times. A key that does not apply to
// the run (a naive run's grid, a count not taken, a colour where nothing was drawn) is null.
nlohmann::json summarizeRun(const RunInfo& info, const std::vector<FrameRow>& rows);

// The JSON file's whole object: {"device": ..., "build": ..., "runs": [...]}.
nlohmann::json captureJson(const gpu::Context& context, const gpu::TimestampProbe& probe,
                           const std::vector<nlohmann::json>& runs);

// A capture the demo has in progress. Frames after the warm-up become rows once their GPU times are in.
struct Capture {
    std::string csvPath;
    uint64_t warmupLeft = 0, framesLeft = 0, measured = 0;
    std::vector<FrameRow> rows;
    RunInfo info; // the configuration of the first measured frame
    std::optional<std::chrono::steady_clock::time_point> firstFrame;
};

// Counts a frame that began at `start`. During the warm-up it measures nothing; after it, until the
// capture has all its frames, it gives `row` its number and its time since the first measured frame.
// Returns whether the frame was measured.
bool measureFrame(Capture& capture, std::chrono::steady_clock::time_point start, FrameRow& row);

} // namespace app
