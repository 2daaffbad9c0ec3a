#!/usr/bin/env bash
# A headless `vkboids bench` on tiny sizes (lavapipe in CI), with validation and offscreen drawing:
# the CSV and JSON have the documented columns and plausible values, and the plotting script turns
# the CSV into charts. --density gives each flock size a domain of its own. A second, shorter bench
# counts each search's candidates and neighbours (--count-candidates).
set -euo pipefail
vkboids=$1
source_dir=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$vkboids" bench --validation --mode naive,scattered,coherent --boids 300,1100 --cell-width r,2r \
    --cell-order linear,morton --grid-build radix,counting --warmup-ms 0 --naive-max 2000 \
    --frames 12 --warmup 3 --density 0.02 --render --draw compute,points,glyphs --color cell --csv "$out/bench.csv" --json "$out/bench.json" | tee "$out/log"
"$vkboids" bench --validation --mode naive,scattered,coherent --boids 300,1100 --cell-width r,2r \
    --cell-order linear,morton --grid-build radix,counting --warmup-ms 0 --naive-max 2000 \
    --frames 3 --warmup 1 --density 0.02 --count-candidates --csv "$out/counted.csv" --json "$out/counted.json" \
    | tee -a "$out/log"
# Each bench names the files it wrote.
grep -qx "wrote $out/bench.csv and $out/bench.json" "$out/log"
grep -qx "wrote $out/counted.csv and $out/counted.json" "$out/log"
# Without --naive-max, a CPU device measures a naive step and names the limit it gives.
"$vkboids" bench --mode naive --boids 200 --frames 2 --warmup 1 --warmup-ms 0 >"$out/measured.log" 2>&1
if grep -q "a CPU Vulkan driver" "$out/measured.log"; then
    grep -q "^a CPU device: naive runs only up to [0-9]* boids, where a step takes about .* (measured; --naive-max to change)$" \
        "$out/measured.log"
fi
/usr/bin/python3 - "$out/bench.csv" "$out/bench.json" "$out/counted.csv" "$out/counted.json" <<'PY'
import csv, json, math, sys
from collections import defaultdict
rows = list(csv.DictReader(open(sys.argv[1])))
header = open(sys.argv[1]).readline().strip().split(",")
expected = ["frame", "t_ms", "mode", "boids", "cells", "cell_order", "present_mode", "draw", "cpu_frame_ms", "gpu_total_ms",
            "gpu_grid_index_ms", "gpu_sort_ms", "gpu_key_starts_ms", "gpu_key_starts_reorder_ms",
            "gpu_grid_histogram_ms", "gpu_grid_scan_ms", "gpu_grid_scatter_ms", "gpu_grid_rank_ms",
            "gpu_flock_ms", "gpu_draw_ms", "gpu_ui_ms", "grid_build", "domain_half", "candidates_per_boid",
            "neighbours_per_boid", "lane_efficiency", "rule_lanes", "shaders", "shaders_hash"]
