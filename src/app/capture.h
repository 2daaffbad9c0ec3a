#pragma once
// Frame timings to files: one CSV row per frame, and a JSON summary per run (configuration).

#include "gpu/context.h"
#include "gpu/profiler.h"
#include "sim/params.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace app {

// The passes with a column of their own, in column order. Scopes with other names (the sort's
// sub-passes) are not columns.
const std::vector<std::string>& passNames();

// "cell ranges + reorder" -> "gpu_cell_ranges_reorder_ms"
std::string passColumn(const std::string& pass);

struct FrameRow {
    uint64_t frame = 0;
    double tMs = 0; // since the first measured frame began
    std::string mode;
    uint32_t boids = 0;
    int cells = 0; // 8 or 27; 0 (empty column) for naive
    std::string presentMode;
    std::string draw; // the drawing path; empty where nothing was drawn
    double cpuFrameMs = 0;
    std::optional<double> gpuTotalMs;     // empty where timestamps are unavailable
    std::map<std::string, double> passMs; // by pass name
};

// Fills a row's GPU columns from a frame's scopes: "frame" is the total, passNames() the parts.
void addScopeTimes(FrameRow& row, const std::vector<gpu::ScopeTime>& scopes);

std::string csvHeader();
std::string csvRow(const FrameRow& row);

struct RunInfo {
    std::string mode;
    uint32_t boids = 0;
    int cells = 0;
    uint32_t gridDim = 0;
    std::string presentMode;
    bool render = false;
    std::string draw; // the drawing path, where render
    uint64_t seed = 0;
    uint64_t warmupFrames = 0;
    sim::Params params;
};

// Device, driver and build, for the top of a JSON file.
nlohmann::json deviceJson(const gpu::Context& context);
nlohmann::json buildJson();

// One run's summary: configuration, parameters, and per column the mean, median, p95, p99, min,
// max and standard deviation; FPS average and 1% low from the CPU frame times.
nlohmann::json summarizeRun(const RunInfo& info, const std::vector<FrameRow>& rows);

// {"device": ..., "build": ..., "runs": [...]}
nlohmann::json captureJson(const gpu::Context& context, const std::vector<nlohmann::json>& runs);

} // namespace app
