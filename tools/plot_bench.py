#!/usr/bin/python3
"""Charts from `vkboids bench --csv` files (Debian's python3-matplotlib, run with /usr/bin/python3).

    /usr/bin/python3 tools/plot_bench.py steps.csv [frames.csv ...] --out docs/charts [--title "H100"]

Writes scaling.png (median GPU ms per step against boids, per mode, cell order, grid build, search
shape and, where the files hold flocks at several densities, flock; log-log), breakdown.png (each
pass's share of the step's GPU time, one bar per configuration, the step's median ms beside it),
cells.png (a step with 27 cells as a share of one with 8, per mode and size), for a --render bench, frames.png (each frame's
simulation and draw, per drawing path, one panel per boid count) and, for a --count-candidates
bench, candidates.png (the flocking pass's time per boid against the candidates each boid's search
tests, per grid configuration). Medians are over the measured frames of each configuration. Where
the files hold steps without a draw, the step charts take only those, and frames.png the drawn rows.
A `sort-bench --csv` file (and cub_sort_bench's output) gives sort.png instead: median µs per sort
against pairs, per algorithm and key width. The bench charts' titles name the GPU of the JSON
beside a bench CSV unless --title says otherwise. The charts of a demo's --capture, frame by frame, are
tools/plot_capture.py's.
"""
import argparse
import csv
import math
import os
import statistics
import sys
from collections import defaultdict, namedtuple

import json

# Without matplotlib, one line saying what to install rather than a traceback (plot_capture.py, which
# imports this module, says it too).
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import ticker
except ImportError as missing:
    sys.exit(f"{os.path.basename(sys.argv[0])}: error: the charts need matplotlib ({missing}): install it "
             "(Debian: apt-get install python3-matplotlib; elsewhere: pip install matplotlib)")

# The names of the passes' columns; a file's other gpu_*_ms columns are passes too, named from the
# column. Files list their passes in the order they run.
PASS_COLUMNS = [
    ("gpu_grid_index_ms", "grid index"),
    ("gpu_sort_ms", "sort"),
    ("gpu_key_starts_ms", "key starts"),
    ("gpu_key_starts_reorder_ms", "key starts + reorder"),
    ("gpu_cell_ranges_ms", "cell ranges"),  # an older build's key starts
    ("gpu_cell_ranges_reorder_ms", "cell ranges + reorder"),
    ("gpu_grid_histogram_ms", "grid/histogram"),
    ("gpu_grid_scan_ms", "grid/scan"),
    ("gpu_grid_scatter_ms", "grid/scatter"),
    ("gpu_grid_rank_ms", "grid/rank"),
    ("gpu_flock_ms", "flock"),
    ("gpu_draw_ms", "draw"),
    ("gpu_ui_ms", "ui"),
]


def pass_columns(fieldnames):
    """The pass columns among a file's columns, in the file's order."""
    return [c for c in fieldnames if c.startswith("gpu_") and c.endswith("_ms") and c != "gpu_total_ms"]


def pass_name(column):
    return dict(PASS_COLUMNS).get(column) or column[len("gpu_"):-len("_ms")].replace("_", " ")


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


def read_rows(path, script="plot_bench.py"):
    """The rows of a vkboids CSV (bench or capture), and its pass columns; one line and exit where it
    is not one."""
    if not os.path.isfile(path):
        sys.exit(f"{script}: cannot read {path}")
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = {"mode", "boids", "cells", "gpu_total_ms"} - set(reader.fieldnames or [])
        if missing:
            sys.exit(f"{script}: {path} lacks the columns {sorted(missing)}: not a vkboids bench CSV")
        rows = list(reader)
    if any(None in row for row in rows):
        sys.exit(f"{script}: {path} has rows longer than its header (files of two versions joined?)")
    return rows, pass_columns(reader.fieldnames)


def load(path):
    """Median of every timing column, and the candidates per boid, per configuration."""
    samples = defaultdict(lambda: defaultdict(list))
    rows, _ = read_rows(path)
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


