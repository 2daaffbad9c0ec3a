#!/usr/bin/env bash
# The demo in a real window under Xvfb (with a window manager, so that minimizing really unmaps
# the window): a few hundred frames with validation on, a resize and a minimize/restore on the way,
# a capture and a screenshot; exit code 0 means no validation errors either.
set -euo pipefail
vkboids=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export XDG_RUNTIME_DIR=$out
xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
    openbox >/dev/null 2>&1 &
    sleep 1
    exec "$0" --validation --boids 3000 --frames 240 --warmup 30 --exercise-window \
        --capture "$1/capture.csv" --screenshot "$1/shot.png"' "$vkboids" "$out" 2>&1 | tee "$out/log"
grep -q "270 frames rendered" "$out/log"
grep -q "minimized 1 times" "$out/log"  # the window manager really minimized it
if grep -q "swapchain recreated 0 times" "$out/log"; then echo "the resize did not recreate the swapchain"; exit 1; fi
test -s "$out/shot.png"
rows=$(($(wc -l < "$out/capture.csv") - 1))
[ "$rows" -eq 240 ] || { echo "capture has $rows rows, 240 expected"; exit 1; }
python3 - "$out/capture.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
assert run["measured_frames"] == 240, run["measured_frames"]
assert run["columns"]["cpu_frame_ms"]["median"] > 0
PY
echo "window test passed"
