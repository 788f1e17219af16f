#!/usr/bin/env bash
# A sweep under a memory budget it needs to serialize: its peak resident set (GNU time) stays
# within the budget, and its selection is the one of a sweep with memory to spare.
# Usage: select_budget.sh PICCOLO WORKDIR
set -eu
piccolo=$1
work=$2
mkdir -p "$work"
sweep=(select -c allgather,allreduce --nodes 32,64 --ppn 4 -s 8,64KiB,1MiB -j 2 -f json)
budget_kb=$((32 * 1024))
/usr/bin/time -f '%M' -o "$work/usage" "$piccolo" "${sweep[@]}" --memory-budget 32MiB \
    >"$work/tight.json" 2>"$work/tight.err"
"$piccolo" "${sweep[@]}" --memory-budget 16GiB >"$work/roomy.json"
peak_kb=$(tail -n 1 "$work/usage")
echo "peak ${peak_kb} KB under a budget of ${budget_kb} KB"
cmp "$work/tight.json" "$work/roomy.json"
((peak_kb <= budget_kb))
