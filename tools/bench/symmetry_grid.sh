#!/usr/bin/env bash
# The exactness grid of the symmetry reduction (README.md, "Symmetry"): every ring and k-ring
# schedule (each valid k, Allgather, Allreduce and Reduce_scatter, every style, contention on and
# off) and pairwise (Reduce_scatter, Alltoall), scattered and bruck (k = 2, 4) Alltoall, on
# machines with node lanes, group lanes, fair sharing with a node capacity and cpu overheads,
# 1..8 ranks per node, up to 4096 ranks; full and reduced replays compared in the same run.
#   tools/bench/symmetry_grid.sh [build/release/bin/symmetry_bench] [max ranks, 4096]
# The vector size is a multiple of every p of the grid, so Allreduce segments are equal.
set -euo pipefail
bench=${1:-build/release/bin/symmetry_bench}
max=${2:-4096}
bytes=$((105 << 20))
status=0
run() {  # machine nodes ppn
    (($2 * $3 <= max)) || return 0
    "$bench" "$1" "$2" "$3" "$bytes" full | tail -1 || status=1
    local bruck=(bruck:2)
    (($2 * $3 >= 4)) && bruck+=(bruck:4)
    "$bench" "$1" "$2" "$3" "$bytes" full pairwise scattered "${bruck[@]}" | tail -1 || status=1
}
for ppn in 1 2 3 4 5 6 7 8; do
    for nodes in 2 5 16 64 128; do run dgx-h100 $nodes $ppn; done
done
for ppn in 1 2 3 4; do
    for nodes in 4 32 256; do run delta $nodes $ppn; done
done
for ppn in 2 4; do
    for nodes in 4 16 64; do
        run delta-grouped $nodes $ppn
        run delta-fair $nodes $ppn
        run laptop-nodes $nodes $ppn
    done
done
run delta 1024 4
run dgx-h100 512 8
exit $status