assert header == expected, header
# The built-in shaders ran: no hash (bench --shaders writes "source" and a hash: live_editing_doc_test.py).
assert all(r["shaders"] == "built-in" and r["shaders_hash"] == "" for r in rows), rows[0]
configs = {(r["mode"], r["boids"], r["cells"], r["cell_order"], r["grid_build"], r["draw"]) for r in rows}
# naive once per size, grid modes per shape, cell order and build, each with every drawing path
assert len(configs) == 2 * (1 + 2 * (2 * 2 * 2)) * 3, configs
assert {r["draw"] for r in rows} == {"compute", "points", "glyphs"}
assert len(rows) == 12 * len(configs), len(rows)
passes = [c for c in expected if c.startswith("gpu_") and c != "gpu_total_ms"]
for r in rows:
    assert float(r["cpu_frame_ms"]) > 0
    total = float(r["gpu_total_ms"])
    parts = [float(r[c]) for c in passes if r[c]]
    assert all(math.isfinite(p) and p > 0 for p in parts + [total]), r
    # Scopes are disjoint parts of the frame's scope: their sum cannot exceed the total.
    assert total >= sum(parts) * 0.98 - 0.01, (total, sum(parts), r)
    grid = r["mode"] != "naive"
    assert bool(r["cells"]) == grid and bool(r["grid_build"]) == grid, r
    radix, counting = r["grid_build"] == "radix", r["grid_build"] == "counting"
    assert bool(r["gpu_sort_ms"]) == radix, r
    assert bool(r["gpu_key_starts_reorder_ms"]) == (r["mode"] == "coherent" and radix), r
    for column in ("gpu_grid_histogram_ms", "gpu_grid_scan_ms", "gpu_grid_scatter_ms", "gpu_grid_rank_ms"):
        assert bool(r[column]) == counting, r
    assert r["cell_order"] in (("linear", "morton") if grid else ("",)), r
    assert r["gpu_draw_ms"], "--render draws every frame"
    # L = cbrt(boids / density) / 2
    assert abs(float(r["domain_half"]) - (int(r["boids"]) / 0.02) ** (1 / 3) / 2) < 1e-3, r
    assert not any(r[c] for c in expected[-6:-2]), "counted without --count-candidates"
runs = json.load(open(sys.argv[2]))["runs"]
assert len(runs) == len(configs)
for run in runs:
    assert run["measured_frames"] == 12 and run["warmup_frames"] == 3
    for stat in ("mean", "median", "p95", "p99", "min", "max", "stddev"):
        assert run["columns"]["gpu_total_ms"][stat] >= 0
    assert run["fps"]["average"] > 0 and run["fps"]["one_percent_low"] > 0
    assert run["render"] and run["draw"] in ("compute", "points", "glyphs") and run["color"] == "cell", run
    domains = {r["domain_half"] for r in rows if int(r["boids"]) == run["boids"]}
    assert {float(d) for d in domains} == {run["params"]["domain_half"]}, (domains, run["params"])
    assert run["cell_order"] in (("linear", "morton") if run["mode"] != "naive" else (None,)), run
    assert all(run[k] is None for k in ("candidates_per_boid", "neighbours_per_boid", "lane_efficiency", "rule_lanes")), run
    grid = ("grid_dim", "grid_build", "rows_per_cell", "row_height", "slices_per_cell", "search")
    assert all((run[k] is None) == (run["mode"] == "naive") for k in grid), run
print("bench files check out:", len(rows), "rows,", len(runs), "runs")
# Counted: every row of a run holds its run's means (taken on the state the run left, so runs differ).
counted = list(csv.DictReader(open(sys.argv[3])))
assert open(sys.argv[3]).readline().strip().split(",") == expected
means, lanes = defaultdict(set), defaultdict(set)
for r in counted:
    config = (r["mode"], r["boids"], r["cells"], r["cell_order"], r["grid_build"])
    means[config].add((float(r["candidates_per_boid"]), float(r["neighbours_per_boid"])))
    lanes[config].add((r["lane_efficiency"], r["rule_lanes"]))
assert len(means) == 2 * (1 + 2 * (2 * 2 * 2)) and len(counted) == 3 * len(means), (len(means), len(counted))
for (mode, boids, *_), values in means.items():
    assert len(values) == 1, (mode, boids, values)
    candidates, neighbours = next(iter(values))
    assert math.isfinite(candidates) and math.isfinite(neighbours) and neighbours >= 0, (mode, boids, values)
    (efficiency, rule), = lanes[(mode, boids, *_)]
    if mode == "naive":
        assert abs(candidates - int(boids)) < 1e-3, (mode, boids, values)
        assert efficiency == rule == "", "no lanes counted for naive"
    else:
        # a share of the lanes' steps, each row's range as long as its longest lane's
        assert 0 < float(efficiency) <= 1 and 0 < float(rule) <= 1, (mode, boids, efficiency, rule)
        # each boid tests itself and every neighbour, and no boid twice
        assert neighbours + 1 - 1e-3 <= candidates <= int(boids) + 1e-3, (mode, boids, values)
