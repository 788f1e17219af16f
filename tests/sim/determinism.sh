#!/usr/bin/env bash
# piccolo select runs its sweep on a tbb::task_arena of --threads threads; its outputs must be
# byte-identical whatever the thread count: 1, 2, 3 (more threads than this test's 2 cores) and
# the default (every core). Every selection output is compared (table, CSV, JSON, YAML and the
# tuning files), the same for -c all (every collective; table, CSV, JSON and YAML, the formats
# that carry Bcast, Reduce, Reduce_scatter and Alltoall), and piccolo sim --json run twice.
#   determinism.sh PICCOLO WORKDIR [NODES]
# NODES is the sweep's --nodes, 1,8,32 unless given (the sanitizer builds give a smaller one).
set -uo pipefail
piccolo=$1 work=$2 nodes=${3:-1,8,32}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
outputs=(table.txt sel.csv sel.json sel.yaml tuning.json rules.txt)
select_into() {  # select_into DIR [--threads N]
    local dir=$1
    shift
    mkdir -p "$dir" &&
        "$piccolo" select --nodes "$nodes" --sizes 8-4MiB "$@" -o "$dir/table.txt" --emit csv \
            -o "$dir/sel.csv" --emit json -o "$dir/sel.json" --emit yaml -o "$dir/sel.yaml" \
            --emit mpich-json -o "$dir/tuning.json" --mpich-version 4.1 --emit openmpi-rules \
            -o "$dir/rules.txt" 2> "$dir/stderr.txt"
}
passed=0 failed=0
check() {  # check WHAT: exit status 0 of the last command, else a failure
    if [[ $1 == 0 ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $2"
    fi
}
select_into default
check $? "select (default threads) failed: $(cat default/stderr.txt)"
for f in "${outputs[@]}"; do
    [[ -s default/$f ]]
    check $? "default/$f is empty"
done
for threads in 1 2 3; do
    select_into "t$threads" --threads "$threads"
    check $? "select --threads $threads failed: $(cat "t$threads/stderr.txt")"
    for f in "${outputs[@]}"; do
        cmp "default/$f" "t$threads/$f"
        check $? "select --threads $threads: $f differs from the default run"
    done
done
all_outputs=(table.txt sel.csv sel.json sel.yaml)
select_all_into() {  # select_all_into DIR [--threads N]
    local dir=$1
    shift
    mkdir -p "$dir" &&
        "$piccolo" select -c all --nodes "$nodes" --sizes 8-4MiB "$@" -o "$dir/table.txt" \
            --emit csv -o "$dir/sel.csv" --emit json -o "$dir/sel.json" --emit yaml \
            -o "$dir/sel.yaml" 2> "$dir/stderr.txt"
}
select_all_into all-default
check $? "select -c all (default threads) failed: $(cat all-default/stderr.txt)"
grep -q "^alltoall on " all-default/table.txt
check $? "select -c all: no alltoall table"
for threads in 1 2 3; do
    select_all_into "all-t$threads" --threads "$threads"
    check $? "select -c all --threads $threads failed: $(cat "all-t$threads/stderr.txt")"
    for f in "${all_outputs[@]}"; do
        cmp "all-default/$f" "all-t$threads/$f"
        check $? "select -c all --threads $threads: $f differs from the default run"
    done
done
sim() { "$piccolo" sim -c allreduce -a prm -k 4 --nodes 8 --bytes 1MiB --json; }
a=$(sim) b=$(sim)
[[ -n $a && $a == "$b" ]]
check $? "sim --json differs between two runs"
echo "determinism: $passed passed, $failed failed"
[[ $failed == 0 ]]