def ms(value):
    """Milliseconds as docs/PERFORMANCE.md's tables write them: three decimals below 1, else two."""
    return f"{value:.3f}" if value < 1 else f"{value:.2f}"


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


def plain_log_axis(axis, values):
    """A log axis labelled in plain numbers ("200", "1.5"), not powers of ten; where the values span
    less than two decades the minor ticks are labelled too, since few major ones fall inside."""
    plain = ticker.FuncFormatter(lambda v, _: f"{v:g}")
    axis.set_major_formatter(plain)
    low, high = min(values), max(values)
    axis.set_minor_formatter(plain if high < 100 * low else ticker.NullFormatter())


def save_log_log(fig, ax, xlabel, ylabel, title, path):
    """Log axes in plain numbers, labels, grid and legend on a chart of points or series, written to
    path."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    xs = [x for line in ax.get_lines() for x in line.get_xdata()]
    ys = [y for line in ax.get_lines() for y in line.get_ydata()]
    if xs and ys:
        plain_log_axis(ax.xaxis, xs)
        plain_log_axis(ax.yaxis, ys)
        ax.tick_params(which="minor", labelsize=7)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    if path is None:  # the caller finishes the chart
        return
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def save_sizes_log_log(fig, ax, xlabel, ylabel, title, path):
    """save_log_log, with a tick at every size measured (the last included), in words."""
    sizes = sorted({x for line in ax.get_lines() for x in line.get_xdata()})
    save_log_log(fig, ax, xlabel, ylabel, title, None)
    ax.xaxis.set_major_locator(ticker.FixedLocator(sizes))
    ax.xaxis.set_major_formatter(ticker.FixedFormatter([count_text(x) for x in sizes]))
    ax.xaxis.set_minor_locator(ticker.NullLocator())
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def count_text(n):
    """A boid or pair count as the tables write it in words: 100k, 1M, 5.12M."""
    return f"{n / 1e6:g}M" if n >= 1e6 else f"{n / 1e3:g}k" if n >= 1e3 else f"{n:g}"


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
    save_sizes_log_log(fig, ax, "boids", "median GPU ms per step (the draw left out)", title or "Time per step",
                       os.path.join(out, "scaling.png"))


def breakdown(medians, out, title):
    """Each pass's share of the step (or, for drawn frames, of the frame), stacked to 100% on a linear
    axis: one bar per configuration, its median ms written beside it. The share not in any pass
    (barriers and the gaps between passes) is a grey bar of its own."""
    keys = sorted(medians, key=by_size, reverse=True)
    columns = [c for c in all_pass_columns(medians) if any(medians[k].get(c) for k in keys)]
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(keys) + 1.8))
    lefts = [0.0] * len(keys)
    totals = [max(medians[k].get("gpu_total_ms", 0.0), sum(medians[k].get(c, 0.0) for c in columns))
              for k in keys]
    colors = plt.get_cmap("tab10").colors
    for i, column in enumerate(columns):
        shares = [100 * medians[k].get(column, 0.0) / t if t else 0.0 for k, t in zip(keys, totals)]
        ax.barh(range(len(keys)), shares, left=lefts, label=pass_name(column), color=colors[i % len(colors)])
        lefts = [a + b for a, b in zip(lefts, shares)]
    ax.barh(range(len(keys)), [max(0.0, 100 - left) for left in lefts], left=lefts,
            label="between passes", color="#d9d9d9")
    for i, k in enumerate(keys):
        ax.text(101, i, f"{ms(medians[k].get('gpu_total_ms', math.nan))} ms", va="center", fontsize=8)
    ax.set_yticks(range(len(keys)))
    ax.set_yticklabels([label(k) for k in keys], fontsize=8)
    ax.set_xlim(0, 112)
    ax.set_xticks(range(0, 101, 20))
    ax.set_xlabel("share of the median GPU time (%)")
    ax.set_title(title or "Where the time goes")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.12 if len(keys) > 8 else -0.25),
              ncol=min(len(columns) + 1, 6))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "breakdown.png"), dpi=120)
    plt.close(fig)


def all_pass_columns(medians):
    """Every pass column the medians hold, in the order the passes run (unknown ones last)."""
    seen = []
    for cols in medians.values():
        seen += [c for c in pass_columns(cols) if c not in seen]
    order = [c for c, _ in PASS_COLUMNS]
    return sorted(seen, key=lambda c: order.index(c) if c in order else len(order))


def cells(medians, out, title):
    """Per mode and size, a step with 27 cells as a share of one with 8 (100%: as fast), on a linear
    axis from 0, both medians written beside the bar."""
    medians = steps(medians)
    groups = sorted((c._replace(cells=0) for c in medians if c.cells == 8
                     and c._replace(cells=27) in medians), key=by_size, reverse=True)
    if not groups:
        return
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(groups) + 1.4))
    eight = [step_ms(medians[g._replace(cells=8)]) for g in groups]
    twenty_seven = [step_ms(medians[g._replace(cells=27)]) for g in groups]
    shares = [100 * b / a for a, b in zip(eight, twenty_seven)]
    ax.barh(range(len(groups)), shares, color=[MODE_COLORS.get(g.mode, "#7f7f7f") for g in groups])
    for i, (a, b, share) in enumerate(zip(eight, twenty_seven, shares)):
        ax.text(max(share, 100) + 2, i, f"{ms(b)} ms against {ms(a)}", va="center", fontsize=8)
    ax.axvline(100, color="black", linewidth=0.8)
    ax.set_yticks(range(len(groups)))
    ax.set_yticklabels([label(g) for g in groups], fontsize=8)
    ax.set_xlim(0, max(shares + [100]) * 1.45)
    ax.set_xlabel("median GPU ms per step with 27 cells, as % of that with 8")
    ax.set_title(title or "27 against 8 cells")
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "cells.png"), dpi=120)
    plt.close(fig)


def by_size(c):
    return (c.boids, c.mode, c.variant, c.flock, c.cells, c.draw)


def step_ms(cols):
    return cols.get("gpu_total_ms", math.nan) - cols.get("gpu_draw_ms", 0.0) - cols.get("gpu_ui_ms", 0.0)


def frames(medians, out, title):
    """One panel per flock (boid count and domain), each on a linear axis from 0: per drawing path, the
    frame's median GPU ms, the simulation below and the draw stacked on it."""
    keys = sorted((k for k in medians if k.draw and "gpu_draw_ms" in medians[k]), key=by_size)
    if not keys:
        return False
    flocks = sorted({k._replace(draw="") for k in keys}, key=by_size)
    columns = min(len(flocks), 3)
    rows = math.ceil(len(flocks) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(3.6 * columns, 3.2 * rows), squeeze=False)
    for ax, flock in zip(axes.flat, flocks):
        paths = [k for k in keys if k._replace(draw="") == flock]
        simulation = [medians[k]["gpu_total_ms"] - medians[k]["gpu_draw_ms"] for k in paths]
        draw = [medians[k]["gpu_draw_ms"] for k in paths]
        x = range(len(paths))
        ax.bar(x, simulation, 0.6, label="simulation", color="#1f77b4")
        ax.bar(x, draw, 0.6, bottom=simulation, label="draw", color="#ff7f0e")
        for i, (a, b) in enumerate(zip(simulation, draw)):
            ax.text(i, a + b, ms(a + b), ha="center", va="bottom", fontsize=8)
        ax.set_xticks(list(x))
        ax.set_xticklabels([k.draw for k in paths], fontsize=8)
        ax.set_ylim(0, 1.15 * max(a + b for a, b in zip(simulation, draw)))
        shape = ", ".join(p for p in (f"{flock.cells} cells" if flock.cells else "", flock.flock) if p)
        ax.set_title(f"{name(flock)} {flock.boids:,}" + (f"\n({shape})" if shape else ""), fontsize=9)
        ax.set_ylabel("median GPU ms per frame", fontsize=8)
        ax.grid(True, axis="y", alpha=0.3)
    for ax in list(axes.flat)[len(flocks):]:
        ax.axis("off")
    # One legend above the panels, where it covers no bar.
    handles, names = axes.flat[0].get_legend_handles_labels()
    fig.suptitle(title or "Whole frames")
    fig.legend(handles, names, fontsize=8, loc="upper right", bbox_to_anchor=(1, 0.99), ncol=2)
    fig.tight_layout(rect=(0, 0, 1, 0.92))
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


