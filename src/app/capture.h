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

// "key starts + reorder" -> "gpu_key_starts_reorder_ms"
std::string passColumn(const std::string& pass);

// A float as the user gave it: the shortest decimal that reads back as the same float ("0.1", where
// its double prints as 0.10000000149011612).
std::string floatText(float value);
// That decimal as the nearest double, for JSON, whose numbers print as doubles.
double floatDecimal(float value);

struct FrameRow {
    uint64_t frame = 0;
    double tMs = 0; // since the first measured frame began
    // The configuration stepped, its L set (sim::configFor): the columns mode, cells, cell_order,
    // grid_build and domain_half name it; a naive step's grid columns are empty (it builds no grid).
    sim::Config config;
    uint32_t boids = 0;
    std::string presentMode;
    std::string draw; // the drawing path; empty where nothing was drawn
    double cpuFrameMs = 0;
    std::optional<double> gpuTotalMs;     // empty where timestamps are unavailable
    std::map<std::string, double> passMs; // by pass name
    // The search's candidates and neighbours a boid, and its lane efficiency and rule lanes
    // (sim::SearchCounts; bench --count-candidates); empty where not counted (the lanes: for naive).
    std::optional<double> candidates, neighbours, laneEfficiency, ruleLanes;
};

// Fills a row's GPU columns from a frame's scopes: "frame" is the total, passNames() the parts.
void addScopeTimes(FrameRow& row, const std::vector<gpu::ScopeTime>& scopes);

std::string csvHeader();
std::string csvRow(const FrameRow& row);

// One run, as its JSON summary names it. The grid, the search and the rows it scans follow from the
// configuration and the count (sim::gridFor), so they are not held here.
struct RunInfo {
    sim::Config config; // its L set (sim::configFor); the parameters are the rules it ran
    uint32_t boids = 0;
    std::string presentMode;
    std::string draw;  // the drawing path; empty where nothing was drawn
    std::string color; // the colour mode, where something was drawn
    uint64_t seed = 0;
    uint64_t warmupFrames = 0;
    // What the search counted on the state the run left (bench --count-candidates); empty where not.
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

// {"device": ..., "build": ..., "runs": [...]}
nlohmann::json captureJson(const gpu::Context& context, const gpu::TimestampProbe& probe,
                           const std::vector<nlohmann::json>& runs);

// A capture in progress (the demo's): frames after the warm-up become rows once their GPU times are in.
struct Capture {
    std::string csvPath;
    uint64_t warmupLeft = 0, framesLeft = 0, measured = 0;
    std::vector<FrameRow> rows;
    RunInfo info; // the configuration of the first measured frame
    std::optional<std::chrono::steady_clock::time_point> firstFrame;
};

// Counts a frame that began at `start`: nothing during the warm-up, then, until the capture has its
// frames, `row` gets its number and its time since the first measured frame. Returns whether it did.
bool measureFrame(Capture& capture, std::chrono::steady_clock::time_point start, FrameRow& row);

} // namespace app
