#!/usr/bin/env bash
# The Windows build as CI checks it on Debian 12: cross-compiled by MinGW-w64 and run under Wine on
# lavapipe inside Xvfb. Installs its packages, builds the dependencies (deps.sh) and the `mingw`
# preset, runs its unit tests and the GPU tests of the passes (ctest, validation on through the host's
# loader), then a headless step and bench and the demo's window, each compared with the Linux build's.
#
#   bash tools/windows/check.sh [LINUX_VKBOIDS]     (default: build/release/vkboids)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
linux=$(realpath "${1:-build/release/vkboids}")
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends $(cat tools/windows/packages.txt) >/dev/null
tools/windows/deps.sh
unset DISPLAY # a fresh Xvfb of our own
source tools/windows/wine-start.sh
out=$(mktemp -d)
trap 'rm -rf "$out"; bash "$root/tools/windows/wine-start.sh" --stop >/dev/null 2>&1 || true' EXIT
cmake --preset mingw >/dev/null
cmake --build --preset mingw
ctest --preset mingw

# Wine hides VK_* variables from Windows programs but its host loader reads them: the layer runs
# beneath winevulkan, and VKBOIDS_VALIDATION_BENEATH_WINE tells --validation so.
export VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
export VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
export VKBOIDS_VALIDATION_BENEATH_WINE=1
windows() { "$root/tools/windows/wine-run" "$root/build/mingw/vkboids.exe" "$@"; }
cd "$out"

# step: the state that Linux's build computes (to float rounding: the two C libraries differ).
windows step --validation --quiet --boids 2000 --steps 5 --seed 7 --save-state win.npy
"$linux" step --validation --quiet --boids 2000 --steps 5 --seed 7 --save-state linux.npy
# bench: the same CSV columns and rows, the same JSON keys.
bench=(bench --validation --mode naive,scattered,coherent --boids 300 --frames 3 --warmup 1 --warmup-ms 0)
windows "${bench[@]}" --csv win.csv --json win.json >/dev/null
"$linux" "${bench[@]}" --csv linux.csv --json linux.json >/dev/null
# The demo's window for 60 frames: its screenshot, beside Linux's of the same flock.
demo=(--validation --boids 3000 --frames 60 --window 1280x800)
windows "${demo[@]}" --screenshot win.png --capture win-frames.csv >/dev/null
"$linux" "${demo[@]}" --screenshot linux.png --capture linux-frames.csv >/dev/null

/usr/bin/python3 - <<'PY'
import csv, json
import numpy as np
from PIL import Image

win, lin = np.load("win.npy"), np.load("linux.npy")
assert win.shape == lin.shape == (2000, 6), (win.shape, lin.shape)
difference = float(np.abs(win - lin).max())
assert difference < 1e-4, f"step: Windows and Linux states differ by {difference}"

def rows(name):
    with open(name, newline="") as f:
        return list(csv.reader(f))
for name in ("", "-frames"):
    w, l = rows(f"win{name}.csv"), rows(f"linux{name}.csv")
    assert w[0] == l[0], f"win{name}.csv columns {w[0]} != {l[0]}"
    assert len(w) == len(l), f"win{name}.csv has {len(w)} rows, Linux {len(l)}"
    assert b"\r" not in open(f"win{name}.csv", "rb").read(), f"win{name}.csv has CRLF line endings"
key = lambda r: tuple(r[:7])
assert sorted(map(key, rows("win.csv")[1:])) == sorted(map(key, rows("linux.csv")[1:])), "bench configurations differ"
def keys(value, prefix=""):
    if isinstance(value, dict):
        return {k for name, v in value.items() for k in keys(v, f"{prefix}/{name}")} | {prefix}
    if isinstance(value, list):
        return set().union(*[keys(v, prefix + "[]") for v in value]) if value else {prefix}
    return {prefix}
w, l = keys(json.load(open("win.json"))), keys(json.load(open("linux.json")))
assert w == l, f"bench JSON keys differ: {sorted(w ^ l)}"

# Lit pixels right of the panel and outside the timings window (top right): the box and the boids.
def lit(name):
    image = Image.open(name).convert("RGB")
    width, height = image.size
    pixels = image.load()
    return sum(1 for y in range(height) for x in range(360, width)
               if not (x >= width - 330 and y < 320) and sum(abs(a - b) for a, b in zip(pixels[x, y], (5, 5, 9))) > 30)
w, l = lit("win.png"), lit("linux.png")
assert l > 12000 and 0.75 * l <= w <= 1.25 * l, f"demo screenshot: {w} lit pixels on Windows, {l} on Linux"
print(f"windows: step within {difference:.1e} of Linux; bench and capture columns as Linux's; "
      f"screenshot {w} lit pixels (Linux {l})")
PY
