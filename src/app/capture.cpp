#include "app/capture.h"

#include "app/run.h"
#include "app/stats.h"
#include "gpu/program.h"
#include "sim/npy.h"
#include "sim/search.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace app {
namespace {

std::string number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6f", v);
    return buffer;
}

nlohmann::json summaryJson(const std::vector<double>& values) {
    const Summary s = summarize(values);
    return {{"count", s.count}, {"mean", s.mean}, {"median", s.median}, {"p95", s.p95},
            {"p99", s.p99},     {"min", s.min},   {"max", s.max},       {"stddev", s.stddev}};
}

} // namespace

std::string floatText(float value) {
    char buffer[32];
    const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, r.ptr);
}

double floatDecimal(float value) {
    return std::strtod(floatText(value).c_str(), nullptr);
}

const std::vector<std::string>& passNames() {
    static const std::vector<std::string> names = {"grid index",
                                                   "sort",
                                                   "key starts",
                                                   "key starts + reorder",
                                                   "grid/histogram",
                                                   "grid/scan",
                                                   "grid/scatter",
                                                   "grid/rank",
                                                   "flock",
                                                   "draw",
                                                   "ui"};
    return names;
}

std::string passColumn(const std::string& pass) {
    std::string out = "gpu_";
    for (char c : pass) {
        if (std::isalnum(uint8_t(c)))
            out += c;
        else if (out.back() != '_')
            out += '_';
    }
    if (out.back() != '_') out += '_';
    return out + "ms";
}

void addScopeTimes(FrameRow& row, const std::vector<gpu::ScopeTime>& scopes) {
    for (const gpu::ScopeTime& s : scopes) {
        if (!s.valid) continue;
        if (s.name == "frame") row.gpuTotalMs = s.ms;
        for (const std::string& p : passNames())
            if (s.name == p) row.passMs[p] += s.ms;
    }
}

std::string csvHeader() {
    std::string h = "frame,t_ms,mode,boids,cells,cell_order,present_mode,draw,cpu_frame_ms,gpu_total_ms";
    for (const std::string& p : passNames()) h += "," + passColumn(p);
    return h + ",grid_build,domain_half,candidates_per_boid,neighbours_per_boid,lane_efficiency,rule_lanes,"
               "shaders,"
               "shaders_hash\n";
}

std::string csvRow(const FrameRow& r) {
    const sim::Config& c = r.config;
    // A naive step builds no grid: no cells, order or build.
    const bool grid = c.mode != sim::Mode::Naive;
    const std::string cells = grid ? std::to_string(sim::labCells(c.cellWidth)) : "",
                      order = grid ? sim::cellOrderName(c.cellOrder) : "",
                      build = grid ? sim::gridBuildName(c.gridBuild) : "";
    std::string line = std::to_string(r.frame) + "," + number(r.tMs) + "," + sim::modeName(c.mode) + "," +
                       std::to_string(r.boids) + "," + cells + "," + order + "," + r.presentMode + "," +
                       r.draw + "," + number(r.cpuFrameMs) + "," +
                       (r.gpuTotalMs ? number(*r.gpuTotalMs) : "");
    for (const std::string& p : passNames()) {
        auto it = r.passMs.find(p);
        line += "," + (it != r.passMs.end() ? number(it->second) : "");
    }
    line += "," + build + "," + floatText(c.params.domainHalf);
    for (const std::optional<double>& counted : {r.candidates, r.neighbours, r.laneEfficiency, r.ruleLanes})
        line += "," + (counted ? number(*counted) : "");
    line += r.shadersHash.empty() ? ",built-in," : ",source," + r.shadersHash;
    return line + "\n";
}

nlohmann::json deviceJson(const gpu::Context& ctx, const gpu::TimestampProbe& probe) {
    const VkPhysicalDeviceProperties& p = ctx.properties;
    return {
        {"name", p.deviceName},
        {"vendor_id", p.vendorID},
        {"device_id", p.deviceID},
        {"driver", ctx.driverName + " " + ctx.driverInfo},
        {"driver_version", p.driverVersion},
        {"api_version", gpu::apiVersionString(p.apiVersion)},
        {"timestamp_period_ns", floatDecimal(p.limits.timestampPeriod)},
        {"timestamps", gpu::timesReported(probe.trust)},
        {"timestamp_trust", gpu::timestampTrustName(probe.trust)},
        {"timestamp_probe_ms",
         {{"direct", probe.directMs}, {"behind_barriers", probe.barriersMs}, {"one_fill", probe.oneFillMs}}},
        {"subgroup_size", ctx.subgroupSize}};
}

nlohmann::json buildJson() {
    return {{"version", VKBOIDS_VERSION}, {"commit", buildCommit()}, {"build_type", VKBOIDS_BUILD_TYPE}};
}

