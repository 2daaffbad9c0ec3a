// The capture files' formats on known inputs: the CSV's columns, the JSON summary of a run that
// the demo and bench share, and which frames a capture measures.

#include "app/capture.h"
#include "app/run.h"
#include "io/output.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

TEST(Capture, CsvHasTheDocumentedColumns) {
    std::string header = app::csvHeader();
    EXPECT_EQ(header.rfind(
                  "frame,t_ms,mode,boids,cells,cell_order,present_mode,draw,cpu_frame_ms,gpu_total_ms,", 0),
              0u);
    for (const std::string& pass : app::passNames())
        EXPECT_NE(header.find(app::passColumn(pass)), std::string::npos);
    EXPECT_EQ(app::passColumn("key starts + reorder"), "gpu_key_starts_reorder_ms");

    app::FrameRow row;
    row.frame = 3;
    row.tMs = 12.5;
    row.config.mode = sim::Mode::Naive;
    row.config.cellOrder = sim::CellOrder::Morton; // a naive step builds no grid: no cells, order or build
    row.boids = 100;
    row.presentMode = "none";
    row.cpuFrameMs = 1.25;
    row.config.params.domainHalf = 252;
    app::addScopeTimes(
        row, {{"frame", 2.0, true}, {"flock", 1.5, true}, {"sort/pass0", 9, true}, {"draw", 0.1, false}});
    const std::string line = app::csvRow(row);
    // Same number of fields as the header; empty cells for passes the mode lacks and for the
    // unavailable draw time; sub-scopes are not columns.
    auto fields = [](const std::string& s) { return std::count(s.begin(), s.end(), ',') + 1; };
    EXPECT_EQ(fields(line), fields(header));
    // The four passes of the radix build's grid, the counting build's four, the flock pass, draw, ui,
    // the (empty) grid build, the domain, the (uncounted) candidates, neighbours and lanes, and the
    // built-in shaders (no hash).
    EXPECT_EQ(line,
              "3,12.500000,naive,100,,,none,,1.250000,2.000000,,,,,,,,,1.500000,,,,252,,,,,built-in,\n");
    EXPECT_EQ(header.substr(header.size() - 112),
              ",grid_build,domain_half,candidates_per_boid,neighbours_per_boid,"
              "lane_efficiency,rule_lanes,shaders,shaders_hash\n");
    row.candidates = 203.5;
    row.neighbours = 65.25;
    EXPECT_EQ(app::csvRow(row).substr(app::csvRow(row).size() - 38),
              ",252,203.500000,65.250000,,,built-in,\n");
    row.laneEfficiency = 0.75;
    row.ruleLanes = 0.5;
    EXPECT_EQ(app::csvRow(row).substr(app::csvRow(row).size() - 54),
              ",252,203.500000,65.250000,0.750000,0.500000,built-in,\n");
    row.shadersHash = "0123456789abcdef"; // --shaders
    EXPECT_EQ(app::csvRow(row).substr(app::csvRow(row).size() - 34), ",0.500000,source,0123456789abcdef\n");
    row.config.params.domainHalf = 0.1f;
    EXPECT_NE(app::csvRow(row).find(",0.1,203.5"), std::string::npos) << app::csvRow(row);
    row.config.mode = sim::Mode::Coherent;
    row.config.cellWidth = sim::CellWidth::TwoReach;
    row.config.gridBuild = sim::GridBuild::Counting;
    EXPECT_EQ(app::csvRow(row).rfind("3,12.500000,coherent,100,8,morton,none,", 0), 0u);
    EXPECT_NE(app::csvRow(row).find(",counting,0.1,"), std::string::npos) << app::csvRow(row);
}

TEST(Capture, JsonSummaryHasStatisticsPerColumn) {
    std::vector<app::FrameRow> rows;
    for (int i = 0; i < 10; ++i) {
        app::FrameRow r;
        r.cpuFrameMs = 10 + i;
        r.gpuTotalMs = 5 + i;
        r.passMs["flock"] = 4 + i;
        rows.push_back(r);
    }
    app::RunInfo info{.config = {.mode = sim::Mode::Naive},
                      .boids = 1000,
                      .presentMode = "fifo",
                      .draw = "compute",
                      .color = "speed",
                      .seed = 9,
                      .warmupFrames = 60};
    nlohmann::json j = app::summarizeRun(info, rows);
    for (const char* key : {"cell_order", "cells", "grid_dim", "grid_build", "rows_per_cell", "search"})
        EXPECT_TRUE(j[key].is_null()) << key; // naive: no grid
    info.config.mode = sim::Mode::Coherent;
    info.config.cellOrder = sim::CellOrder::Morton;
    j = app::summarizeRun(info, rows);
    EXPECT_EQ(j["cell_order"], "morton");
    EXPECT_EQ(j["cells"], 27);
    EXPECT_EQ(j["grid_dim"], sim::gridFor(info.config, 1000).dim);
    EXPECT_EQ(j["grid_build"], "radix");
    EXPECT_EQ(j["color"], "speed");
    EXPECT_TRUE(j["render"]);
    EXPECT_EQ(j["mode"], "coherent");
    EXPECT_EQ(j["measured_frames"], 10);
    EXPECT_EQ(j["warmup_frames"], 60);
    EXPECT_EQ(j["seed"], 9);
    EXPECT_EQ(j["draw"], "compute");
    EXPECT_DOUBLE_EQ(j["columns"]["gpu_flock_ms"]["median"], 8.5);
    EXPECT_DOUBLE_EQ(j["columns"]["gpu_total_ms"]["max"], 14);
    for (const char* key : {"mean", "median", "p95", "p99", "min", "max", "stddev"})
        EXPECT_TRUE(j["columns"]["cpu_frame_ms"].contains(key)) << key;
    EXPECT_NEAR(double(j["fps"]["average"]), 1000.0 / 14.5, 1e-9);
    EXPECT_DOUBLE_EQ(j["params"]["domain_half"], 100.0);
}

