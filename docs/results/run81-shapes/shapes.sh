set -u
out=$1
for round in 1 2; do
  for cfg in "" "--workgroup 1024 --keys-per-thread 9" "--partition-nv"; do
    echo "=== round $round: sort-bench $cfg"
    .gpu/run vkboids sort-bench --n 1e6,2e6,4e6,8e6,16e6,64e6 --bits 21 --runs 30 $cfg 2>&1
  done
done
