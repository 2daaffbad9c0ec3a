#!/usr/bin/python3
"""Charts from a `vkboids bench --csv` file (Debian's python3-matplotlib, run with /usr/bin/python3).

    /usr/bin/python3 tools/plot_bench.py bench.csv --out docs/charts [--title "H100, driver 580"]

Writes scaling.png (median GPU ms per step against boids, per mode, cell order, grid build, search
shape and, where the file holds flocks at several densities, flock; log-log),
breakdown.png (median ms of each pass, stacked, per configuration), cells.png (8 against 27
cells per mode and size), for a --render bench, frames.png (each frame's simulation and draw,
per drawing path) and, for a --count-candidates bench, candidates.png (the flocking pass's time per
boid against the candidates each boid's search tests, per grid configuration). Medians are over the
measured frames of each configuration.
"""
import argparse
import csv
import math
import os
import statistics
import sys
from collections import defaultdict, namedtuple

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PASS_COLUMNS = [
    ("gpu_grid_index_ms", "grid index"),
    ("gpu_sort_ms", "sort"),
    ("gpu_key_starts_ms", "key starts"),
    ("gpu_key_starts_reorder_ms", "key starts + reorder"),
    ("gpu_grid_histogram_ms", "grid/histogram"),
    ("gpu_grid_scan_ms", "grid/scan"),
    ("gpu_grid_scatter_ms", "grid/scatter"),
    ("gpu_grid_rank_ms", "grid/rank"),
    ("gpu_flock_ms", "flock"),
    ("gpu_draw_ms", "draw"),
    ("gpu_ui_ms", "ui"),
]
MODE_COLORS = {"naive": "#d62728", "scattered": "#ff7f0e", "coherent": "#1f77b4"}
# Morton order: the mode's colour, lighter.
MORTON_COLORS = {"scattered": "#ffbb78", "coherent": "#aec7e8"}

# A configuration. variant: "", "morton", "counting" or "morton counting". flock: which flocks its
# size belongs with where a file holds several domains ("L = 100", "density 0.125"), else "".
Config = namedtuple("Config", "mode variant flock boids cells draw")


def flock_groups(rows):
    """Per domain half-width, the series its rows belong to. A domain that holds several sizes is a
    series of its own (sizes at one L); domains of one size each join by density (sizes at one
    density, as `bench --density` makes them). One series in all: no names."""
    sizes = defaultdict(set)
    for row in rows:
        if row.get("domain_half"):
            sizes[float(row["domain_half"])].add(int(row["boids"]))
    groups = {}
    for half, boids in sizes.items():
        if len(boids) > 1:
            groups[half] = f"L = {half:.4g}"
        else:
            groups[half] = f"density {next(iter(boids)) / (2 * half) ** 3:.3g}"
    return groups if len(set(groups.values())) > 1 else {}


def load(path):
    """Median of every timing column, and the candidates per boid, per configuration."""
    samples = defaultdict(lambda: defaultdict(list))
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = {"mode", "boids", "cells", "gpu_total_ms"} - set(reader.fieldnames or [])
        if missing:
            sys.exit(f"plot_bench.py: {path} lacks the columns {sorted(missing)}: not a vkboids bench CSV")
        rows = list(reader)
    if any(None in row for row in rows):
        sys.exit(f"plot_bench.py: {path} has rows longer than its header (files of two versions joined?)")
    groups = flock_groups(rows)
    for row in rows:
        variant = " ".join(v for v in ("morton" if row.get("cell_order") == "morton" else "",
                                       "counting" if row.get("grid_build") == "counting" else "") if v)
        flock = groups.get(float(row["domain_half"]), "") if row.get("domain_half") else ""
        key = Config(row["mode"], variant, flock, int(row["boids"]), int(row["cells"]) if row["cells"] else 0,
                     row.get("draw", ""))
        for column, value in row.items():
            if (column.startswith("gpu_") or column in ("cpu_frame_ms", "candidates_per_boid")) and value:
                samples[key][column].append(float(value))
    return {key: {c: statistics.median(v) for c, v in cols.items()} for key, cols in samples.items()}


def name(c):
    return c.mode + (f" {c.variant}" if c.variant else "")


def label(c):
    shape = ", ".join(p for p in (f"{c.cells} cells" if c.cells else "", c.flock) if p)
    return f"{name(c)} {c.boids:,}" + (f" ({shape})" if shape else "") + (f", {c.draw}" if c.draw else "")


def steps(medians):
    """One configuration per step: steps are the same whichever path drew them."""
    out = {}
    for c, cols in sorted(medians.items()):
        out.setdefault(c._replace(draw=""), cols)
    return out


