#!/usr/bin/env bash
# Alltoall bruck (every k in 2..P) and Reduce_scatter rh (recursive halving), named with -a and -c
# (the default sweep leaves them out), on P ranks (pretend nodes of 2), every style, sizes 1 B,
# 7 B, 4 KiB and 1 MiB: one checked run each, in one mpirun. The executor checks every byte on
# every rank and exits 1 on the first wrong one; here we also check that every case ran and that
# the collectives an algorithm does not build are skipped, not run. --no-reference, as in
# reduce_scatter_alltoall.sh: Open MPI 4.1.4's own MPI_Reduce_scatter_block sums unsigned chars
# wrongly on 5 ranks, which is not ours.
set -u
runner=$1 p=$2 workdir=$3
source "$(dirname "$0")/mpirun.sh"
mkdir -p "$workdir" && cd "$workdir" || exit 1
rm -f "bruck-rh$p.csv"
radices=$(seq -s, 2 "$p")
timeout 170 "${launcher[@]}" -n "$p" "$runner" --check-only --no-reference --node-size 2 \
    -a bruck,rh -c reduce_scatter,alltoall -k "$radices" --style mpi,nccl,pipelined \
    -s 1,7,4KiB,1MiB --csv "bruck-rh$p.csv" -q || exit 1
# 3 styles x 4 sizes per (algorithm, k).
fail=0
check() {
    local rows
    rows=$(grep -c "^$1,$2," "bruck-rh$p.csv")
    if [[ $rows -ne $3 ]]; then
        echo "FAIL: $1 $2: $rows rows ($3 expected)"
        fail=1
    fi
}
check alltoall bruck $(((p - 1) * 12))
check reduce_scatter rh 12
check reduce_scatter bruck 0
check alltoall rh 0
[[ $fail -eq 0 ]] || exit 1
echo "ok: $((p * 12)) bruck alltoall and rh reduce_scatter cases checked byte for byte on $p ranks"
