#!/usr/bin/env bash
# Default k under a budget that the largest k cannot fit: rm with k = 2048 at p = 2048 (an
# all-to-all, estimated at 382 MiB) is left out and said so, every smaller k runs, the peak
# resident set stays within the budget, and the selection is the one of the sweep that lists
# the kept k with -k. Naming k = 2048 with -k is refused instead (tests/bad-inputs).
# The lanes are FIFO (--set sharing=fifo): this checks the budget's bookkeeping, and Delta's fair
# sharing would make this every-k sweep take minutes; the fair-sharing estimate is checked against
# measured peaks in tests/sim/test_select_memory.cpp.
# Usage: select_budget_default_k.sh PICCOLO WORKDIR
set -eu
piccolo=$1
work=$2
mkdir -p "$work"
sweep=(select -c allgather -a rm --nodes 512 --ppn 4 -s 8,64KiB -j 2 -f csv --set sharing=fifo)
budget_kb=$((330 * 1024))
/usr/bin/time -f '%M' -o "$work/usage" "$piccolo" "${sweep[@]}" --memory-budget 330MiB \
    >"$work/default.csv" 2>"$work/default.err"
"$piccolo" "${sweep[@]}" -k 2-2047 --memory-budget 16GiB >"$work/listed.csv" 2>/dev/null
peak_kb=$(tail -n 1 "$work/usage")
echo "peak ${peak_kb} KB under a budget of ${budget_kb} KB"
cat "$work/default.err"
grep -qx 'piccolo: note: allgather rm at p = 2048: k = 2048 not simulated: more memory than the budget allows (up to about 382 MiB); raise --memory-budget or choose k with -k' \
    "$work/default.err"
cmp "$work/default.csv" "$work/listed.csv"
((peak_kb <= budget_kb))
