#!/usr/bin/env bash
# Live shader editing in the demo's window under Xvfb, validation on: the demo runs on a copy of the
# shaders (--shaders), and the test edits the copy while the flock flies. Each bad edit of
# docs/LIVE_EDITING.md's list is reported with its own message, the flock stepping on the last good
# shaders; the panel shows the error in red (its screenshot is checked). A good edit is then swapped
# in, the panel's error goes, and the run ends with exit code 0.
#
#   tests/live_edit_test.sh VKBOIDS [SHOT.png]   (SHOT: where to keep the failed edit's screenshot)
set -euo pipefail
vkboids=$(realpath "$1")
keep=${2:-}
source_shaders=$(cd "$(dirname "$0")/../shaders" && pwd)
out=$(mktemp -d)
xvfb=
demo=
cleanup() {
    for pid in $demo $xvfb; do kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true; done
    rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export XDG_RUNTIME_DIR=$out
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$out/display" >"$out/Xvfb.log" 2>&1 &
xvfb=$!
for _ in $(seq 300); do [ -s "$out/display" ] && break; sleep 0.1; done
export DISPLAY=:$(head -n 1 "$out/display")

shaders=$out/shaders
rules=$shaders/sim/rules.glsl
restore() { cp "$source_shaders/$1" "$shaders/$1"; }

# waitForLine TEXT: until the demo's log has TEXT after the mark, at most 60 s; the mark moves past
# the line that has it (in bytes: LC_ALL=C).
export LC_ALL=C
mark=0
waitForLine() {
    local hit
    for _ in $(seq 600); do
        hit=$(tail -c +$((mark + 1)) "$out/demo.log" | grep -bF -m 1 -- "$1" || true)
        if [ -n "$hit" ]; then
            hit=${hit#*:}
            mark=$((mark + $(tail -c +$((mark + 1)) "$out/demo.log" | grep -bF -m 1 -- "$1" | cut -d: -f1) + ${#hit} + 1))
            return 0
        fi
        kill -0 "$demo" 2>/dev/null || { echo "the demo ended early:"; cat "$out/demo.log"; exit 1; }
        sleep 0.1
    done
    echo "no '$1' in the demo's log:"
    tail -c +$((mark + 1)) "$out/demo.log"
    exit 1
}

# startDemo NAME: the demo on the copy, capturing its frames, until it is interrupted.
startDemo() {
    rm -rf "$shaders" && cp -r "$source_shaders" "$shaders"
    : >"$out/demo.log"
    mark=0
    "$vkboids" --validation --boids 2000 --shaders "$shaders" --frames 100000 --capture "$out/$1.csv" \
        --screenshot "$out/$1.png" --report-layout >"$out/demo.log" 2>&1 &
    demo=$!
    waitForLine "shaders compiled from $shaders"
    sleep 2
}

# stopDemo NAME: Ctrl-C, and the run ends well: its screenshot and capture are written.
stopDemo() {
    kill -INT "$demo"
    local code=0
    wait "$demo" || code=$?
    demo=
    cat "$out/demo.log"
    [ "$code" -eq 0 ] || { echo "$1: exit code $code"; exit 1; }
    [ -s "$out/$1.png" ] && [ -s "$out/$1.csv" ] || { echo "$1: no screenshot or capture"; exit 1; }
}

# stepsAfterError NAME: the frames captured after the last failed edit stepped the flock: the last
# 2 seconds of the capture, whose flock pass has a time in every row.
stepsAfterError() {
    awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { t[NR] = $(col["t_ms"]); flock[NR] = $(col["gpu_flock_ms"]) }
        END {
            n = 0
            for (r = 2; r <= NR; r++) if (t[r] > t[NR] - 2000) { n++; if (flock[r] == "") bad++ }
            if (n < 5 || bad) { printf "%s: %d frames in the last 2 s, %d without a step\n", name, n, bad; exit 1 }
            printf "%s: %d frames stepped in the last 2 s\n", name, n
        }' "$out/$1.csv"
}

# How many pixels of the panel (the last reported layout) are the red of an error's text (panel.cpp:
# errorColor, antialiased over the panel's dark background; the orange of the CPU driver's note is not).
redInPanel() {
    /usr/bin/python3 - "$out/$1.png" "$out/demo.log" <<'PY'
import re, sys
import numpy as np
from PIL import Image
shot = np.asarray(Image.open(sys.argv[1]).convert("RGB")).astype(int)
layout = [line for line in open(sys.argv[2]) if line.startswith("layout: ")][-1]
x0, y0, x1, y1 = (max(0, v) for v in map(int, re.search(r"panel (-?\d+) (-?\d+) (-?\d+) (-?\d+)", layout).groups()))
panel = shot[y0:y1, x0:x1]
r, g, b = panel[..., 0], panel[..., 1], panel[..., 2]
print(int(((r > 120) & (g < 0.5 * r) & (b < 0.5 * r)).sum()))
PY
}

startDemo failed
# A syntax error in an included file: reported at its own line.
sed -i 's/    n.cohesionCount = 0.0;/    n.cohesionCount = 0.0 +;/' "$rules"
line=$(grep -n "0.0 +;" "$rules" | cut -d: -f1)
waitForLine "sim/rules.glsl: not reloaded; the last good shaders keep running:"
waitForLine "sim/rules.glsl:$line: error: "
# An interface the program cannot feed: a binding it does not bind.
restore sim/rules.glsl
waitForLine "shaders reloaded: sim/rules.glsl"
sed -i 's|^void main() {|layout(std430, binding = 7) buffer Extra { uint extra[]; };\nvoid main() {\n    extra[0] = 1u;|' \
    "$shaders/sim/grid_search_coherent.comp"
waitForLine "sim/grid_search_coherent.comp: binding 7 is new (a storage buffer)"
restore sim/grid_search_coherent.comp
waitForLine "shaders reloaded: sim/grid_search_coherent.comp"
# A file deleted (or renamed away), an include that loops, a file that is not text, a huge one.
rm "$rules"
waitForLine "no file 'rules.glsl' beside sim/"
restore sim/rules.glsl
waitForLine "shaders reloaded: sim/rules.glsl"
printf '#include "rules.glsl"\n' >"$shaders/sim/loop.glsl"
sed -i 's|^vec3 neighbourVelocity(uint j);|vec3 neighbourVelocity(uint j);\n#include "loop.glsl"|' "$rules"
waitForLine "the includes loop: "
restore sim/rules.glsl
waitForLine "shaders reloaded: sim/rules.glsl"
printf '// caf\xe9\n' >>"$rules"
waitForLine "sim/rules.glsl: not UTF-8 text (byte 0xe9"
restore sim/rules.glsl
waitForLine "shaders reloaded: sim/rules.glsl"
head -c 2000000 /dev/zero | tr '\0' '/' >>"$rules"
waitForLine "sim/rules.glsl: cannot read"
# A file caught half-written, then whole: an error, then the reload.
head -c "$(($(stat -c %s "$source_shaders/sim/rules.glsl") / 2))" "$source_shaders/sim/rules.glsl" >"$rules"
waitForLine "not reloaded; the last good shaders keep running"
restore sim/rules.glsl
waitForLine "shaders reloaded: sim/rules.glsl"
# The last failed edit stays on the panel while the flock flies on.
sed -i 's/    n.cohesionCount = 0.0;/    n.cohesionCount = 0.0 +;/' "$rules"
waitForLine "sim/rules.glsl:$line: error: "
sleep 3
stopDemo failed
stepsAfterError failed
red=$(redInPanel failed)
echo "failed edit: $red red pixels in the panel"
[ "$red" -ge 200 ] || { echo "the panel shows no error after a failed edit"; exit 1; }
[ -z "$keep" ] || cp "$out/failed.png" "$keep"
! grep -q "Validation Error" "$out/demo.log" || { echo "validation errors"; exit 1; }

# A good edit (cohesion off in the code) is swapped in; the panel shows no error.
startDemo good
sed -i 's|^    if (n.cohesionCount > 0.0) dv += n.cohesion / n.cohesionCount \* c.cohesionScale;|    // cohesion off|' "$rules"
grep -q "// cohesion off" "$rules" || { echo "the cohesion line of rules.glsl has changed: update this test"; exit 1; }
waitForLine "shaders reloaded: sim/rules.glsl"
sleep 2
stopDemo good
stepsAfterError good
red=$(redInPanel good)
echo "good edit: $red red pixels in the panel"
[ "$red" -lt 20 ] || { echo "the panel shows an error after a good edit"; exit 1; }
echo "live editing: every bad edit reported, the flock flying on; a good edit swapped in"