for run in json.load(open(sys.argv[4]))["runs"]:
    config = (run["mode"], str(run["boids"]), str(run["cells"] or ""), run["cell_order"] or "",
              run.get("grid_build") or "")
    (candidates, neighbours), = means[config]
    assert abs(run["candidates_per_boid"] - candidates) < 1e-4, (run, candidates)
    assert abs(run["neighbours_per_boid"] - neighbours) < 1e-4, (run, neighbours)
    (efficiency, rule), = lanes[config]
    if run["mode"] == "naive":
        assert run["lane_efficiency"] is None and run["rule_lanes"] is None, run
    else:
        assert abs(run["lane_efficiency"] - float(efficiency)) < 1e-6 and abs(run["rule_lanes"] - float(rule)) < 1e-6, run
        assert run["lane_subgroup_size"] >= 1, run
print("counted files check out:", len(counted), "rows,", len(means), "runs")
PY
/usr/bin/python3 "$source_dir/tools/plot_bench.py" "$out/bench.csv" --out "$out/charts" --title lavapipe
for chart in scaling breakdown cells frames; do test -s "$out/charts/$chart.png"; done
test ! -e "$out/charts/candidates.png"  # nothing counted, no chart
/usr/bin/python3 "$source_dir/tools/plot_bench.py" "$out/counted.csv" --out "$out/counted" --title lavapipe
test -s "$out/counted/candidates.png"
test ! -e "$out/counted/frames.png"  # nothing drawn, no chart
# A sort-bench CSV gives the sort's chart.
"$vkboids" sort-bench --n 1000,3000 --bits 8 --csv "$out/sort.csv" >"$out/sort.log"
grep -qx "wrote $out/sort.csv" "$out/sort.log"
/usr/bin/python3 "$source_dir/tools/plot_bench.py" "$out/sort.csv" --out "$out/sort"
test -s "$out/sort/sort.png"
test ! -e "$out/sort/scaling.png"  # no bench rows, no step charts
# Two files at once, as docs/PERFORMANCE.md draws its charts: the steps' charts from the undrawn rows,
# frames.png from the drawn ones.
/usr/bin/python3 "$source_dir/tools/plot_bench.py" "$out/counted.csv" "$out/bench.csv" --out "$out/both"
for chart in scaling breakdown cells frames candidates; do test -s "$out/both/$chart.png"; done
# A capture has a bench's columns: plot_capture.py draws one frame by frame (the demo's own captures
# are drawn in the window test).
/usr/bin/python3 "$source_dir/tools/plot_capture.py" "$out/bench.csv" --out "$out/capture"
test -s "$out/capture/bench.png"
# Which flocks the charts join: sizes at one L, or at one density where each L holds one size.
/usr/bin/python3 - "$source_dir/tools" "$out/bench.csv" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from plot_bench import flock_groups, load
rows = lambda *pairs: [{"boids": str(n), "domain_half": f"{half:.6f}"} for n, half in pairs]
# the lab's sizes at L = 100 and 16M at 1M's density
assert flock_groups(rows((100000, 100), (1000000, 100), (16000000, 251.984207))) == {
    100.0: "L = 100", 251.984207: "density 0.125"}
# --density: one series, so no names
assert flock_groups(rows((16000000, 251.984207), (64000000, 400))) == {}
assert flock_groups(rows((1000, 100), (2000, 100))) == {}
# this bench's two sizes share a density: one series each, unnamed
assert {c.flock for c in load(sys.argv[2])} == {""}
PY
# A file with rows longer than its header (files of two versions joined) is refused in one line.
{ head -n 1 "$out/bench.csv" | sed 's/,[^,]*$//'; sed -n 2p "$out/bench.csv"; } >"$out/joined.csv"
if /usr/bin/python3 "$source_dir/tools/plot_bench.py" "$out/joined.csv" --out "$out/joined" 2>"$out/joined.err"; then
    echo "a CSV with rows longer than its header was plotted"
    exit 1
fi
grep -q "rows longer than its header" "$out/joined.err"
echo "bench test passed"
