#!/usr/bin/env bash
# tools/gpu-bench.sh OUT [PLAN]: runs on the lent GPU machine, in the checkout, with the bundle in
# .gpu/ (../shared/GPU.md; validation layer in .gpu/layers). Writes a log and result files to OUT.
# PLAN: "all" (default) runs the correctness tests on the GPU, then every benchmark of
# docs/BENCHMARKS.md; "sort", "sim" and "naive" run one part; "check" runs the GPU tests, the naive
# variants and a short sort and coherent check; "stats" prints the driver's statistics of every
# compute pipeline; "phases" runs every GPU test, then times each phase of the sort's tiles with the device clock; "lookback" compares look-back windows;
# "walk" measures look-back walks and tile shapes' residency; "shapes" compares tile shapes;
# "flock" times the grid steps against vkboids-base; "early" times the sort against vkboids-base;
# "variant" times the grid steps of each .gpu/bin/vkboids-variant* against vkboids-base; "subwalk"
# times the grid steps against vkboids-base and vkboids-variant3, and with sub-cells on and off; "grid"
# runs every GPU test, then times the grid steps against vkboids-base; "builds" times the grid steps
# of every .gpu/bin/vkboids* build; "slices" runs every GPU test, then times the grid steps with
# whole cells, x slices and octants (--subcells off, slices, octants) in two rounds; "quarters"
# runs every GPU test, then times quarter rows against slices and octants the same way; "qrows" runs every GPU test, then times quarters in every .gpu/bin/vkboids* build
# against slices, twice, counterbalanced; "qauto" times slices against quarters where Auto's
# thresholds lie, and every build's quarters at 1M and 2M, in two rounds; "srows" runs every GPU test,
# then times every build's slices, twice, counterbalanced; "keys" runs every GPU test and times vkboids against
# vkboids-base in two rounds; "tiles" times the sort's 1,024-wide tile shapes; "sizes" times 1,024 x 8
# against 1,024 x 9 from 1M to 16M pairs; "sorts" runs every GPU test, then times the sort and the
# grid steps (1e5 and 1e6) of every .gpu/bin/vkboids* build, twice, counterbalanced; "snapshot" runs every
# GPU test, then times the sort (windows 4, 8, 16, and tile phases) and the grid steps against
# vkboids-base; "compare" does the same without the windows; these six, and "sortab", "probe" and
# "head" below, sample nvidia-smi. The device tool returns at most 8 files from OUT, so plans that
# time many builds keep CSVs of one round only: the log holds every median. Where the bundle also holds an
# earlier build as .gpu/bin/vkboids-base, "all" first times it on a subset, so that versions are
# compared within one run. "sortab" runs every GPU test, then times the sort of vkboids against
# vkboids-base in two rounds (1M to 64M), then both builds' tile phases and coherent grid steps, and
# vkboids with look-back windows 8 and 16; it samples nvidia-smi too. "head" runs every GPU test,
# then the sort table (1M to 64M, 21 and 32 bits) and the target rows (grid steps at 1M and 10.24M,
# naive at 100k), sampling nvidia-smi. "probe" runs every GPU test, vkboids-probe (load and publish latencies),
# then the sort with tiles of 1,024 x 8, 9 and 10 in two rounds, sampling nvidia-smi. "groups" runs every
# GPU test, then the sort with 1,024 x 8 tiles against 512 x 8 and 256 x 8 (groups that may share an
# SM) in two rounds, the first with registers and tile phases, then coherent 1M with slices and quarter
# rows (27 cells) with the driver's statistics, sampling nvidia-smi. "half" runs every GPU test, then
# in two rounds the sort with 1,024 x 8 and 512 x 8 tiles from 2M to 12M, the default sort, and the
# coherent 10.24M step of vkboids and vkboids-base, sampling nvidia-smi. "sixteenths" runs every GPU
# test, then the 8-cell grid steps from 1M to 10.24M of every .gpu/bin/vkboids* build, two rounds.
# "xslices" runs every GPU test, then in two rounds vkboids-base against vkboids with the default and
# --x-slices 16 and 32, and scattered 8-cell rows with VKBOIDS_SLICES_PUSH (run 101). "xslices2" runs
# every GPU test with VKBOIDS_SLICES_PUSH, then 8-cell steps in 16 and 32 slices, two rounds (run 102).
set -uo pipefail
out=$1
plan=${2:-all}
run=.gpu/run
export VK_LAYER_PATH=$PWD/.gpu/layers
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
log=$out/log.txt
say() { echo "=== $*" | tee -a "$log"; }
step() { say "$*"; "$@" 2>&1 | tee -a "$log"; echo "exit code ${PIPESTATUS[0]}" | tee -a "$log"; }
# grid_round BUILD ROUND: one build's grid steps, both modes, 1M to 10.24M, 8 and 27 cells; a CSV in
# round 1 only (the log has every median).
grid_round() {
    local build=$1 csv=()
    say "build $build: $($run $build --version)"
    [ "$2" = 1 ] && csv=(--csv "$out/bench-$build.csv")
    step $run $build bench --modes coherent,scattered --boids 1e6,5.12e6,10.24e6 --cells 8,27 --frames 50 \
        --warmup 10 "${csv[@]}"
}
# order_rounds ORDERS BOIDS FRAMES: the grid steps with each --subcells order in ORDERS, then again in
# reverse, both modes and shapes; CSVs in round 1 only.
order_rounds() {
    local orders=($1) round sub csv
    for round in 1 2; do
        [ $round = 2 ] && orders=($(printf '%s\n' "${orders[@]}" | tac))
        for sub in "${orders[@]}"; do
            csv=()
            [ $round = 1 ] && csv=(--csv "$out/bench-$sub.csv")
            step $run vkboids bench --modes coherent,scattered --boids $2 --cells 8,27 --frames $3 --warmup 10 \
                --subcells $sub "${csv[@]}"
        done
    done
}

