#!/usr/bin/env bash
# Bcast by scatter + recursive doubling and scatter + ring (scatter-rd, scatter-ring), named with
# -a and -c, on P ranks (pretend nodes of 2), every style, sizes 1 B, 7 B (chunks of
# ceil(n/p) bytes, the last short, the last ranks' empty), 4 KiB and 1 MiB, from root 0 and from
# root P - 1: one checked run each, with the library's MPI_Bcast beside them. The executor checks
# every byte on every rank and exits 1 on the first wrong one; here we also check that every
# case ran.
set -u
runner=$1 p=$2 workdir=$3
source "$(dirname "$0")/mpirun.sh"
mkdir -p "$workdir" && cd "$workdir" || exit 1
for root in 0 $((p - 1)); do
    csv="scatter$p-$root.csv"
    rm -f "$csv"
    timeout 170 "${launcher[@]}" -n "$p" "$runner" --check-only --node-size 2 \
        -a scatter-rd,scatter-ring -c bcast --style mpi,nccl,pipelined -s 1,7,4KiB,1MiB \
        --root "$root" --csv "$csv" -q || exit 1
    # 2 algorithms x 3 styles x 4 sizes; the library: 4 sizes.
    rows=$(grep -cE '^bcast,scatter-(rd|ring),' "$csv")
    library=$(grep -cE '^bcast,MPI_Bcast,' "$csv")
    if [[ $rows -ne 24 || $library -ne 4 ]]; then
        echo "FAIL: root $root: $rows scatter rows (24 expected), $library library rows (4)"
        exit 1
    fi
    echo "ok: root $root: 24 scatter-allgather Bcasts checked byte for byte on $p ranks"
done
