#!/usr/bin/env bash
# Reduce_scatter (ring, k-ring with every k, pairwise) and Alltoall (pairwise, scattered), named
# with -a and -c (the default sweep leaves them out), on P ranks (pretend nodes of 2), every style,
# sizes 1 B, 7 B, 4 KiB and 1 MiB: one checked run each, in one mpirun. The executor checks every
# byte on every rank and exits 1 on the first wrong one; here we also check that every case ran.
# --no-reference: Open MPI 4.1.4's own MPI_Reduce_scatter_block sums unsigned chars wrongly on 5
# ranks (7 B blocks: rank 4's first byte; the schedules' results are right), which is not ours.
set -u
runner=$1 p=$2 workdir=$3
source "$(dirname "$0")/mpirun.sh"
mkdir -p "$workdir" && cd "$workdir" || exit 1
rm -f "rs-a2a$p.csv"
timeout 170 "${launcher[@]}" -n "$p" "$runner" --check-only --no-reference --node-size 2 \
    -a ring,k-ring,pairwise,scattered -c reduce_scatter,alltoall --style mpi,nccl,pipelined \
    -s 1,7,4KiB,1MiB --csv "rs-a2a$p.csv" -q || exit 1
divisors=0
for ((k = 2; k <= p; ++k)); do ((p % k == 0)) && divisors=$((divisors + 1)); done
# 3 styles x 4 sizes per (algorithm, k).
fail=0
check() {
    local rows
    rows=$(grep -c "^$1,$2," "rs-a2a$p.csv")
    if [[ $rows -ne $3 ]]; then
        echo "FAIL: $1 $2: $rows rows ($3 expected)"
        fail=1
    fi
}
check reduce_scatter ring 12
check reduce_scatter k-ring $((divisors * 12))
check reduce_scatter pairwise 12
check alltoall pairwise 12
check alltoall scattered 12
check alltoall ring 0
check reduce_scatter scattered 0
[[ $fail -eq 0 ]] || exit 1
echo "ok: $(((divisors + 4) * 12)) reduce_scatter and alltoall cases checked byte for byte on $p ranks"
