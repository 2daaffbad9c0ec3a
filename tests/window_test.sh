#!/usr/bin/env bash
# The demo in a real window under Xvfb (with a window manager, so that minimizing really unmaps
# the window): a few hundred frames with validation on, a resize and a minimize/restore on the way,
# a capture and a screenshot, with each drawing path; exit code 0 means no validation errors either.
set -euo pipefail
vkboids=$(realpath "$1")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export XDG_RUNTIME_DIR=$out

# run NAME FRAMES WARMUP [options]: the demo in a fresh X server, its log in $out/NAME.log.
run() {
    local name=$1 frames=$2 warmup=$3
    shift 3
    xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
        openbox >/dev/null 2>&1 &
        sleep 1
        exec "$@"' bash "$vkboids" --validation --boids 3000 --frames "$frames" --warmup "$warmup" \
        --exercise-window --capture "$out/$name.csv" --screenshot "$out/$name.png" "$@" 2>&1 | tee "$out/$name.log"
    grep -q "$((frames + warmup)) frames rendered" "$out/$name.log"
    grep -q "minimized 1 times" "$out/$name.log" # the window manager really minimized it
    if grep -q "swapchain recreated 0 times" "$out/$name.log"; then
        echo "$name: the resize did not recreate the swapchain"
        exit 1
    fi
    local rows=$(($(wc -l <"$out/$name.csv") - 1))
    [ "$rows" -eq "$frames" ] || { echo "$name: capture has $rows rows, $frames expected"; exit 1; }
    # What the screenshot shows: right of the panel and outside the timings window (top right, about
    # 300x290), the box (about 3,800 pixels at 1280x800, fewer after the resize) and most of 3,000
    # boids of at most 4 pixels each (glyphs: more).
    /usr/bin/python3 - "$out/$name.png" "$out/$name.json" "$frames" "$name" <<'PY'
import json, sys
from PIL import Image
shot, summary, frames, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
image = Image.open(shot).convert("RGB")
width, height = image.size
pixels = image.load()
background = (5, 5, 9)
timings = lambda x, y: x >= width - 330 and y < 320
lit = sum(1 for y in range(height) for x in range(360, width)
          if not timings(x, y) and sum(abs(a - b) for a, b in zip(pixels[x, y], background)) > 30)
# Glyphs of 10 pixels cover several times the pixels of points.
low, high = (20000, 80000) if name == "default" else (6000, 16000)
assert low <= lit <= high, f"{name}: {lit} lit pixels right of the panel, {low} to {high} expected"
run = json.load(open(summary))["runs"][0]
assert run["measured_frames"] == frames, run["measured_frames"]
# 3,000 boids: auto draws glyphs.
assert run["draw"] == {"default": "glyphs"}.get(name, name), run["draw"]
assert run["columns"]["cpu_frame_ms"]["median"] > 0
print(f"{name}: {lit} lit pixels in a {width}x{height} screenshot")
PY
}

run default 240 30 --color cell # glyphs
run compute 90 10 --draw compute --color order
run points 60 10 --draw points
echo "window test passed"
