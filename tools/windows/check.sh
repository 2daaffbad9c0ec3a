#!/usr/bin/env bash
# The Windows build as CI checks it on Debian 12, as root: cross-compiled by MinGW-w64 and run under
# Wine on lavapipe inside Xvfb. Installs its packages, builds the dependencies (deps.sh, which needs
# Debian's source packages) and the `mingw` preset, runs all its unit and GPU tests (`ctest --preset
# mingw`, validation on through the host's loader), then a headless step and bench, bad input and the
# demo's window, each beside the Linux build's (built first, by the README's commands).
#
#   bash tools/windows/check.sh [LINUX_VKBOIDS]     (default: build/release/vkboids)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
linux=${1:-build/release/vkboids}
[[ -x $linux ]] || { echo "check.sh: no Linux build at $linux (cmake --preset release first)" >&2; exit 2; }
linux=$(realpath "$linux")
export DEBIAN_FRONTEND=noninteractive
apt-get update >/dev/null
apt-get install -y --no-install-recommends $(cat tools/windows/packages.txt) >/dev/null
tools/windows/deps.sh
unset DISPLAY # a fresh Xvfb of our own
source tools/windows/wine-start.sh
out=$(mktemp -d)
trap 'rm -rf "$out"; bash "$root/tools/windows/wine-start.sh" --stop >/dev/null 2>&1 || true' EXIT
cmake --preset mingw >/dev/null
cmake --build --preset mingw
ctest --preset mingw

# Wine's Vulkan lists no layers, but its host's loader runs the one its environment names.
export VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
export VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT
windows() { timeout 600 "$root/tools/windows/wine-run" "$root/build/mingw/vkboids.exe" "$@"; }
linux() { timeout 600 "$linux" "$@"; }
cd "$out"

# step: the state that Linux's build computes (to float rounding: the two C libraries differ).
windows step --validation --quiet --boids 2000 --steps 5 --seed 7 --save-state win.npy
linux step --validation --quiet --boids 2000 --steps 5 --seed 7 --save-state linux.npy
# bench: the same CSV columns and rows, the same JSON keys.
bench=(bench --validation --mode naive,scattered,coherent --boids 300 --frames 3 --warmup 1 --warmup-ms 0)
windows "${bench[@]}" --csv win.csv --json win.json >/dev/null
linux "${bench[@]}" --csv linux.csv --json linux.json >/dev/null
# Names beyond ASCII reach the system as UTF-8 (the .exe's manifest), written and read back.
windows step --quiet --boids 100 --save-state "böids-✓.npy"
windows step --quiet --load-state "böids-✓.npy" --steps 1 --save-state "zwei-ü.npy"
[[ -f "böids-✓.npy" && -f "zwei-ü.npy" ]] || { echo "check.sh: UTF-8 names: $(ls)"; exit 1; }
# Bad input: exit code 2 and one line naming the problem, as on Linux.
for args in "step --boids -5" "bench --mode fast" "step --boids 10 --save-state no/such/folder/state.npy"; do
    code=0
    windows $args 2>err.txt >/dev/null || code=$?
    [[ $code == 2 && $(grep -vc "^vkboids: note:" err.txt) == 1 ]] ||
        { echo "check.sh: '$args' under Wine: exit $code, $(cat err.txt)"; exit 1; }
done
# The demo's window for 60 frames: its screenshot, beside Linux's of the same flock.
demo=(--validation --boids 3000 --frames 60 --window 1280x800)
windows "${demo[@]}" --screenshot win.png --capture win-frames.csv >/dev/null
linux "${demo[@]}" --screenshot linux.png --capture linux-frames.csv >/dev/null

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
        return list(csv.DictReader(f))
for name in ("win.csv", "win-frames.csv"):
    linux = name.replace("win", "linux")
    assert open(name).readline() == open(linux).readline(), f"{name}: columns differ from Linux's"
    assert b"\r" not in open(name, "rb").read(), f"{name} has CRLF line endings"
    assert len(rows(name)) == len(rows(linux)), f"{name}: {len(rows(name))} rows, Linux {len(rows(linux))}"
config = lambda r: (r["mode"], r["boids"], r["cells"], r["cell_order"], r["grid_build"], r["draw"])
assert sorted(map(config, rows("win.csv"))) == sorted(map(config, rows("linux.csv"))), "bench configurations differ"
def keys(value, prefix=""):
    if isinstance(value, dict):
        return {k for name, v in value.items() for k in keys(v, f"{prefix}/{name}")} | {prefix}
    if isinstance(value, list):
        return set().union(*[keys(v, prefix + "[]") for v in value]) if value else {prefix}
    return {prefix}
w, l = keys(json.load(open("win.json"))), keys(json.load(open("linux.json")))
assert w == l, f"bench JSON keys differ: {sorted(w ^ l)}"

# Lit pixels right of the panel and outside the timings window (top right): the box and the boids.
# Then the panel's own (ImGui 1.92 on Windows, Debian's 1.86 on Linux): its text and widgets drawn.
def lit(name, region):
    image = Image.open(name).convert("RGB")
    width, height = image.size
    pixels = image.load()
    return sum(1 for y in range(height) for x in range(width)
               if region(x, y, width) and sum(abs(a - b) for a, b in zip(pixels[x, y], (5, 5, 9))) > 30)
flock = lambda x, y, width: x >= 360 and not (x >= width - 330 and y < 320)
w, l = lit("win.png", flock), lit("linux.png", flock)
assert l > 12000 and 0.75 * l <= w <= 1.25 * l, f"demo screenshot: {w} lit pixels on Windows, {l} on Linux"
panel = lambda x, y, width: 10 <= x < 350 and 10 <= y < 700
pw, pl = lit("win.png", panel), lit("linux.png", panel)
assert pl > 20000 and 0.8 * pl <= pw <= 1.25 * pl, f"demo's panel: {pw} lit pixels on Windows, {pl} on Linux"
print(f"windows: step within {difference:.1e} of Linux's; bench and capture columns as Linux's; bad input "
      f"exit 2 in one line; screenshot {w} lit pixels (Linux {l}), its panel {pw} (Linux {pl})")
PY
