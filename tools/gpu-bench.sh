#!/usr/bin/env bash
# tools/gpu-bench.sh OUT [BASE]: the runs behind docs/PERFORMANCE.md, on the lent GPU machine (see
# ../shared/GPU.md), from the checkout with the bundle in .gpu/:
#
#   ../shared/tools/gpu-bundle.sh .gpu build/release/vkboids build/release/tests/gpu_tests
#   device run, carry [".gpu"]:  bash tools/gpu-bench.sh $OUT
#
# Writes OUT/log.txt (every table), OUT/steps.csv (simulation steps), OUT/frames.csv (whole frames,
# every drawing path), OUT/sort.csv (both radix sorts) and OUT/techniques.csv (cell orders and grid
# builds). With BASE, the name of an earlier build bundled as .gpu/bin/BASE, the step rows the issue
# tracker follows are also timed for both builds, twice in opposite orders, into OUT/ab.txt.
# SECTIONS (default: all of "steps frames sort techniques ab") runs a part, e.g. to fit a time limit.
set -uo pipefail
out=$1
base=${2:-}
sections=${SECTIONS:-steps frames sort techniques ab}
has() { [[ " $sections " == *" $1 "* ]]; }
run=.gpu/run
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
log=$out/log.txt
say() { echo "=== $*" | tee -a "$log"; }
step() { say "$*"; "$@" 2>&1 | tee -a "$log"; }
# csv_join OUT IN...: the rows of several CSV files under one header.
csv_join() {
    local target=$1
    shift
    head -n 1 "$1" >"$target"
    for f in "$@"; do tail -n +2 "$f" >>"$target"; done
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee -a "$log"
step $run vkboids --version
step $run vkboids --list-devices

# Simulation steps: the CUDA lab's sizes (L = 100), and 16M boids at 1M's density.
if has steps; then
step $run vkboids bench --modes naive,scattered,coherent --boids 1e5,1e6 --cells 8,27 --naive-max 1e5 \
    --csv "$out/steps-small.csv"
step $run vkboids bench --modes scattered,coherent --boids 5.12e6,10.24e6 --cells 8,27 --frames 100 \
    --warmup 20 --csv "$out/steps-large.csv"
step $run vkboids bench --modes coherent --boids 16e6 --density 0.125 --cells 27 --frames 100 --warmup 20 \
    --csv "$out/steps-dense.csv"
csv_join "$out/steps.csv" "$out"/steps-small.csv "$out"/steps-large.csv "$out"/steps-dense.csv
rm -f "$out"/steps-small.csv "$out"/steps-large.csv "$out"/steps-dense.csv
fi

# Whole frames (1280x800 offscreen), every drawing path; glyphs only where auto would draw them.
if has frames; then
step $run vkboids bench --modes coherent --boids 5000,20000,100000 --cells 27 --render \
    --draw glyphs,compute,points --csv "$out/frames-small.csv"
step $run vkboids bench --modes coherent --boids 1e6 --cells 27 --render --draw compute,points \
    --csv "$out/frames-lab.csv"
step $run vkboids bench --modes coherent --boids 16e6,64e6 --density 0.125 --cells 27 --render \
    --draw compute,points --frames 60 --warmup 20 --csv "$out/frames-dense.csv"
csv_join "$out/frames.csv" "$out"/frames-small.csv "$out"/frames-lab.csv "$out"/frames-dense.csv
rm -f "$out"/frames-small.csv "$out"/frames-lab.csv "$out"/frames-dense.csv
fi

# Both radix sorts against CUB's table in GPU.md.
if has sort; then
    step $run vkboids sort-bench --algorithm onesweep,reduce-then-scan --n 1e6,4e6,16e6,64e6 --bits 21,32 \
        --csv "$out/sort.csv"
fi

# The cell orders and grid builds, each against the defaults, per pass.
if has techniques; then
    step $run vkboids bench --modes scattered,coherent --boids 1e6,10.24e6 --cells 8,27 \
        --cell-order linear,morton --grid-build radix,counting --frames 100 --warmup 20 \
        --csv "$out/techniques.csv"
fi

if [ -n "$base" ] && has ab; then
    for round in 1 2; do
        builds="$base vkboids"
        [ $round = 2 ] && builds="vkboids $base"
        for build in $builds; do
            {
                echo "== round $round, $build: $($run "$build" --version)"
                $run "$build" bench --modes coherent,scattered --boids 1e6 --cells 8,27 --frames 100 --warmup 20
                $run "$build" bench --modes coherent --boids 10.24e6 --cells 27 --frames 100 --warmup 20
                $run "$build" bench --modes coherent --boids 16e6 --domain-half 252 --cells 27 --frames 100 \
                    --warmup 20
            } 2>&1 | grep -E "^(==|coherent |scattered )" | awk '!seen[$0]++' | tee -a "$out/ab.txt"
        done
    done
fi