# sample_clocks: the GPU's clocks, power and throttle reasons every 250 ms into OUT/smi.csv, in the
# background (pid in smi_pid): its clock rises from idle only over seconds (BENCHMARKS run 63).
sample_clocks() {
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
        --format=csv -lms 250 > "$out/smi.csv" 2>&1 &
    smi_pid=$!
}

# two_rounds PREFIX BUILD... -- ARGS...: each build runs ARGS twice, in opposite orders (counterbalanced),
# with a CSV ($out/PREFIX-BUILD.csv) in round 1 only.
two_rounds() {
    local prefix=$1 builds=() i build order csv
    shift
    while [ "$1" != -- ]; do builds+=("$1"); shift; done
    shift
    for i in 1 2; do
        order=("${builds[@]}"); [ $i = 2 ] && order=($(printf '%s\n' "${builds[@]}" | tac))
        for build in "${order[@]}"; do
            csv=(); [ $i = 1 ] && csv=(--csv "$out/$prefix-$build.csv")
            say "build $build: $($run $build --version)"
            step $run $build "$@" "${csv[@]}"
        done
    done
}

# shape_rounds SIZES K...: the sort (21-bit keys) at SIZES with 1,024-wide groups of each K keys an
# invocation, twice, in opposite orders (counterbalanced), with a CSV in round 1 only.
shape_rounds() {
    local sizes=$1 ks i k csv
    shift
    for i in 1 2; do
        ks=("$@"); [ $i = 2 ] && ks=($(printf '%s\n' "$@" | tac))
        for k in "${ks[@]}"; do
            csv=(); [ $i = 1 ] && csv=(--csv "$out/sort-1024x$k.csv")
            step $run vkboids sort-bench --n $sizes --bits 21 --runs 30 --workgroup 1024 --keys-per-thread $k \
                "${csv[@]}"
        done
    done
}

say "$(date -u) plan $plan, binary $($run vkboids --version 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv 2>&1 | tee -a "$log"
step $run vkboids --list-devices
if [ "$plan" = all ] || [ "$plan" = check ]; then
    step $run gpu_tests --gtest_brief=1
