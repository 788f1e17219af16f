#!/usr/bin/env bash
# piccolo-run-mpi on bad input: exit status 2 and one line of its own naming what to fix.
set -u
runner=$1 piccolo=$2 workdir=$3
tool=$(basename "$runner")
source "$(dirname "$0")/mpirun.sh"
mkdir -p "$workdir" && cd "$workdir" || exit 1
"$piccolo" gen -c allgather -a ring -p 3 -b 8 -o ring3.xml || exit 1
"$piccolo" gen -c allgather -a ring -p 2 -b 8 --no-payload -o bare.xml || exit 1
failed=0
expect() {  # expect WANTED_TEXT ARGS... (run on 2 ranks)
    local wanted=$1
    shift
    local stderr status ours
    stderr=$(timeout 60 "${launcher[@]}" -n 2 "$runner" -q "$@" 2>&1 >/dev/null)
    status=$?
    ours=$(printf '%s\n' "$stderr" | grep -c "^$tool: ")
    if [[ $status -eq 2 && $ours -eq 1 && $stderr == *"$wanted"* ]]; then
        echo "ok: $*"
    else
        echo "FAIL: $*: expected status 2 and one '$tool:' line containing: $wanted"
        echo "  got status $status: $stderr"
        failed=1
    fi
}
expect "The following argument was not expected: --bogus" --bogus
expect "--style: " --style fast
expect "--algorithm: " -a ringg
expect "--sizes: '0' must be at least 1 byte" -s 0
expect "-k: 1 is not a radix" -k 1
expect "-k: ring takes no radix; drop -k, or choose with -a an algorithm that takes one (for allgather, allreduce: k-ring, rm, prm, bruck)" -a ring -k 4
expect "-k: none of pairwise, scattered takes a radix; drop -k, or add with -a an algorithm that takes one (for alltoall: bruck)" -c alltoall -k 4
expect "-k: a schedule file brings its own k; drop -k (it is for the generated schedules of -a)" --schedule ring3.xml -k 2
expect "--type: 'int' is not one of double, float, byte, auto" --type int
expect "--type double: the 7-byte vector" -c allreduce -a rd --type double -s 7
expect "the schedule is for 3 ranks but 2 are running; start it with mpirun -n 3" --schedule ring3.xml
expect "no payload descriptors" --schedule bare.xml
expect "missing.xml" --schedule missing.xml
exit $failed
