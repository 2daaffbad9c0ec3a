#!/usr/bin/env bash
# tools/gpu-bench.sh OUT [BASE]: the runs behind docs/PERFORMANCE.md, on a machine with a Vulkan GPU:
#
#   cmake --preset release && cmake --build --preset release
#   bash tools/gpu-bench.sh results
#
# It writes these files:
#   OUT/log.txt          every table
#   OUT/steps.csv        simulation steps, with each configuration's candidates and neighbours per boid
#   OUT/rows.csv         each row height, on the lab's sizes
#   OUT/frames.csv       whole frames, on every drawing path
#   OUT/sort.csv         both radix sorts
#   OUT/cub.csv          CUB's sort on the same GPU, built from tools/cub_sort_bench.cu where nvcc is found
#   OUT/techniques.csv   cell orders and grid builds
# With BASE, the path of an earlier build's vkboids, the rows the project follows are also timed for
# both builds, twice and in opposite orders, into OUT/ab.txt.
# SECTIONS (by default all of "steps rows frames sort techniques ab") runs only some parts, for
# example to fit a time limit. VKBOIDS (by default build/release/vkboids) is the command that runs
# vkboids.
set -uo pipefail
out=$1
base=${2:-}
mkdir -p "$out"
sections=${SECTIONS:-steps rows frames sort techniques ab}
has() { [[ " $sections " == *" $1 "* ]]; }
vkboids=${VKBOIDS:-build/release/vkboids}
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
step $vkboids --version
step $vkboids --list-devices

# Simulation steps: the CUDA lab's sizes (L = 100), and 16M boids at 1M's density.
if has steps; then
step $vkboids bench --mode naive,scattered,coherent --boids 1e5,1e6 --cell-width r,2r --naive-max 1e5 \
    --count-candidates --csv "$out/steps-small.csv"
step $vkboids bench --mode scattered,coherent --boids 5.12e6,10.24e6 --cell-width r,2r --frames 100 \
    --warmup 20 --count-candidates --csv "$out/steps-large.csv"
step $vkboids bench --mode coherent --boids 16e6 --density 0.125 --cell-width r --frames 100 --warmup 20 \
    --count-candidates --csv "$out/steps-dense.csv"
csv_join "$out/steps.csv" "$out"/steps-small.csv "$out"/steps-large.csv "$out"/steps-dense.csv
rm -f "$out"/steps-small.csv "$out"/steps-large.csv "$out"/steps-dense.csv
fi

# Each row height (and whole cells) on the lab's densities: time against candidates.
if has rows; then
parts=()
for rows in cells full half quarter; do
    step $vkboids bench --mode scattered,coherent --boids 1e6 --cell-width r,2r --rows $rows --frames 100 \
        --warmup 20 --count-candidates --csv "$out/rows-1m-$rows.csv"
    step $vkboids bench --mode coherent --boids 10.24e6 --cell-width r --rows $rows --frames 40 --warmup 10 \
        --count-candidates --csv "$out/rows-10m-$rows.csv"
    parts+=("$out/rows-1m-$rows.csv" "$out/rows-10m-$rows.csv")
done
csv_join "$out/rows.csv" "${parts[@]}"
rm -f "${parts[@]}"
fi

# Whole frames (1280x800 offscreen), every drawing path; glyphs only where auto would draw them.
if has frames; then
step $vkboids bench --mode coherent --boids 5000,20000,100000 --cell-width r --render \
    --draw glyphs,compute,points --csv "$out/frames-small.csv"
step $vkboids bench --mode coherent --boids 1e6 --cell-width r --render --draw compute,points \
    --csv "$out/frames-lab.csv"
step $vkboids bench --mode coherent --boids 16e6,64e6 --density 0.125 --cell-width r --render \
    --draw compute,points --frames 60 --warmup 20 --csv "$out/frames-dense.csv"
csv_join "$out/frames.csv" "$out"/frames-small.csv "$out"/frames-lab.csv "$out"/frames-dense.csv
rm -f "$out"/frames-small.csv "$out"/frames-lab.csv "$out"/frames-dense.csv
fi

# Both radix sorts, and CUB's on the same GPU where the CUDA toolkit is installed.
if has sort; then
    step $vkboids sort-bench --algorithm onesweep,reduce-then-scan --n 1e6,4e6,16e6,64e6 --bits 21,32 \
        --csv "$out/sort.csv"
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    if [ -x "$nvcc" ]; then
        cub=$(mktemp -d)
        step "$nvcc" -O3 -arch=native -o "$cub/cub_sort_bench" "$(dirname "$0")/cub_sort_bench.cu" &&
            "$cub/cub_sort_bench" 1e6,4e6,16e6,64e6 21,32 | tee -a "$log" >"$out/cub.csv" ||
            say "CUB's sort bench failed: cub.csv is incomplete"
        rm -rf "$cub"
    else
        say "no nvcc: CUB's sort not timed"
    fi
fi

# The cell orders and grid builds, each against the defaults, per pass.
if has techniques; then
    step $vkboids bench --mode scattered,coherent --boids 1e6,10.24e6 --cell-width r,2r \
        --cell-order linear,morton --grid-build radix,counting --frames 50 --warmup 10 \
        --csv "$out/techniques.csv"
fi

if [ -n "$base" ] && has ab; then
    for round in 1 2; do
        builds=("$base" "$vkboids")
        [ $round = 2 ] && builds=("$vkboids" "$base")
        for build in "${builds[@]}"; do
            {
                echo "== round $round, $build: $($build --version)"
                # --cells, the old name of --cell-width, which older builds know only by it.
                $build bench --mode coherent,scattered --boids 1e6 --cells 27,8 --frames 100 --warmup 20
                $build bench --mode coherent --boids 10.24e6 --cells 27 --frames 100 --warmup 20
                $build bench --mode naive --boids 1e5 --frames 100 --warmup 20
                $build bench --mode coherent --boids 16e6,64e6 --density 0.125 --cells 27 --render --draw compute \
                    --frames 40 --warmup 10
            } 2>&1 | grep -E "^(==|coherent |scattered |naive )" | awk '!seen[$0]++' | tee -a "$out/ab.txt"
        done
    done
fi
