#!/usr/bin/python3
"""A chart of a demo's capture, frame by frame (Debian's python3-matplotlib, run with /usr/bin/python3).

    build/release/vkboids --capture run.csv --frames 600 --warmup 60
    /usr/bin/python3 tools/plot_capture.py run.csv --out charts [--title "H100"]

Writes OUT/NAME.png for NAME.csv (the demo's --capture or the panel's capture button): above, the
CPU and GPU frame times over the frame index; below, each pass's GPU time over the frame index,
stacked, so that the top edge is the sum of the passes. Both axes are linear and start at 0. A dashed
line marks each frame where the mode, count, cells, cell order, grid build or drawing path changed.
Where the device's timestamps were not trusted, the capture has no GPU times and the chart says so.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_bench import pass_name, plt, read_rows  # noqa: E402

SETTINGS = ("mode", "boids", "cells", "cell_order", "grid_build", "draw")


def number(text):
    return float(text) if text else math.nan


def setting(row):
    """A row's settings, as the chart names them."""
    parts = [row["mode"], f"{int(row['boids']):,}"]
    if row.get("cells"):
        parts.append(f"{row['cells']} cells")
    parts += [row.get(k, "") for k in ("cell_order", "grid_build") if row.get(k) not in ("", "linear", "radix")]
    if row.get("draw"):
        parts.append(row["draw"])
    return " ".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", help="a capture: vkboids --capture FILE.csv")
    parser.add_argument("--out", default=".", help="folder for the PNG chart")
    parser.add_argument("--title", default="", help="a prefix for the chart's title (GPU, driver)")
    args = parser.parse_args()
    rows, columns = read_rows(args.csv, "plot_capture.py")
    if not rows:
        sys.exit(f"plot_capture.py: {args.csv} has no rows")
    frames = list(range(len(rows)))  # a capture's frame column; a bench's restarts with each configuration
    cpu = [number(r["cpu_frame_ms"]) for r in rows]
    gpu = [number(r["gpu_total_ms"]) for r in rows]
    passes = [c for c in columns if any(r[c] for r in rows)]
    timed = any(math.isfinite(v) for v in gpu)

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(11, 7), sharex=True)
    top.plot(frames, cpu, linewidth=0.9, label="CPU frame")
    if timed:
        top.plot(frames, gpu, linewidth=0.9, label="GPU frame")
    top.set_ylabel("ms")
    top.set_ylim(0, 1.1 * max(v for v in cpu + gpu if math.isfinite(v)))
    top.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    top.grid(True, alpha=0.3)

    if timed and passes:
        bottom.stackplot(frames, [[number(r[c]) if r[c] else 0.0 for r in rows] for c in passes],
                         labels=[pass_name(c) for c in passes], linewidth=0)
        bottom.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    else:
        bottom.text(0.5, 0.5, "no GPU times: the device's timestamps were not trusted (the capture's JSON says "
                    "why)", ha="center", va="center", transform=bottom.transAxes)
    bottom.set_ylabel("GPU ms per pass (stacked)")
    bottom.set_xlabel("frame of the capture")
    bottom.set_ylim(bottom=0)
    bottom.set_xlim(frames[0], frames[-1] if len(frames) > 1 else frames[0] + 1)
    bottom.grid(True, alpha=0.3)

    # Where the settings change, a dashed line, and the new settings above the first chart.
    for frame, (previous, row) in enumerate(zip(rows, rows[1:]), start=1):
        if any(previous.get(k) != row.get(k) for k in SETTINGS):
            for ax in (top, bottom):
                ax.axvline(frame, color="gray", linestyle="--", linewidth=0.8)
            top.annotate(setting(row), (frame, 1), xycoords=("data", "axes fraction"),
                         xytext=(2, 2), textcoords="offset points", fontsize=7, rotation=30)
    title = f"{args.title + ': ' if args.title else ''}{os.path.basename(args.csv)}, {setting(rows[0])}"
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, os.path.splitext(os.path.basename(args.csv))[0] + ".png")
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
