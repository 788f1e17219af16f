#!/usr/bin/env bash
# Bruck's Allgather (asked for by name: the default sweep leaves it out) on P ranks (pretend
# nodes of 2), every k in 2..P, every style, sizes 1 B, 7 B, 4 KiB and 1 MiB: one checked run
# each, in one mpirun. The executor checks every byte on every rank and exits 1 on the first
# wrong one; here we also check that every case ran and that an Allreduce asked of bruck is
# skipped, not run.
set -u
runner=$1 p=$2 workdir=$3
source "$(dirname "$0")/mpirun.sh"
mkdir -p "$workdir" && cd "$workdir" || exit 1
rm -f "bruck$p.csv"
radices=$(seq -s, 2 "$p")
timeout 170 "${launcher[@]}" -n "$p" "$runner" --check-only --node-size 2 -a bruck \
    -c allgather,allreduce -k "$radices" --style mpi,nccl,pipelined -s 1,7,4KiB,1MiB \
    --csv "bruck$p.csv" -q || exit 1
# (p - 1) k x 3 styles x 4 sizes, all Allgather; none of Allreduce.
expected=$(((p - 1) * 3 * 4))
rows=$(grep -c '^allgather,bruck,' "bruck$p.csv")
others=$(grep -c '^allreduce,bruck,' "bruck$p.csv")
if [[ $rows -ne $expected || $others -ne 0 ]]; then
    echo "FAIL: $rows Allgather rows ($expected expected), $others Allreduce rows (0 expected)"
    exit 1
fi
echo "ok: $rows bruck cases checked byte for byte on $p ranks"