// The demo's capture and each run of a bench are summarized by one function, so a reader of either
// file finds the same keys: every run has every key, null where it does not apply (a naive run's grid,
// a count not taken, a colour where nothing was drawn).
TEST(Capture, EveryRunSummaryHasTheSameKeys) {
    const auto keys = [](const nlohmann::json& run) {
        std::vector<std::string> names;
        for (const auto& [name, value] : run.items()) names.push_back(name);
        for (const auto& [name, value] : run["params"].items()) names.push_back("params/" + name);
        return names;
    };
    app::FrameRow row;
    row.cpuFrameMs = 1;
    const app::RunInfo demo{.config = {.mode = sim::Mode::Coherent},
                            .boids = 3000,
                            .presentMode = "fifo",
                            .draw = "glyphs",
                            .color = "speed",
                            .seed = 1,
                            .warmupFrames = 60};
    const nlohmann::json expected = app::summarizeRun(demo, {row});
    for (sim::Mode mode : {sim::Mode::Naive, sim::Mode::Scattered, sim::Mode::Coherent})
        for (bool counted : {false, true})
            for (const char* draw : {"", "points"}) {
                const app::RunInfo bench{
                    .config = {.mode = mode},
                    .boids = 300,
                    .presentMode = *draw ? "offscreen" : "none",
                    .draw = draw,
                    .color = "cell",
                    .counted = counted ? std::optional(sim::SearchCounts{.candidates = 40, .neighbours = 9})
                                       : std::nullopt};
                const nlohmann::json run = app::summarizeRun(bench, {row});
                EXPECT_EQ(keys(run), keys(expected)) << sim::modeName(mode) << " " << counted << " " << draw;
                EXPECT_EQ(run["candidates_per_boid"].is_null(), !counted);
                EXPECT_EQ(run["lane_efficiency"].is_null(), !counted || mode == sim::Mode::Naive);
                EXPECT_EQ(run["color"].is_null(), !*draw);
            }
}

// Parameters read as the user gave them: the shortest decimal that reads back as the same float, not
// the float's double (0.10000000149011612).
TEST(Capture, FloatsAreWrittenAsGiven) {
    EXPECT_EQ(app::floatText(0.1f), "0.1");
    EXPECT_EQ(app::floatText(100), "100");
    EXPECT_EQ(app::floatText(0.004f), "0.004");
    EXPECT_EQ(app::floatText(251.9842f), "251.9842");
    EXPECT_EQ(app::floatText(1e-30f), "1e-30");
    for (float v : {0.1f, 0.2f, 1.0f / 3, 3.4e38f, 1e-45f, -2.5f})
        EXPECT_EQ(std::strtof(app::floatText(v).c_str(), nullptr), v) << app::floatText(v);
    app::RunInfo info;
    info.config.params.dt = 0.3f;
    info.config.params.domainHalf = 251.9842f;
    app::FrameRow row;
    row.cpuFrameMs = 1;
    const nlohmann::json params = app::summarizeRun(info, {row})["params"];
    EXPECT_EQ(params["separation_scale"].dump(), "0.1");
    EXPECT_EQ(params["cohesion_scale"].dump(), "0.01");
    EXPECT_EQ(params["dt"].dump(), "0.3");
    EXPECT_EQ(params["domain_half"].dump(), "251.9842");
    EXPECT_EQ(params.dump().find("0000"), std::string::npos) << params.dump();
}

TEST(Capture, JsonSummarySitsBesideTheCsv) {
    EXPECT_EQ(io::besidePath("out/run.csv", ".json"), "out/run.json");
    EXPECT_EQ(io::besidePath("run", ".json"), "run.json");
    EXPECT_EQ(io::besidePath("out.d/run", ".json"), "out.d/run.json");
}

TEST(Capture, FramesAfterTheWarmupAreMeasured) {
    app::Capture capture{.csvPath = "c.csv", .warmupLeft = 2, .framesLeft = 3};
    const auto t0 = std::chrono::steady_clock::time_point{};
    std::vector<bool> measured;
    std::vector<app::FrameRow> rows;
    for (int i = 0; i < 7; ++i) {
        app::FrameRow row;
        measured.push_back(app::measureFrame(capture, t0 + std::chrono::milliseconds(10 * i), row));
        if (measured.back()) rows.push_back(row);
    }
    EXPECT_EQ(measured, (std::vector<bool>{false, false, true, true, true, false, false}));
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[2].frame, 2u);
    EXPECT_DOUBLE_EQ(rows[0].tMs, 0);
    EXPECT_DOUBLE_EQ(rows[2].tMs, 20);
    EXPECT_EQ(capture.framesLeft, 0u);
}
