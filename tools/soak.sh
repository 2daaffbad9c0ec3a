#!/usr/bin/env bash
# A memory soak of the demo. It runs the demo for MINUTES minutes in a window under Xvfb, with
# validation on, driven by an input script that cycles, pass after pass, through the modes, both cell
# shapes, both grid builds, both cell orders, every drawing path and colouring, three presets, resets
# to other boid counts, the predator (held and pinned) and window resizes.
#
# Once a second it samples two peaks over that second: the demo's resident memory (VmHWM in /proc,
# reset after each reading) and the device memory its buffers and images hold (from the demo's
# --report-memory lines). The reference period is the first minute (the first third of a run shorter
# than three minutes), extended to the end of the script's third pass, because the heap settles over
# the first passes while each configuration's pipelines are compiled.
#
# After the reference period, neither peak may rise more than 2% above its highest value in that
# period. Nor may memory keep climbing, however slowly: a fitted slope (below) judges the heap's bytes
# in use at the start of each pass of the script (from the demo's report), and, in runs of five
# minutes or more, the resident peak of each pass. The demo must also report no validation error and
# exit cleanly.
#
# The run lasts MINUTES minutes, or longer where the third pass ends late, so that at least 30 s and
# three passes are judged; it is extended by at most 5 minutes. The exit status is 0 when all of this
# holds and 1 otherwise, and a short summary is printed either way.
#
# Usage: tools/soak.sh MINUTES [VKBOIDS]    (VKBOIDS defaults to build/release/vkboids; SOAK_KEEP=DIR
# keeps the samples and the demo's log there)
set -euo pipefail
# Braces: bash reads the whole script before running it, so editing or checking out the tree during a
# long soak cannot change the script under it.
{
minutes=${1:-}
if ! [[ "$minutes" =~ ^[0-9]+$ ]] || [ "$minutes" -lt 1 ]; then
    echo "usage: tools/soak.sh MINUTES [VKBOIDS] (MINUTES a whole number, at least 1)" >&2
    exit 2
fi
vkboids=$(realpath "${2:-$(dirname "$0")/../build/release/vkboids}")
[ -x "$vkboids" ] || { echo "soak: no vkboids at $vkboids (build it first)" >&2; exit 2; }
out=$(mktemp -d)
trap '[ -n "${SOAK_KEEP:-}" ] && cp "$out/samples" "$out/log" "$SOAK_KEEP"/; kill ${runner:-} 2>/dev/null || true; rm -rf "$out"' EXIT
trap 'exit 1' INT TERM
export XDG_RUNTIME_DIR=$out
# glibc raises its mmap threshold each time a large block is freed, after which such blocks (lavapipe's
# device memory is host memory) come from the heap, whose resident size then creeps up for minutes
# without any leak (docs/PERFORMANCE.md, Reliability); held at its starting value, it stays level.
export MALLOC_MMAP_THRESHOLD_=131072
seconds=$((minutes * 60))
reference=$((minutes >= 3 ? 60 : seconds / 3))

# One pass, 172 frames. Naive mode (M at 34, until 40) runs at 2,000 boids only: a step of it takes a
# tenth of a second or more on a CPU driver.
cat >"$out/soak.txt" <<'EOF'
2 move 0.6 0.5
4 set draw compute
10 set color cell
16 set cell-width 2r
22 set build counting
28 set order morton
34 key M
40 key M
46 set draw points
52 set color order
58 set window 1024x640
64 drag right 0.6 0.5 0.7 0.6 8
76 key P
82 set preset calm murmuration
88 set boids 3000
94 key M
100 set draw glyphs
106 set color speed
112 set cell-width r
118 set build radix
124 set order linear
130 set preset tight schools
136 key P
142 set window 800x600
148 set boids 2000
154 set preset lab defaults
160 set draw auto
166 set color heading
172 loop
EOF

xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
    openbox >/dev/null 2>&1 &
    sleep 1
    "$@" &
    echo $! >"$0/pid"
    wait $!
    echo $? >"$0/status"' "$out" "$vkboids" --validation --boids 2000 --window 800x600 \
    --input-script "$out/soak.txt" --report-memory >"$out/log" 2>&1 &
runner=$!
for _ in $(seq 300); do [ -s "$out/pid" ] && break; sleep 0.1; done
[ -s "$out/pid" ] || { echo "soak: the demo did not start"; cat "$out/log"; exit 1; }
pid=$(cat "$out/pid")

# Samples: second, resident KiB, device bytes (each the peak over the second), the script's pass.
touch "$out/samples"
# From the first frame on: the set-up's peaks are not the run's.
for _ in $(seq 600); do grep -q '^memory:' "$out/log" && break; sleep 0.1; done
echo 5 >"/proc/$pid/clear_refs" 2>/dev/null || true
start=$(date +%s)
passEnd=""
while :; do
    sleep 1
    now=$(($(date +%s) - start))
    # The peaks over the last second, not a value at one moment: settings change several times a
    # second. VmHWM is the resident peak since it was last reset (5 to clear_refs resets it).
    rss=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$rss" ] || break # the demo is gone
    echo 5 >"/proc/$pid/clear_refs" 2>/dev/null || true
    device=$(sed -n 's/^memory: .*at most \([0-9]*\) since.*/\1/p' "$out/log" | tail -n 1)
    pass=$(sed -n 's/^input script: pass \([0-9]*\) begins.*/\1/p' "$out/log" | tail -n 1)
    [ -z "$passEnd" ] && [ "${pass:-1}" -ge 4 ] && passEnd=$now
    [ -n "$device" ] && echo "$now $rss $device ${pass:-1}" >>"$out/samples"
    # MINUTES, and on a slow or loaded machine longer: until 30 s after the third pass and the start of
    # the seventh (three passes after the reference period to judge the heap by), at most 5 min more.
    [ "$now" -ge "$seconds" ] && [ -n "$passEnd" ] && [ "$now" -ge $((passEnd + 30)) ] && [ "${pass:-1}" -ge 7 ] && break
    [ "$now" -ge $((seconds + 300)) ] && break
done
kill -TERM "$pid" 2>/dev/null || true
# The demo's own exit status, not xvfb-run's (whose clean-up can fail on its own).
wait "$runner" || true
status=$(cat "$out/status" 2>/dev/null || echo "unknown")
[[ "$status" =~ ^[0-9]+$ ]] || status=255

errors=$(grep -c '^validation error' "$out/log" || true)
frames=$(sed -n 's/^\([0-9]*\) frames rendered.*/\1/p' "$out/log")
[ -n "$passEnd" ] && [ "$passEnd" -gt "$reference" ] && reference=$passEnd
python3 - "$out/samples" "$reference" "$seconds" "$status" "$errors" "${frames:-0}" "${passEnd:-}" "$out/log" <<'PY' ||
import sys
path, reference, seconds, status, errors, frames, pass_end, log = sys.argv[1:9]
reference, seconds, status, errors = int(reference), int(seconds), int(status), int(errors)
samples = [tuple(int(v) for v in line.split()) for line in open(path)] if path else []
import re
pass_heaps = [(int(m.group(1)), int(m.group(2))) for m in
              re.finditer(r"^input script: pass (\d+) begins at frame \d+, heap (-?\d+) bytes", open(log).read(), re.M)]
before = [s for s in samples if s[0] <= reference]
after = [s for s in samples if s[0] > reference]
passes = max((s[3] for s in samples), default=1)
mib = lambda b: b / 2**20
problems = []
if status != 0:
    problems.append(f"the demo exited with status {status}")
if errors:
    problems.append(f"{errors} validation errors")
if not pass_end:
    problems.append("the script's third pass never finished")
if samples and samples[-1][0] < seconds - 5:
    problems.append(f"the demo stopped after {samples[-1][0]} s of {seconds}")
if len(after) < 5:
    problems.append(f"{len(after)} samples after the {reference} s reference period: too few to judge")
print(f"soak: {seconds // 60} min, {frames} frames (a step each), {passes} passes of the script, "
      f"{errors} validation errors")
if before and after:
    for name, column, scale, unit in (("resident", 1, 1024, "MiB"), ("device", 2, 1, "MiB")):
        peak = max(s[column] for s in before)
        lo, hi = min(s[column] for s in after), max(s[column] for s in after)
        print(f"  {name}: after the first {reference} s {mib(lo * scale):.1f} to {mib(hi * scale):.1f} {unit}, "
              f"peak of the first {reference} s {mib(peak * scale):.1f} ({100 * (hi / peak - 1):+.2f}%)")
        if hi > peak * 1.02:
            problems.append(f"{name} memory rose {100 * (hi / peak - 1):.2f}% above its reference peak")
# Memory that keeps rising after the reference period, however slowly. The heap in use is exact: at
# the start of each pass of the script (the same point of the same settings each time) it may not
# climb, by the slope fitted over the passes after the reference period, more than 12 KiB a pass, or
# 2 KiB over a hundred passes or more. A run that keeps nothing still settles by a few KiB a pass over
# its first ten passes or so (containers growing to the largest size the script asks of them), and
# by 0.1 KiB a pass over 160; one that kept a command buffer's records in the validation layer for
# each one-off submission climbed 25 to 50 KiB a pass from the start. The
# resident size is noisier (the allocator returns pages when it chooses): the peaks of each pass,
# fitted over at least five minutes, may not climb more than 0.1 MiB a minute.
# Theil-Sen: the median of the slopes between every two points, which a few passes that caught a
# transient allocation cannot tilt as they tilt a least-squares line.
def slope(points):
    points = points[:: max(1, len(points) // 300)]  # at most about 45,000 pairs, however long the run
    slopes = sorted((b[1] - a[1]) / (b[0] - a[0]) for i, a in enumerate(points) for b in points[i + 1:]
                    if b[0] != a[0])
    return slopes[len(slopes) // 2] if slopes else 0.0
first_judged = max((s[3] for s in before), default=1) + 1
starts = [(p, h) for p, h in pass_heaps if p >= first_judged and h >= 0]
if len(starts) >= 3:
    heap = slope(starts)
    print(f"  heap in use: {heap / 1024:+.2f} KiB a pass, at the start of passes {starts[0][0]} to {starts[-1][0]}")
    # Past a hundred passes the settling is over: a climb of one one-off's record a pass shows.
    limit = 2 if len(starts) >= 100 else 12
    if heap > limit * 1024:
        problems.append(f"the heap in use climbs {heap / 1024:.1f} KiB a pass (at most {limit})")
elif pass_heaps and all(h < 0 for _, h in pass_heaps):
    print("  heap in use: not judged (this C library does not report it)")
else:
    problems.append("fewer than three passes of the script after the reference period: the heap cannot be judged")
by_pass = {p: [s for s in after if s[3] == p] for p in range(first_judged, passes)}  # the last is not over
by_pass = {p: v for p, v in by_pass.items() if v}
span = (after[-1][0] - after[0][0]) if after else 0
if span >= 300 and len(by_pass) >= 3:
    rss = slope([(sum(s[0] for s in v) / len(v) / 60, mib(max(s[1] for s in v) * 1024)) for v in by_pass.values()])
    print(f"  resident: {rss:+.3f} MiB a minute, fitted to each pass's peak over {span // 60} min")
    if rss > 0.1:
        problems.append(f"resident memory climbs {rss:.2f} MiB a minute")
else:
    print(f"  resident slope: not judged ({span} s after the reference period, 300 needed)")
for p in problems:
    print("  FAIL:", p)
print("soak:", "FAIL" if problems else "ok")
sys.exit(1 if problems else 0)
PY
    { tail -n 20 "$out/log"; exit 1; }
exit
}
