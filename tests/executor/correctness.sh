#!/usr/bin/env bash
# Every algorithm x style x collective on P ranks (pretend nodes of 2), sizes 1 B, 7 B, 4 KiB and
# 1 MiB, k in {2, 3, 4} where valid: one checked run each, in one mpirun. The executor checks
# every byte on every rank and exits 1 on the first wrong one; here we also check that every case
# ran (no candidate silently missing) and that the MPI library's rows are there.
set -u
runner=$1 p=$2 expected_rows=$3 workdir=$4
source "$(dirname "$0")/mpirun.sh"
mkdir -p "$workdir" && cd "$workdir" || exit 1
rm -f "check$p.csv"
timeout 170 "${launcher[@]}" -n "$p" "$runner" --check-only --node-size 2 -k 2,3,4 \
    --style mpi,nccl,pipelined -s 1,7,4KiB,1MiB --csv "check$p.csv" -q || exit 1
rows=$(grep -vc '^#\|^collective,' "check$p.csv")
library=$(grep -c ',library,' "check$p.csv")
if [[ $rows -ne $expected_rows || $library -ne 8 ]]; then
    echo "FAIL: $rows rows ($expected_rows expected), $library library rows (8 expected)"
    exit 1
fi
echo "ok: $rows cases checked byte for byte on $p ranks"
