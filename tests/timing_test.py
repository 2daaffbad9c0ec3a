#!/usr/bin/env python3
"""Timings that add up, on lavapipe: for every mode and drawing path, `bench --render` gives passes whose
medians sum to within 10% of the frame's median, and a flocking pass within 10% of what `step` gives for
the same flock without drawing.

lavapipe writes a timestamp when its rasterizer reaches it, and runs compute at once (gpu/profiler.cpp).
Before the profiler put a barrier behind each timestamp there, most of these configurations failed at
every attempt, by far more than the tolerance (docs/PERFORMANCE.md, On a CPU).

The machine may be loaded (other tests, other builds), and the load may change from one run to the
next: every figure is a median of many frames, the bench runs of a mode alternate with step runs and
are judged against all of that mode's, and a configuration that misses is measured again, twice at
most, between two more step runs, before the test fails.

Usage: timing_test.py VKBOIDS. Exit 77 (skipped) on any device other than lavapipe.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

vkboids = sys.argv[1]
FRAMES, WARMUP = 40, 3
# Small flocks: a flocking pass of a few milliseconds on lavapipe (naive grows as n^2).
BOIDS = {"naive": 1000, "scattered": 4000, "coherent": 4000}
PATHS = ("compute", "points", "glyphs")
TOLERANCE = 0.10
ATTEMPTS = 3


# lavapipe's worker threads hand each timestamp and each pass to one another; on a loaded machine every
# handoff waits for a core, milliseconds of gap between passes that no scope holds. In one thread there
# is no handoff, and the broken profiler's figures were just as wrong.
ENV = dict(os.environ, LP_NUM_THREADS="0")


def run(args):
    done = subprocess.run([vkboids, *args], capture_output=True, text=True, env=ENV)
    if done.returncode != 0:
        sys.exit(f"vkboids {' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


def step_flock(mode):
    out = run(["step", "--validation", "--mode", mode, "--boids", str(BOIDS[mode]), "--steps", str(FRAMES + 1)]
              + ([] if mode == "naive" else ["--cell-width", "r"]))
    match = re.search(r"^  flock +median ([0-9.]+) ms", out, re.M)
    if not match:
        sys.exit(f"step printed no flocking time:\n{out}")
    return float(match.group(1))


def bench(mode, path, json_path):
    run(["bench", "--validation", "--mode", mode, "--boids", str(BOIDS[mode]), "--frames", str(FRAMES),
         "--warmup", str(WARMUP), "--warmup-ms", "0", "--render", "--draw", path, "--json", json_path]
        + ([] if mode == "naive" else ["--cell-width", "r"]))
    columns = json.load(open(json_path))["runs"][0]["columns"]
    if "gpu_total_ms" not in columns or "gpu_flock_ms" not in columns:
        sys.exit(f"no GPU times in {mode} {path}: the profiler did not trust this driver's timestamps")
    passes = {name: c["median"] for name, c in columns.items()
              if name.startswith("gpu_") and name != "gpu_total_ms"}
    return columns["gpu_total_ms"]["median"], passes


def judge(mode, path, measured, steps):
    """Whether a bench run's figures add up and match step's, and a line saying so."""
    total, passes = measured
    flock, parts = passes["gpu_flock_ms"], sum(passes.values())
    low, high = min(steps) * (1 - TOLERANCE), max(steps) * (1 + TOLERANCE)
    passed = abs(parts - total) <= TOLERANCE * total and low <= flock <= high
    text = (f"{'ok  ' if passed else 'miss'} {mode:9} {path:7} passes {parts:8.3f} of frame {total:8.3f} ms "
            f"({parts / total:5.3f}); flock {flock:8.3f}, step {' '.join(f'{s:.3f}' for s in steps)} "
            f"({flock / min(steps):5.3f} to {flock / max(steps):5.3f})")
    return passed, text


def main():
    devices = subprocess.run([vkboids, "--list-devices"], capture_output=True, text=True).stdout
    if "llvmpipe" not in devices:
        print("skipped: this test is for lavapipe (no llvmpipe device):\n" + devices)
        return 77
    failed = []
    with tempfile.TemporaryDirectory() as out:
        json_path = os.path.join(out, "bench.json")
        for mode in BOIDS:
            steps = [step_flock(mode)]
            measured = {}
            for path in PATHS:
                measured[path] = bench(mode, path, json_path)
                steps.append(step_flock(mode))
            for path in PATHS:
                result = measured[path]
                for n in range(1, ATTEMPTS + 1):
                    if n > 1:
                        result = bench(mode, path, json_path)
                        steps.append(step_flock(mode))
                    passed, text = judge(mode, path, result, steps)
                    print(text + (f" (attempt {n})" if n > 1 else ""), flush=True)
                    if passed:
                        break
                else:
                    failed.append(f"{mode} {path}")
    if failed:
        print("timings do not add up for:", ", ".join(failed))
        return 1
    print("every mode and drawing path: passes add up to the frame, the flocking pass matches step's")
    return 0


sys.exit(main())