def sort_rows(path):
    """The rows of a sort-bench CSV (or of cub_sort_bench's, whose algorithm is CUB), or None where
    the file is not one."""
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    if not lines:  # a header comment alone: cub_sort_bench that failed
        print(f"plot_bench.py: {path} holds no rows, left out", file=sys.stderr)
        return []
    reader = csv.DictReader(lines)
    if not {"pairs", "key_bits", "median_us"} <= set(reader.fieldnames or []):
        return None
    return [dict(row, algorithm=row.get("algorithm") or "CUB") for row in reader]


def sort_chart(rows, out, title):
    """Median µs per sort against pairs, per algorithm and key width, log-log."""
    series = defaultdict(list)
    for row in rows:
        algorithm = row["algorithm"]
        series[(algorithm, int(row["key_bits"]))].append((int(row["pairs"]), float(row["median_us"])))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    colors = {"onesweep": "#1f77b4", "reduce-then-scan": "#ff7f0e", "CUB": "#2ca02c"}
    for (algorithm, bits), points in sorted(series.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], "-" if bits <= 24 else "--", marker="o",
                label=f"{algorithm}, {bits}-bit keys", color=colors.get(algorithm.removeprefix("auto:")))
    save_sizes_log_log(fig, ax, "pairs", "median µs per sort", title or "Radix sort", os.path.join(out, "sort.png"))