fi
if [ "$plan" = all ] && [ -x .gpu/bin/vkboids-base ]; then
    say "baseline build for comparison: $($run vkboids-base --version)"
    step $run vkboids-base step --boids 100000 --steps 30 --mode naive
    step $run vkboids-base sort-bench --n 1e6,64e6 --bits 21 --runs 30 --portable  # ballots in that build
    step $run vkboids-base bench --modes coherent --boids 1e6,10.24e6 --cells 27 --frames 50 --warmup 10
fi
if [ "$plan" = all ] || [ "$plan" = naive ] || [ "$plan" = check ]; then
    step $run vkboids step --boids 100000 --steps 100 --mode naive
    step $run vkboids step --boids 100000 --steps 100 --mode naive --float32-filter
    step $run vkboids step --boids 100000 --steps 100 --mode naive --naive-boids 4
fi
if [ "$plan" = all ] || [ "$plan" = sort ]; then
    step $run vkboids sort-bench --n 1e6,4e6,16e6,64e6 --bits 21,32 --runs 50 --csv "$out/sort.csv"
    step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 50 --partition-nv --csv "$out/sort-partition.csv"
    # Tile shapes (work-group size x keys per invocation) and a one-tile look-back, against the defaults.
    for shape in 256x15 512x8; do
        step $run vkboids sort-bench --n 1e6,64e6 --bits 21 --runs 30 --workgroup ${shape%x*} --keys-per-thread ${shape#*x}
    done
    step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30 --lookback-window 1
fi
if [ "$plan" = all ] || [ "$plan" = sim ]; then
    step $run vkboids bench --modes naive,scattered,coherent --boids 1e5,1e6,5.12e6,10.24e6 --cells 8,27 \
        --frames 100 --warmup 20 --naive-max 1e6 --csv "$out/bench.csv" --json "$out/bench.json"
    step $run vkboids bench --modes coherent --boids 1e6 --cells 27 --frames 100 --warmup 20 --render \
        --csv "$out/bench-render.csv"
fi
if [ "$plan" = stats ]; then  # what the driver says of each compiled pass (registers, shared memory)
    step $run vkboids sort-bench --pipeline-stats --n 1e6 --bits 21 --runs 20
    step $run vkboids sort-bench --pipeline-stats --n 1e6 --bits 21 --runs 20 --workgroup 256 --keys-per-thread 15
    step $run vkboids bench --pipeline-stats --modes naive,scattered,coherent --boids 1e5 --cells 8,27 --frames 20 --warmup 5
fi
if [ "$plan" = subcells ]; then  # sub-cells against none, and the previous build, in one run
    step $run gpu_tests --gtest_brief=1
    [ -x .gpu/bin/vkboids-base ] && step $run vkboids-base bench --modes coherent --boids 1e6,10.24e6 --cells 27 \
        --frames 50 --warmup 10
    for sub in off auto; do
        step $run vkboids bench --modes coherent,scattered --boids 1e6,5.12e6,10.24e6 --cells 8,27 --frames 50 \
            --warmup 10 --subcells $sub --csv "$out/bench-$sub.csv" --json "$out/bench-$sub.json"
    done
    step $run vkboids bench --modes coherent --boids 1e6 --cells 27 --frames 50 --warmup 10 --subcells on
fi
if [ "$plan" = phases ]; then  # every GPU test, then where a tile's lifetime goes, per pass (device clock stamps)
    step $run gpu_tests --gtest_brief=1
    step $run vkboids sort-bench --n 1e6,4e6,16e6,64e6 --bits 21 --runs 20 --phase-times
fi
if [ "$plan" = lookback ]; then  # look-back windows, against the previous build in the same run
    step $run gpu_tests --gtest_brief=1 --gtest_filter='SortTest.*'
    [ -x .gpu/bin/vkboids-base ] && step $run vkboids-base sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30
    for window in 1 4 8 16; do
        step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30 --lookback-window $window \
            --csv "$out/sort-window$window.csv"
    done
    step $run vkboids sort-bench --n 1e6,16e6 --bits 21 --runs 20 --phase-times --lookback-window 4
    step $run vkboids sort-bench --n 1e6,16e6 --bits 21 --runs 20 --phase-times --lookback-window 16
    step $run vkboids sort-bench --pipeline-stats --n 1e6 --bits 21 --runs 20 --lookback-window 16
fi
if [ "$plan" = walk ]; then  # how far look-backs walk, and how many groups of each tile shape fit an SM
    for window in 1 4 16; do
        step $run vkboids sort-bench --n 1e6,16e6 --bits 21 --runs 20 --phase-times --lookback-window $window
    done
    for shape in 512x8 512x5 512x3 256x11 256x8 256x5 128x15 128x8; do
        step $run vkboids sort-bench --pipeline-stats --n 16e6 --bits 21 --runs 20 --phase-times \
            --workgroup ${shape%x*} --keys-per-thread ${shape#*x}
    done
fi
if [ "$plan" = shapes ]; then  # tile shapes once counters and tile share shared memory, against the previous build
    step $run gpu_tests --gtest_brief=1 --gtest_filter='SortTest.*'
    [ -x .gpu/bin/vkboids-base ] && step $run vkboids-base sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30
    step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30 --csv "$out/sort-default.csv"
    for shape in 512x11 512x13 256x11 256x15; do
        step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30 --workgroup ${shape%x*} \
            --keys-per-thread ${shape#*x} --csv "$out/sort-$shape.csv"
    done
    for shape in 512x15 256x15; do
        step $run vkboids sort-bench --pipeline-stats --n 1e6,16e6 --bits 21 --runs 20 --phase-times \
            --workgroup ${shape%x*} --keys-per-thread ${shape#*x}
    done
fi
if [ "$plan" = publish ]; then  # each digit's prefix published as its walk ends, against the previous build
    step $run gpu_tests --gtest_brief=1 --gtest_filter='SortTest.*'
    for i in 1 2; do
        [ -x .gpu/bin/vkboids-base ] && step $run vkboids-base sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30
        step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30 --csv "$out/sort-$i.csv"
    done
    step $run vkboids sort-bench --n 1e6,16e6 --bits 21 --runs 20 --phase-times
fi
if [ "$plan" = flock ]; then  # grid steps against the previous build, twice, interleaved
    step $run gpu_tests --gtest_brief=1 --gtest_filter='Sim*:Grid*'
    for i in 1 2; do
        [ -x .gpu/bin/vkboids-base ] && step $run vkboids-base bench --modes coherent,scattered \
            --boids 1e6,10.24e6 --cells 8,27 --frames 50 --warmup 10
        step $run vkboids bench --modes coherent,scattered --boids 1e6,10.24e6 --cells 8,27 --frames 50 \
            --warmup 10 --csv "$out/bench-$i.csv"
    done
    step $run vkboids bench --pipeline-stats --modes coherent,scattered --boids 1e5 --cells 8,27 --frames 20 --warmup 5
fi
if [ "$plan" = early ]; then  # the sort against vkboids-base, twice, interleaved (run 25: early counts, reverted)
    step $run gpu_tests --gtest_brief=1 --gtest_filter='SortTest.*'
    for i in 1 2; do
        [ -x .gpu/bin/vkboids-base ] && step $run vkboids-base sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30
        step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30 --csv "$out/sort-$i.csv"
    done
    step $run vkboids sort-bench --pipeline-stats --n 1e6,16e6 --bits 21 --runs 20 --phase-times
fi
if [ "$plan" = variant ]; then  # flock builds .gpu/bin/vkboids-variant* against vkboids-base, twice, interleaved
    for i in 1 2; do
        for build in vkboids-base $(cd .gpu/bin && ls -d vkboids-variant*); do
            say "build $build: $($run $build --version)"
            csv=(); [ $i = 1 ] && csv=(--csv "$out/bench-$build.csv")  # the log has every median
            step $run $build bench --modes coherent,scattered --boids 1e6,10.24e6 --cells 27 --frames 50 \
                --warmup 10 "${csv[@]}"
        done
    done
    for build in $(cd .gpu/bin && ls -d vkboids-variant*); do
        step $run $build bench --pipeline-stats --modes coherent,scattered --boids 1e5 --cells 27 --frames 20 --warmup 5
    done
fi
if [ "$plan" = subwalk ]; then  # straddling subgroups walking sub-cells, against vkboids-base and vkboids-variant3
    step $run gpu_tests --gtest_brief=1
    for i in 1 2; do
        for build in vkboids-base vkboids-variant3 vkboids; do grid_round $build $i; done
    done
    for build in vkboids-base vkboids; do
        for sub in on off; do
            step $run $build bench --modes coherent,scattered --boids 1e6 --cells 8,27 --frames 50 --warmup 10 \
                --subcells $sub
        done
    done
    step $run vkboids bench --pipeline-stats --modes coherent,scattered --boids 1e5 --cells 27 --frames 20 --warmup 5
fi
if [ "$plan" = grid ]; then  # every GPU test, then the grid steps against vkboids-base, twice, interleaved
    step $run gpu_tests --gtest_brief=1
    for i in 1 2; do
        for build in vkboids-base vkboids; do grid_round $build $i; done
    done
    step $run vkboids bench --pipeline-stats --modes coherent,scattered --boids 1e5 --cells 8,27 --frames 20 --warmup 5
fi
if [ "$plan" = builds ]; then  # the grid tests, then every .gpu/bin/vkboids* build's grid steps, twice, interleaved
    step $run gpu_tests --gtest_brief=1 --gtest_filter='Sim*:Grid*'
    builds=(); for b in .gpu/bin/vkboids*; do [ -x "$b" ] && builds+=("${b##*/}"); done
    for i in 1 2; do
        order=("${builds[@]}"); [ $i = 2 ] && order=($(printf '%s\n' "${builds[@]}" | tac))  # counterbalanced
        for build in "${order[@]}"; do grid_round $build $i; done
    done
    for build in "${builds[@]}"; do
        step $run $build bench --pipeline-stats --modes coherent --boids 1e5 --cells 27 --frames 20 --warmup 5
    done
fi
if [ "$plan" = sortab ]; then  # every GPU test, then the sort of vkboids against vkboids-base, twice, tile phases and grid steps
    sample_clocks
    step $run gpu_tests --gtest_brief=1
    two_rounds sort vkboids-base vkboids -- sort-bench --n 1e6,4e6,16e6,64e6 --bits 21 --runs 30
    for build in vkboids-base vkboids; do
        step $run $build sort-bench --pipeline-stats --n 1e6,16e6 --bits 21 --runs 20 --phase-times
        step $run $build bench --modes coherent --boids 1e6,10.24e6 --cells 27 --frames 50 --warmup 10
    done
    for window in 8 16; do
        step $run vkboids sort-bench --n 1e6,4e6,16e6,64e6 --bits 21 --runs 30 --lookback-window $window
    done
    kill $smi_pid
fi
if [ "$plan" = probe ]; then  # every GPU test, the latency probe, then 1,024 x 8, 9 and 10 tiles, twice
    sample_clocks
    step $run gpu_tests --gtest_brief=1
    [ -x .gpu/bin/vkboids-probe ] || say "vkboids-probe is not in the bundle: gpu-bundle.sh it with the others"
    step $run vkboids-probe
    shape_rounds 1e6,2e6,4e6,16e6,64e6 8 9 10
    step $run vkboids sort-bench --pipeline-stats --n 1e6,16e6 --bits 21 --runs 20 --phase-times --workgroup 1024 \
        --keys-per-thread 10
    kill $smi_pid
fi
if [ "$plan" = groups ]; then  # every GPU test; tiles of 1,024 x 8 against smaller groups that may share an SM
    sample_clocks
    step $run gpu_tests --gtest_brief=1
    shapes=("1024 8 4" "512 8 4" "512 8 8" "256 8 8")
    for i in 1 2; do
        order=("${shapes[@]}"); [ $i = 2 ] && order=("${shapes[3]}" "${shapes[2]}" "${shapes[1]}" "${shapes[0]}")
        for s in "${order[@]}"; do
            read -r w k l <<<"$s"
            extra=(); [ $i = 1 ] && extra=(--pipeline-stats --phase-times)
            step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30 --workgroup $w --keys-per-thread $k \
                --lookback-window $l "${extra[@]}"
        done
    done
    for sub in slices quarters; do
        step $run vkboids bench --pipeline-stats --modes coherent --boids 1e6 --cells 27 --subcells $sub --frames 100 \
            --warmup 20
    done
    kill $smi_pid
fi
if [ "$plan" = half ]; then  # every GPU test; 1,024 x 8 against 512 x 8 between 2M and 12M, the default, the 10.24M step
    sample_clocks
    step $run gpu_tests --gtest_brief=1
    for i in 1 2; do
        ws=(1024 512); [ $i = 2 ] && ws=(512 1024)
        for w in "${ws[@]}"; do
            step $run vkboids sort-bench --n 2e6,3e6,4e6,6e6,8e6,10.24e6,12e6 --bits 21 --runs 30 --workgroup $w \
                --keys-per-thread 8
        done
        step $run vkboids sort-bench --n 1e6,4e6,16e6,64e6 --bits 21 --runs 30
        builds=(vkboids vkboids-base); [ $i = 2 ] && builds=(vkboids-base vkboids)
        for b in "${builds[@]}"; do
            [ -x .gpu/bin/$b ] && step $run $b bench --modes coherent --boids 10.24e6 --cells 27 --frames 30 --warmup 10
        done
    done
    kill $smi_pid
fi
if [ "$plan" = sixteenths ]; then  # every GPU test; 8-cell grid steps of every .gpu/bin/vkboids* build, two rounds
    sample_clocks
    step $run gpu_tests --gtest_brief=1
    builds=(); for b in .gpu/bin/vkboids*; do [ -x "$b" ] && builds+=("${b##*/}"); done
    two_rounds bench "${builds[@]}" -- bench --modes coherent,scattered --boids 1e6,2e6,5.12e6,10.24e6 --cells 8 \
        --frames 50 --warmup 10
    kill $smi_pid
fi
if [ "$plan" = xslices ]; then  # every GPU test; base against this build's default and 16 and 32 slices a cell, two rounds
    sample_clocks
    step $run gpu_tests --gtest_brief=1
    for i in 1 2; do
        confs=(base new x16 x32 push); [ $i = 2 ] && confs=(push x32 x16 new base)
        for conf in "${confs[@]}"; do
            case $conf in
            base) b=vkboids-base; x=() ;;
            new) b=vkboids; x=() ;;
            x16) b=vkboids; x=(--x-slices 16) ;;
            x32) b=vkboids; x=(--x-slices 32) ;;
            push) b=vkboids; x=() ;;
            esac
            say "round $i, $conf: $($run $b --version)"
            if [ $conf = push ]; then
                VKBOIDS_SLICES_PUSH=1 step $run $b bench --modes scattered --boids 5.12e6,10.24e6 --cells 8 --frames 30 \
                    --warmup 10
                continue
            fi
            step $run $b bench --modes coherent,scattered --boids 1e6 --cells 27,8 --frames 60 --warmup 10 "${x[@]}"
            step $run $b bench --modes coherent --boids 5.12e6,10.24e6 --cells 27 --frames 30 --warmup 10 "${x[@]}"
            [ ${#x[@]} = 0 ] && step $run $b bench --modes scattered --boids 5.12e6,10.24e6 --cells 8 --frames 30 \
                --warmup 10 "${x[@]}"
        done
    done
    kill $smi_pid
fi
if [ "$plan" = xslices2 ]; then  # every GPU test with the push constant; scattered and coherent 8-cell steps in 16 and 32, two rounds
    sample_clocks
    VKBOIDS_SLICES_PUSH=1 step $run gpu_tests --gtest_brief=1
    for i in 1 2; do
        confs=(s16 s32 p16 p32); [ $i = 2 ] && confs=(p32 p16 s32 s16)
        for conf in "${confs[@]}"; do
            say "round $i, scattered $conf: $($run vkboids --version)"
            if [ ${conf:0:1} = p ]; then export VKBOIDS_SLICES_PUSH=1; else unset VKBOIDS_SLICES_PUSH; fi
            step $run vkboids bench --modes scattered --boids 1e6,2e6,5.12e6,10.24e6 --cells 8 --frames 30 --warmup 10 \
                --x-slices ${conf:1}
        done
        unset VKBOIDS_SLICES_PUSH
        xs=(16 32); [ $i = 2 ] && xs=(32 16)
        for x in "${xs[@]}"; do
            say "round $i, coherent x$x"
            step $run vkboids bench --modes coherent --boids 2e6,5.12e6,10.24e6 --cells 8 --frames 30 --warmup 10 \
                --x-slices $x
        done
    done
    kill $smi_pid
fi
if [ "$plan" = head ]; then  # every GPU test, then the sort table and the target rows of the grid steps and naive
    sample_clocks
    step $run gpu_tests --gtest_brief=1
    step $run vkboids sort-bench --n 1e6,4e6,16e6,64e6 --bits 21,32 --runs 50 --csv "$out/sort.csv"
    step $run vkboids bench --modes coherent,scattered --boids 1e6,10.24e6 --cells 8,27 --frames 100 --warmup 20 \
        --csv "$out/bench.csv"
    step $run vkboids step --boids 100000 --steps 100 --mode naive
    kill $smi_pid
fi
# order_builds SUB EXTRA: every GPU test, then each .gpu/bin/vkboids* build's grid steps with --subcells
# SUB (and, with EXTRA, this build's with --subcells EXTRA), twice, counterbalanced; CSVs in round 1.
order_builds() {
    local builds=() b i build sub csv order
    step $run gpu_tests --gtest_brief=1
    for b in .gpu/bin/vkboids*; do [ -x "$b" ] && builds+=("${b##*/}"); done
    for i in 1 2; do
        order=("${builds[@]}"); [ $i = 2 ] && order=($(printf '%s\n' "${builds[@]}" | tac))
        for build in "${order[@]}" ${2:+extra}; do
            csv=(); [ $i = 1 ] && csv=(--csv "$out/bench-$build.csv")
            sub=$1; [ $build = extra ] && { build=vkboids; sub=$2; csv=(); [ $i = 1 ] && csv=(--csv "$out/bench-$sub.csv"); }
            say "build $build, --subcells $sub: $($run $build --version)"
            step $run $build bench --modes coherent,scattered --boids 1e6,2e6,5.12e6,10.24e6 --cells 27,8 \
                --frames 30 --warmup 10 --subcells $sub "${csv[@]}"
        done
    done
}
[ "$plan" = qrows ] && order_builds quarters slices  # each build's quarters against this build's slices (run 54)
[ "$plan" = srows ] && order_builds slices           # each build's slices (run 58)
if [ "$plan" = qauto ]; then  # auto's thresholds for quarter rows, then every build's quarters at 1M and 2M; two rounds
    builds=(); for b in .gpu/bin/vkboids*; do [ -x "$b" ] && builds+=("${b##*/}"); done
    for i in 1 2; do
        subs=(slices quarters); [ $i = 2 ] && subs=(quarters slices)
        for sub in "${subs[@]}"; do
            step $run vkboids bench --modes coherent --boids 5e5,8e5 --cells 27 --frames 50 --warmup 10 --subcells $sub
            step $run vkboids bench --modes coherent,scattered --boids 1e5,2e5,5e5 --cells 8 --frames 50 --warmup 10 \
                --subcells $sub
        done
        order=("${builds[@]}"); [ $i = 2 ] && order=($(printf '%s\n' "${builds[@]}" | tac))
        for build in "${order[@]}"; do
            say "build $build: $($run $build --version)"
            step $run $build bench --modes coherent --boids 1e6,2e6 --cells 27,8 --frames 50 --warmup 10 --subcells quarters
        done
    done
fi
if [ "$plan" = check ]; then
    step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30 --csv "$out/sort.csv"
    step $run vkboids bench --modes coherent,scattered --boids 1e6,10.24e6 --cells 27 --frames 50 --warmup 10 \
        --csv "$out/bench.csv"
fi
if [ "$plan" = slices ]; then  # x slices against whole cells and octants: one binary, two rounds
    step $run gpu_tests --gtest_brief=1
    order_rounds "off slices octants" 1e5,5e5,1e6,2e6,5.12e6 50
    step $run vkboids bench --pipeline-stats --modes coherent --boids 1e6 --cells 27 --frames 20 --warmup 5
fi
if [ "$plan" = quarters ]; then  # quarter rows against slices and octants: one binary, two rounds
    step $run gpu_tests --gtest_brief=1
    order_rounds "slices quarters octants" 1e6,2e6,5.12e6,10.24e6 30
    step $run vkboids bench --pipeline-stats --modes coherent --boids 1e6 --cells 27 --frames 20 --warmup 5 \
        --subcells quarters
fi
if [ "$plan" = keys ]; then  # every GPU test; grid steps of vkboids and vkboids-base, two rounds
    sample_clocks
    step $run gpu_tests --gtest_brief=1
    two_rounds bench vkboids vkboids-base -- bench --modes coherent,scattered --boids 1e5,1e6,10.24e6 --cells 27,8 \
        --frames 50 --warmup 10
    kill $smi_pid
fi
if [ "$plan" = tiles ]; then  # the sort's 1,024-wide tile shapes against the default, sampling nvidia-smi
    sample_clocks
    step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30 --csv "$out/sort.csv"
    for shape in 1024x8 1024x7 1024x9; do
        step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30 --workgroup ${shape%x*} \
            --keys-per-thread ${shape#*x}
    done
    for i in 1 2; do  # the clock's warm-up: none (as before run 63) against the default
        step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30 --warmup-ms 0
        step $run vkboids sort-bench --n 1e6,16e6,64e6 --bits 21 --runs 30
    done
    step $run vkboids sort-bench --pipeline-stats --n 1e6 --bits 21 --runs 20 --workgroup 1024 --keys-per-thread 8
    kill $smi_pid
fi
if [ "$plan" = sizes ]; then  # 1,024 x 8 against 1,024 x 9 from 1M to 16M pairs, two rounds
    sample_clocks
    shape_rounds 1e6,2e6,4e6,8e6,16e6 8 9
    kill $smi_pid
fi
if [ "$plan" = sorts ]; then  # every GPU test; each build's sort, then its grid steps, two rounds each
    sample_clocks
    step $run gpu_tests --gtest_brief=1
    builds=(); for b in .gpu/bin/vkboids*; do [ -x "$b" ] && builds+=("${b##*/}"); done
    two_rounds sort "${builds[@]}" -- sort-bench --n 1e6,4e6,16e6,64e6 --bits 21,32 --runs 50
    two_rounds bench "${builds[@]}" -- bench --modes coherent,scattered --boids 1e5,1e6 --cells 27,8 --frames 50 \
        --warmup 10
    kill $smi_pid
fi
if [ "$plan" = snapshot ] || [ "$plan" = compare ]; then  # every GPU test; the sort and grid steps of
    # vkboids against vkboids-base, two rounds; (snapshot only) vkboids at look-back windows 8 and 16; both
    # builds' tile phases
    sample_clocks
    step $run gpu_tests --gtest_brief=1
    two_rounds sort vkboids vkboids-base -- sort-bench --n 1e6,4e6,16e6,64e6 --bits 21,32 --runs 50
    [ "$plan" = snapshot ] && for window in 8 16; do
        step $run vkboids sort-bench --n 1e6,4e6,16e6,64e6 --bits 21 --runs 50 --lookback-window $window \
            --csv "$out/sort-window$window.csv"
    done
    for build in vkboids vkboids-base; do
        step $run $build sort-bench --n 1e6,16e6 --bits 21 --runs 20 --phase-times
    done
    two_rounds bench vkboids vkboids-base -- bench --modes coherent,scattered --boids 1e6 --cells 27,8 --frames 50 \
        --warmup 10
    kill $smi_pid
fi
say "$(date -u) done"
