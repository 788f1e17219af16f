#!/usr/bin/env bash
# piccolo-mpi under one MPI library: `select` (every format and tuning file) and `compare` with
# --variant and --vary under 1, 2, 3 and 4 ranks of 1 and 2 threads each write byte for byte
# what piccolo writes in one process; a rank killed after its first job (the runner's test hook
# PICCOLO_MPI_TEST_KILL_RANK) ends the run non-zero, with no output file.
# Usage: same_output.sh LIB PICCOLO PICCOLO_MPI LAUNCHER WORKDIR [GRID]
# GRID lists the ranks x threads to run, "1x1 1x2 2x1 2x2 3x1 3x2 4x1 4x2" unless given.
set -euo pipefail
lib=$1 piccolo=$2 piccolo_mpi=$3 launcher=$4 work=$5
grid=${6:-"1x1 1x2 2x1 2x2 3x1 3x2 4x1 4x2"}
rm -rf "$work"
mkdir -p "$work"
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # containers run as root
launch() {  # ranks command...
    local ranks=$1
    shift
    if [[ $lib == openmpi ]]; then
        timeout 120 "$launcher" --oversubscribe -n "$ranks" "$@"
    else
        timeout 120 "$launcher" -n "$ranks" "$@"
    fi
}

# Small sweeps that still pass through every batch of a sweep: at 256 ranks (64 nodes of 4) the
# large candidates are bounded (docs/bounds.md), so scouts and stages 1..3 run too.
sweep=(-m delta --nodes 2,64 --ppn 4 -s 8,64KiB,1MiB)
select_all() {  # DIR: every format of the mpi style
    echo select "${sweep[@]}" -f table -o "$1/table.txt" --emit csv -o "$1/select.csv" \
        --emit json -o "$1/select.json" --emit yaml -o "$1/select.yaml" \
        --emit mpich-json -o "$1/mpich.json" --mpich-version 4.1 \
        --emit openmpi-rules -o "$1/openmpi.rules"
}
select_piccl() {  # DIR: the PICCL environment (nccl style), one scale
    echo select -m delta --nodes 64 --ppn 4 -s 8,64KiB,1MiB -a ring,k-ring,rd,rm -f csv -o "$1/piccl.csv" \
        --emit piccl-env -o "$1/piccl.env" --size 64KiB
}
compare_both() {  # DIR: --variant and --vary in one comparison (first the variant, then the points)
    echo compare -m delta --variant 'system.G*0.5' --vary 'system.L=0.5x..2x:3' -c allreduce \
        --nodes 2,64 --ppn 4 -s 8,1MiB -f json -o "$1/compare.json"
}
runs=(select_all select_piccl compare_both)

mkdir single
for run in "${runs[@]}"; do
    # shellcheck disable=SC2046  # the words of the command line, no file name has a space
    "$piccolo" $($run single) -j 2 -q 2>/dev/null || "$piccolo" $($run single) -j 2
done
expected=$(cd single && ls | wc -l)
[[ $expected == 9 ]] || { echo "piccolo wrote $expected files, not 9"; exit 1; }

failed=0
for point in $grid; do
    ranks=${point%x*} threads=${point#*x}
    dir=r${ranks}t${threads}
    mkdir "$dir"
    for run in "${runs[@]}"; do
        # shellcheck disable=SC2046
        launch "$ranks" "$piccolo_mpi" $($run "$dir") -j "$threads" >/dev/null
    done
    for file in single/*; do
        if ! cmp -s "$file" "$dir/${file#single/}"; then
            echo "FAIL: $ranks rank(s) x $threads thread(s): ${file#single/} differs from piccolo's"
            failed=1
        fi
    done
    echo "$ranks rank(s) x $threads thread(s): $(ls "$dir" | wc -l) files compared"
done
[[ $failed == 0 ]] || exit 1

# A rank that dies mid-run: the launcher ends the run non-zero, and no output file is there.
mkdir killed
set +e
# shellcheck disable=SC2046
PICCOLO_MPI_TEST_KILL_RANK=1 launch 2 "$piccolo_mpi" $(select_all killed) -j 1 >killed.log 2>&1
status=$?
set -e
if [[ $status == 0 ]]; then
    echo "FAIL: the run with rank 1 killed exited 0"; cat killed.log; exit 1
fi
if [[ -n $(ls killed) ]]; then
    echo "FAIL: the run with rank 1 killed left files: $(ls killed)"; exit 1
fi
echo "rank 1 killed: exit status $status, no file written"
