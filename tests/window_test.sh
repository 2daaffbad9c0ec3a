#!/usr/bin/env bash
# The demo in a real window under Xvfb (with a window manager, so that minimizing really unmaps
# the window): a few hundred frames with validation on, a resize and a minimize/restore on the way,
# a capture and a screenshot, with each drawing path; exit code 0 means no validation errors either.
# Each capture is drawn frame by frame (tools/plot_capture.py).
# Keys and mouse drags come from an input script (--input-script), handed to the window's own GLFW
# callbacks: under Xvfb, key presses sent with xdotool were often lost.
#
# One X server for the whole script, started here rather than by xvfb-run: each check judges the
# demo's own exit code, never a wrapper's clean-up (xvfb-run once returned 5 for a demo that exited
# 1), and -displayfd lets the server take a free display, so that tests running at once never collide.
set -euo pipefail
vkboids=$(realpath "$1")
tools=$(cd "$(dirname "$0")/../tools" && pwd)
out=$(mktemp -d)
xvfb=
wm=
cleanup() {
    for pid in $wm $xvfb; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
    rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 1' INT TERM # and the servers go on a timeout's kill too
export XDG_RUNTIME_DIR=$out
cd "$out" # F12 writes its screenshot into the working directory

# waitFor FILE PID NAME: until NAME (process PID) has written FILE, at most 30 s.
waitFor() {
    for _ in $(seq 300); do
        [ -s "$1" ] && return 0
        kill -0 "$2" 2>/dev/null || break
        sleep 0.1
    done
    echo "$3 did not start:"
    cat "$out/$3.log"
    exit 1
}
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$out/display" >"$out/Xvfb.log" 2>&1 &
xvfb=$!
waitFor "$out/display" $xvfb Xvfb
export DISPLAY=:$(head -n 1 "$out/display")

# Closed by Escape before its last frame: the capture and the screenshot asked for are not written,
# and the exit code and one error line say so. A window larger than the device draws is refused before it is drawn;
# these two run before the window manager starts, which would fit the window to the screen.
printf '1 key ESCAPE\n' >"$out/escape.txt"
code=0
"$vkboids" --validation --boids 1000 --frames 10 --input-script "$out/escape.txt" --capture "$out/early.csv" \
    --screenshot "$out/early.png" >"$out/early.log" 2>&1 || code=$?
cat "$out/early.log"
[ "$code" -eq 1 ] || { echo "closed early: exit code $code, not 1"; exit 1; }
grep -q "the window closed after 2 of 10 frames: no capture and no screenshot written" "$out/early.log"
[ "$(grep -c "error" "$out/early.log")" -eq 1 ] || { echo "closed early: more than one error line"; exit 1; }
[ ! -e "$out/early.csv" ] && [ ! -e "$out/early.png" ] || { echo "closed early: an output was written"; exit 1; }
# lavapipe draws at most 16384x16384; an X window is at most 32767 wide, within what GPUs draw.
if grep -q "running on llvmpipe" "$out/early.log"; then
    code=0
    "$vkboids" --validation --boids 1000 --frames 2 --window 20000x20000 >"$out/huge.log" 2>&1 || code=$?
    cat "$out/huge.log"
    [ "$code" -eq 2 ] || { echo "a 20000x20000 window: exit code $code, not 2"; exit 1; }
    grep -q "error: --window: the window is 20000x20000, more than this device draws" "$out/huge.log"
fi

# docs/screenshot.png is what the README's command draws today: on the device it was drawn on, its
# left panel matches a fresh one's, so that a panel whose labels change fails here until the picture
# is drawn again.
if grep -q "running on llvmpipe" "$out/early.log"; then
    "$vkboids" --frames 60 --screenshot "$out/readme.png" --report-layout >"$out/readme.log" 2>&1
    /usr/bin/python3 - "$out/readme.png" "$tools/../docs/screenshot.png" "$out/readme.log" <<'PY'
import re, sys
import numpy as np
from PIL import Image
fresh, shipped = (np.asarray(Image.open(name).convert("RGB")).astype(int) for name in sys.argv[1:3])
layout = [line for line in open(sys.argv[3]) if line.startswith("layout: ")][-1]
x0, y0, x1, y1 = map(int, re.search(r"panel (-?\d+) (-?\d+) (-?\d+) (-?\d+)", layout).groups())
assert fresh.shape == shipped.shape, f"docs/screenshot.png is {shipped.shape}, a fresh one {fresh.shape}"
def differ(rows):
    return (np.abs(fresh[rows, x0:x1] - shipped[rows, x0:x1]).max(axis=2) > 8).sum()
# The picture shows one device (its name in the panel's first lines); another draws other numbers.
if differ(slice(y0 + 25, y0 + 60)) > 20:
    print("docs/screenshot.png was drawn on another device than this one: not compared")
    sys.exit(0)
stale = differ(slice(y0 + 60, y1))
assert stale <= 20, (f"docs/screenshot.png's panel is stale ({stale} pixels differ): draw it again with "
                      "`xvfb-run -a build/release/vkboids --frames 60 --screenshot docs/screenshot.png`")
print(f"docs/screenshot.png's panel matches a fresh one ({stale} pixels differ)")
PY
fi

# At the smallest window and at a large one (before the window manager, which would fit the window to
# the screen), the panels lie within the window (the left one scrolls what does not fit) and the
# domain is framed beside them: within the window, right of the left panel, and left of or below the
# timings.
for size in 800x600 1200x720; do
    "$vkboids" --validation --boids 1000 --frames 90 --window "$size" --report-layout >"$out/layout.log" 2>&1
    layout=$(grep "^layout: " "$out/layout.log" | tail -n 1)
    [ -n "$layout" ] || { echo "$size: no layout reported"; exit 1; }
    read -r w h px0 py0 px1 py1 tx0 ty0 tx1 ty1 dx0 dy0 dx1 dy1 < <(tr -cs '0-9-\n' ' ' <<<"$layout")
    echo "$size: $layout"
    [ "${w}x$h" = "$size" ] || { echo "$size: the window is ${w}x$h"; exit 1; }
    for v in $px0 $py0 $tx0 $ty0 $dx0 $dy0; do [ "$v" -ge 0 ] || { echo "$size: clipped: $layout"; exit 1; }; done
    for v in $px1 $tx1 $dx1; do [ "$v" -le "$w" ] || { echo "$size: clipped: $layout"; exit 1; }; done
    for v in $py1 $ty1 $dy1; do [ "$v" -le "$h" ] || { echo "$size: clipped: $layout"; exit 1; }; done
    [ "$dx0" -ge "$px1" ] || { echo "$size: the domain lies under the panel: $layout"; exit 1; }
    [ "$dx1" -le "$tx0" ] || [ "$dy0" -ge "$ty1" ] || { echo "$size: the domain lies under the timings: $layout"; exit 1; }
    # At 800x600 the timings start collapsed, leaving the domain the height beside the panel.
    [ $((dx1 - dx0)) -ge $((h / 2)) ] || { echo "$size: the domain is drawn small: $layout"; exit 1; }
done

# A window manager, so that minimizing really unmaps the window; --startup runs once it manages the
# screen.
openbox --startup "sh -c 'echo ready >$out/wm-ready'" >"$out/openbox.log" 2>&1 &
wm=$!
waitFor "$out/wm-ready" $wm openbox

# Help on (F1) and off ('?'), the predator pinned and unpinned (P), every mode (M), a screenshot
# (F12) and the predator held under a right drag; then a left drag orbits the camera.
cat >"$out/input.txt" <<'EOF'
2 move 0.55 0.5
12 key F1
16 char ?
20 key P
24 key P
40 key M
44 key M
48 key M
52 key F12
56 drag right 0.55 0.45 0.8 0.6 20
80 drag left 0.6 0.5 0.7 0.55 5
EOF

# run NAME FRAMES WARMUP [options]: the demo, its log in $out/NAME.log.
run() {
    local name=$1 frames=$2 warmup=$3
    shift 3
    "$vkboids" --validation --boids 3000 --frames "$frames" --warmup "$warmup" --exercise-window \
        --capture "$out/$name.csv" --screenshot "$out/$name.png" --input-script "$out/input.txt" \
        "$@" 2>&1 | tee "$out/$name.log"
    grep -q "$((frames + warmup)) frames rendered" "$out/$name.log"
    grep -q "minimized 1 time$" "$out/$name.log" # the window manager really minimized it
    if grep -q "swapchain recreated 0 times" "$out/$name.log"; then
        echo "$name: the resize did not recreate the swapchain"
        exit 1
    fi
    # The script's keys and drags took effect: all of it played; the predator on under the right drag
    # (20 frames) and while pinned (4), and left where the drag ended, off the centre; the help shown
    # from F1 to '?' (4 frames); M through every mode; F12's file written.
    local report=$(grep "input script: 40 of 40 events played" "$out/$name.log")
    local predator=$(sed -n 's/.*predator on in \([0-9]*\) frames.*/\1/p' <<<"$report")
    local help=$(sed -n 's/.*help shown in \([0-9]*\) frames.*/\1/p' <<<"$report")
    [ "${predator:-0}" -eq 24 ] || { echo "$name: the predator was on in ${predator:-0} frames, not 24"; exit 1; }
    [ "${help:-0}" -eq 4 ] || { echo "$name: the help was shown in ${help:-0} frames, not 4"; exit 1; }
    grep -q "last at (0.00, 0.00, 0.00)" <<<"$report" && { echo "$name: the drag placed no predator"; exit 1; }
    for mode in naive scattered coherent; do
        grep -q ",$mode," "$out/$name.csv" || { echo "$name: M never switched to $mode"; exit 1; }
    done
    ls "$out"/vkboids-*.png >/dev/null || { echo "$name: F12 wrote no screenshot"; exit 1; }
    rm -f "$out"/vkboids-*.png
    local rows=$(($(wc -l <"$out/$name.csv") - 1))
    [ "$rows" -eq "$frames" ] || { echo "$name: capture has $rows rows, $frames expected"; exit 1; }
    /usr/bin/python3 "$tools/plot_capture.py" "$out/$name.csv" --out "$out/charts" --title lavapipe
    test -s "$out/charts/$name.png" || { echo "$name: plot_capture.py drew no chart"; exit 1; }
    # Every row names the domain it ran in: the default L (the column found by its name).
    local column=$(head -n 1 "$out/$name.csv" | tr , '\n' | grep -n '^domain_half$' | cut -d: -f1)
    local domains=$(tail -n +2 "$out/$name.csv" | cut -d, -f"$column" | sort -u)
    [ "$domains" = "100" ] || { echo "$name: capture domains '$domains', not 100"; exit 1; }
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
run points 90 10 --draw points

# A formed flock with a preset's rules, shown paused: the steps run before the first frame, then the
# frames draw without stepping (no flocking pass in the capture), and the summary holds the preset's
# rules as written.
"$vkboids" --validation --boids 2000 --preset tight-schools --steps-before 40 --paused --frames 10 \
    --capture "$out/paused.csv" >"$out/paused.log" 2>&1 || { cat "$out/paused.log"; echo "paused: failed"; exit 1; }
cat "$out/paused.log"
grep -q "40 steps before the first frame" "$out/paused.log"
# A bench of as many boids: one function summarizes both runs, so its JSON has the capture's keys.
"$vkboids" bench --boids 2000 --mode coherent --frames 2 --warmup 0 --warmup-ms 0 \
    --json "$out/paused-bench.json" >"$out/paused-bench.log" 2>&1 || { cat "$out/paused-bench.log"; exit 1; }
/usr/bin/python3 - "$out/paused.csv" "$out/paused.json" "$out/paused-bench.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 10 and all(r["gpu_flock_ms"] == "" for r in rows), "paused: a frame stepped the flock"
run = json.load(open(sys.argv[2]))["runs"][0]
params = run["params"]
assert (params["cohesion_radius"], params["max_speed"], params["alignment_scale"]) == (4, 1.2, 0.3), params
bench = json.load(open(sys.argv[3]))["runs"][0]
keys = lambda run: sorted(list(run) + ["params/" + k for k in run["params"]])
assert keys(run) == keys(bench), f"the capture's and the bench's run keys differ: {set(keys(run)) ^ set(keys(bench))}"
PY

# Ctrl-C mid-run, once frames are measured (a memory line after the first frame's): the capture holds
# the frames until then, the screenshot is of one more frame, and nothing is an error.
"$vkboids" --validation --boids 1000 --frames 1000000 --report-memory --capture "$out/stopped.csv" \
    --screenshot "$out/stopped.png" >"$out/stopped.log" 2>&1 &
demo=$!
for _ in $(seq 600); do [ "$(grep -c "^memory: " "$out/stopped.log")" -ge 2 ] && break; sleep 0.1; done
kill -INT $demo
code=0
for _ in $(seq 300); do kill -0 $demo 2>/dev/null || break; sleep 0.1; done
kill -0 $demo 2>/dev/null && { kill -KILL $demo; echo "Ctrl-C: still running 30 s later"; exit 1; }
wait $demo || code=$?
cat "$out/stopped.log"
[ "$code" -eq 0 ] || { echo "Ctrl-C: exit code $code, not 0"; exit 1; }
! grep -q "error" "$out/stopped.log" || { echo "Ctrl-C: an error line"; exit 1; }
rows=$(($(wc -l <"$out/stopped.csv") - 1))
[ "$rows" -ge 1 ] && [ -s "$out/stopped.json" ] && [ -s "$out/stopped.png" ] ||
    { echo "Ctrl-C: capture of $rows rows, $(ls "$out")"; exit 1; }
grep -q "interrupted after $((rows + 1)) frames" "$out/stopped.log"

echo "window test passed"