nlohmann::json summarizeRun(const RunInfo& info, const std::vector<FrameRow>& rows) {
    const sim::Config& c = info.config;
    const sim::Params& p = c.params;
    const bool grid = c.mode != sim::Mode::Naive;
    const bool drawn = !info.draw.empty();
    const auto orNull = [](bool present, const nlohmann::json& value) {
        return present ? value : nlohmann::json(nullptr);
    };
    const sim::Grid g = sim::gridFor(c, info.boids);
    const std::optional<sim::SearchCounts>& counted = info.counted;
    const bool lanes = counted && grid; // a naive step's tiles keep every lane busy: no lanes to count
    nlohmann::json run = {
        {"mode", sim::modeName(c.mode)},
        {"boids", info.boids},
        {"cells", orNull(grid, sim::labCells(c.cellWidth))},
        {"cell_order", orNull(grid, sim::cellOrderName(c.cellOrder))},
        {"grid_build", orNull(grid, sim::gridBuildName(c.gridBuild))},
        {"grid_dim", orNull(grid, g.dim)},
        {"rows_per_cell", orNull(grid, g.rowsPerCell)},
        {"row_height", orNull(grid, sim::rowHeight(g))},
        {"slices_per_cell", orNull(grid, g.slicesPerCell)},
        {"search", orNull(grid, sim::searchVariantName(sim::searchVariant(c.mode, p)))},
        {"present_mode", info.presentMode},
        {"render", drawn},
        {"draw", orNull(drawn, info.draw)},
        {"color", orNull(drawn, info.color)},
        {"seed", info.seed},
        {"warmup_frames", info.warmupFrames},
        {"measured_frames", rows.size()},
        {"candidates_per_boid", orNull(counted.has_value(), counted ? counted->candidates : 0)},
        {"neighbours_per_boid", orNull(counted.has_value(), counted ? counted->neighbours : 0)},
        {"lane_efficiency", orNull(lanes, counted ? counted->laneEfficiency : 0)},
        {"rule_lanes", orNull(lanes, counted ? counted->ruleLanes : 0)},
        {"lane_subgroup_size", orNull(lanes, counted ? counted->subgroupSize : 0)},
        {"params",
         {{"cohesion_radius", floatDecimal(p.cohesionRadius)},
          {"separation_radius", floatDecimal(p.separationRadius)},
          {"alignment_radius", floatDecimal(p.alignmentRadius)},
          {"cohesion_scale", floatDecimal(p.cohesionScale)},
          {"separation_scale", floatDecimal(p.separationScale)},
          {"alignment_scale", floatDecimal(p.alignmentScale)},
          {"max_speed", floatDecimal(p.maxSpeed)},
          {"dt", floatDecimal(p.dt)},
          {"domain_half", floatDecimal(p.domainHalf)}}}};

    std::vector<double> cpu, gpuTotal;
    std::map<std::string, std::vector<double>> passes;
    for (const FrameRow& r : rows) {
        cpu.push_back(r.cpuFrameMs);
        if (r.gpuTotalMs) gpuTotal.push_back(*r.gpuTotalMs);
        for (const auto& [name, ms] : r.passMs) passes[name].push_back(ms);
    }
    nlohmann::json columns = {{"cpu_frame_ms", summaryJson(cpu)}};
    if (!gpuTotal.empty()) columns["gpu_total_ms"] = summaryJson(gpuTotal);
    for (const std::string& name : passNames())
        if (passes.count(name)) columns[passColumn(name)] = summaryJson(passes[name]);
    run["columns"] = columns;
    run["fps"] = {{"average", averageFps(cpu)}, {"one_percent_low", onePercentLowFps(cpu)}};
    return run;
}

nlohmann::json captureJson(const gpu::Context& ctx, const gpu::TimestampProbe& probe,
                           const std::vector<nlohmann::json>& runs) {
    nlohmann::json build = buildJson();
    const gpu::ShaderOrigin shaders = gpu::shaderOrigin(ctx);
    build["shaders"] = shaders.folder.empty() ? "built-in" : "source";
    build["shaders_folder"] = shaders.folder.empty() ? nlohmann::json() : nlohmann::json(shaders.folder);
    build["shaders_hash"] = shaders.folder.empty() ? nlohmann::json() : nlohmann::json(shaders.hash);
    return {{"device", deviceJson(ctx, probe)}, {"build", build}, {"runs", runs}};
}

bool measureFrame(Capture& c, std::chrono::steady_clock::time_point start, FrameRow& row) {
    if (c.warmupLeft > 0) {
        c.warmupLeft--;
        return false;
    }
    if (c.framesLeft == 0) return false;
    if (!c.firstFrame) c.firstFrame = start;
    row.frame = c.measured++;
    row.tMs = std::chrono::duration<double, std::milli>(start - *c.firstFrame).count();
    c.framesLeft--;
    return true;
}

} // namespace app
