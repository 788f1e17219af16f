#!/usr/bin/env bash
# Bcast and Reduce over the k-nomial and binomial trees on P ranks (pretend nodes of 2), every k in
# 2..P, every style, sizes 1 B, 7 B, 4 KiB and 1 MiB, from root 0 and from root P - 1: one
# checked run each, with the library's MPI_Bcast / MPI_Reduce beside them. The executor checks
# every byte (Bcast: on every rank; Reduce: on the root) and exits 1 on the first wrong one;
# here we also check that every case ran.
set -u
runner=$1 p=$2 workdir=$3
source "$(dirname "$0")/mpirun.sh"
mkdir -p "$workdir" && cd "$workdir" || exit 1
radices=$(seq -s, 2 "$p")
for root in 0 $((p - 1)); do
    csv="rooted$p-$root.csv"
    rm -f "$csv"
    timeout 170 "${launcher[@]}" -n "$p" "$runner" --check-only --node-size 2 \
        -a knomial,binomial -c bcast,reduce -k "$radices" --style mpi,nccl,pipelined \
        -s 1,7,4KiB,1MiB --root "$root" --csv "$csv" -q || exit 1
    for c in bcast reduce; do
        # knomial: p - 1 radices, binomial: one; x 3 styles x 4 sizes. The library: 4 sizes.
        expected=$((p * 3 * 4))
        rows=$(grep -cE "^$c,(knomial|binomial)," "$csv")
        library=$(grep -cE "^$c,MPI_(Bcast|Reduce)," "$csv")
        if [[ $rows -ne $expected || $library -ne 4 ]]; then
            echo "FAIL: root $root: $rows $c rows ($expected expected), $library library rows (4)"
            exit 1
        fi
    done
    echo "ok: root $root: $((2 * p * 3 * 4)) tree cases checked byte for byte on $p ranks"
done