def device_name(path):
    """The GPU named by the JSON beside a bench CSV (bench --json), where there is one."""
    beside = os.path.splitext(path)[0] + ".json"
    try:
        with open(beside) as f:
            return json.load(f)["device"]["name"]
    except (OSError, ValueError, KeyError, TypeError):
        return ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", nargs="+", help="vkboids bench --csv or sort-bench --csv files")
    parser.add_argument("--out", default=".", help="folder for the PNG charts")
    parser.add_argument("--title", default="",
                        help="a prefix for the chart titles (GPU, driver); default: the GPU the JSON "
                             "beside a CSV names")
    args = parser.parse_args()
    medians = {}
    sorts = []
    devices = set()
    for path in args.csv:
        if not os.path.isfile(path):
            sys.exit(f"plot_bench.py: cannot read {path}")
        rows = sort_rows(path)
        if rows is not None:
            sorts += rows
            continue
        loaded = load(path)
        if not loaded:
            sys.exit(f"plot_bench.py: {path} has no rows")
        medians.update(loaded)
        devices.add(device_name(path))
    os.makedirs(args.out, exist_ok=True)
    # The sort's files name no GPU: its title has --title alone.
    if sorts:
        sort_chart(sorts, args.out, (args.title + ": " if args.title else "") + "radix sort")
    if not args.title and len(devices - {""}) == 1:
        args.title = next(iter(devices - {""}))
    if not medians:
        print(f"wrote sort.png to {args.out}")
        return
    # Steps without a draw where the files hold any; else the drawn frames' steps.
    undrawn = {k: v for k, v in medians.items() if not k.draw} or medians
    prefix = args.title + ": " if args.title else ""
    scaling(undrawn, args.out, prefix + "time per step")
    breakdown(undrawn, args.out, prefix + "per-pass breakdown")
    cells(undrawn, args.out, prefix + "27 against 8 cells")
    drawn = frames(medians, args.out, prefix + "whole frames")
    counted = candidates(undrawn, args.out, prefix + "flock pass against candidates")
    print(f"wrote {'sort.png, ' if sorts else ''}scaling.png, breakdown.png, cells.png"
          f"{', frames.png' if drawn else ''}{', candidates.png' if counted else ''} to {args.out}")


if __name__ == "__main__":
    main()
