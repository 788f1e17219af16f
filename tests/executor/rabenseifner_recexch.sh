#!/usr/bin/env bash
# Reduce by reduce-scatter + gather (rabenseifner) from root 0 and from root P - 1, and
# Reduce_scatter by recursive exchange (recexch, every k in 2..P), named with -a and -c, on P
# ranks (pretend nodes of 2), every style, sizes 1 B, 7 B, 4 KiB and 1 MiB: one checked run each.
# The executor checks every byte (Reduce: on the root; Reduce_scatter: on every rank) and exits 1
# on the first wrong one; here we also check that every case ran and that the sizes rabenseifner
# cannot take (fewer bytes than 2^floor(log2 P), MPICH's count >= pof2) are skipped, not run.
# Reduce_scatter runs --no-reference, as in reduce_scatter_alltoall.sh: Open MPI 4.1.4's own
# MPI_Reduce_scatter_block sums unsigned chars wrongly on 5 ranks, which is not ours.
set -u
runner=$1 p=$2 workdir=$3
source "$(dirname "$0")/mpirun.sh"
mkdir -p "$workdir" && cd "$workdir" || exit 1
pof2=1
while ((pof2 * 2 <= p)); do pof2=$((pof2 * 2)); done
sizes=0  # of 1, 7, 4096, 1 MiB: those of at least pof2 bytes
for s in 1 7 4096 1048576; do ((s >= pof2)) && sizes=$((sizes + 1)); done
fail=0
for root in 0 $((p - 1)); do
    csv="rabenseifner$p-$root.csv"
    rm -f "$csv"
    timeout 170 "${launcher[@]}" -n "$p" "$runner" --check-only --node-size 2 -a rabenseifner \
        -c reduce --style mpi,nccl,pipelined -s 1,7,4KiB,1MiB --root "$root" --csv "$csv" -q ||
        exit 1
    rows=$(grep -c "^reduce,rabenseifner," "$csv")
    library=$(grep -cE "^reduce,MPI_Reduce," "$csv")
    if [[ $rows -ne $((3 * sizes)) || $library -ne 4 ]]; then
        echo "FAIL: root $root: $rows rabenseifner rows ($((3 * sizes)) expected), $library library rows (4)"
        fail=1
    fi
done
csv="recexch$p.csv"
rm -f "$csv"
timeout 170 "${launcher[@]}" -n "$p" "$runner" --check-only --no-reference --node-size 2 \
    -a recexch -c reduce_scatter -k "$(seq -s, 2 "$p")" --style mpi,nccl,pipelined \
    -s 1,7,4KiB,1MiB --csv "$csv" -q || exit 1
rows=$(grep -c "^reduce_scatter,recexch," "$csv")
if [[ $rows -ne $(((p - 1) * 12)) ]]; then
    echo "FAIL: recexch: $rows rows ($(((p - 1) * 12)) expected)"
    fail=1
fi
[[ $fail -eq 0 ]] || exit 1
echo "ok: $((2 * 3 * sizes)) rabenseifner reduce and $(((p - 1) * 12)) recexch reduce_scatter" \
    "cases checked byte for byte on $p ranks"