def save_log_log(fig, ax, xlabel, ylabel, title, path):
    """Log axes, labels, grid and legend on a chart of points or series, written to path."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def scaling(medians, out, title):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    series = defaultdict(list)
    for c, cols in steps(medians).items():
        step = step_ms(cols)
        if math.isfinite(step):
            series[c._replace(boids=0)].append((c.boids, step))
    # Colour by mode (lighter in Morton order), line style by search shape, square markers for the
    # counting build, hollow ones for flocks after the first.
    flocks = sorted({s.flock for s in series})
    for s, points in sorted(series.items()):
        points.sort()
        text = ", ".join(p for p in (name(s), f"{s.cells} cells" if s.cells else "", s.flock) if p)
        ax.plot([p[0] for p in points], [p[1] for p in points], "-" if s.cells in (0, 27) else "--",
                marker="s" if "counting" in s.variant else "o",
                fillstyle="full" if flocks.index(s.flock) == 0 else "none", label=text,
                color=(MORTON_COLORS if "morton" in s.variant else MODE_COLORS).get(s.mode))
    save_log_log(fig, ax, "boids", "median GPU ms per step (the draw left out)", title or "Time per step",
                 os.path.join(out, "scaling.png"))


def breakdown(medians, out, title):
    keys = sorted(medians, key=by_size)
    fig, ax = plt.subplots(figsize=(max(7, 0.7 * len(keys) + 2), 5))
    bottoms = [0.0] * len(keys)
    for column, pass_name in PASS_COLUMNS:
        values = [medians[k].get(column, 0.0) for k in keys]
        if not any(values):
            continue
        ax.bar(range(len(keys)), values, bottom=bottoms, label=pass_name)
        bottoms = [b + v for b, v in zip(bottoms, values)]
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([label(k) for k in keys], rotation=45, ha="right", fontsize=8)
    ax.set_yscale("symlog", linthresh=0.01)
    ax.set_ylabel("median GPU ms per pass (stacked)")
    ax.set_title(title or "Where the time goes")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "breakdown.png"), dpi=120)
    plt.close(fig)


def cells(medians, out, title):
    medians = steps(medians)
    groups = sorted({c._replace(cells=0) for c in medians if c.cells})
    if not groups:
        return
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(groups) + 2), 4.5))
    width = 0.38
    for offset, shape in ((-width / 2, 8), (width / 2, 27)):
        values = [step_ms(medians.get(g._replace(cells=shape), {})) for g in groups]
        ax.bar([i + offset for i in range(len(groups))], values, width, label=f"{shape} cells")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([label(g) for g in groups], rotation=30, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("median GPU ms per step")
    ax.set_title(title or "8 against 27 cells")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "cells.png"), dpi=120)
    plt.close(fig)


def by_size(c):
    return (c.boids, c.mode, c.variant, c.flock, c.cells, c.draw)


def step_ms(cols):
    return cols.get("gpu_total_ms", math.nan) - cols.get("gpu_draw_ms", 0.0) - cols.get("gpu_ui_ms", 0.0)


def frames(medians, out, title):
    keys = sorted((k for k in medians if k.draw and "gpu_draw_ms" in medians[k]), key=by_size)
    if not keys:
        return False
    fig, ax = plt.subplots(figsize=(max(7, 0.8 * len(keys) + 2), 5))
    simulation = [medians[k]["gpu_total_ms"] - medians[k]["gpu_draw_ms"] for k in keys]
    draw = [medians[k]["gpu_draw_ms"] for k in keys]
    # Side by side, not stacked: on a log scale a stack hides the smaller part.
    width = 0.38
    ax.bar([i - width / 2 for i in range(len(keys))], simulation, width, label="simulation")
    ax.bar([i + width / 2 for i in range(len(keys))], draw, width, label="draw")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([label(k) for k in keys], rotation=45, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("median GPU ms per frame")
    ax.set_title(title or "Whole frames")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "frames.png"), dpi=120)
    plt.close(fig)
    return True


def candidates(medians, out, title):
    series = defaultdict(list)
    for c, cols in steps(medians).items():
        if c.cells and "candidates_per_boid" in cols and "gpu_flock_ms" in cols:
            series[c._replace(boids=0, flock="")].append(
                (cols["candidates_per_boid"], cols["gpu_flock_ms"] * 1e6 / c.boids))
    if not series:
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    # Colour by mode (lighter in Morton order), square markers for the counting build, hollow ones
    # for 8 cells.
    for s, points in sorted(series.items()):
        ax.plot([p[0] for p in points], [p[1] for p in points], linestyle="none",
                marker="s" if "counting" in s.variant else "o", fillstyle="full" if s.cells == 27 else "none",
                label=f"{name(s)}, {s.cells} cells",
                color=(MORTON_COLORS if "morton" in s.variant else MODE_COLORS).get(s.mode))
    save_log_log(fig, ax, "candidates per boid (distances computed, itself included)",
                 "median flock pass GPU ns per boid", title or "Search cost", os.path.join(out, "candidates.png"))
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", help="a vkboids bench --csv file")
    parser.add_argument("--out", default=".", help="folder for the PNG charts")
    parser.add_argument("--title", default="", help="a prefix for the chart titles (GPU, driver)")
    args = parser.parse_args()
    if not os.path.isfile(args.csv):
        sys.exit(f"plot_bench.py: cannot read {args.csv}")
    os.makedirs(args.out, exist_ok=True)
    medians = load(args.csv)
    if not medians:
        sys.exit(f"plot_bench.py: {args.csv} has no rows")
    prefix = args.title + ": " if args.title else ""
    scaling(medians, args.out, prefix + "time per step")
    breakdown(medians, args.out, prefix + "per-pass breakdown")
    cells(medians, args.out, prefix + "8 against 27 cells")
    drawn = frames(medians, args.out, prefix + "whole frames")
    counted = candidates(medians, args.out, prefix + "flock pass against candidates")
    print(f"wrote scaling.png, breakdown.png, cells.png{', frames.png' if drawn else ''}"
          f"{', candidates.png' if counted else ''} to {args.out}")


if __name__ == "__main__":
    main()
