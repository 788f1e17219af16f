#!/usr/bin/env bash
# piccolo-profile-mpi on bad input: exit status 2 and exactly one line of its own on stderr
# (mpirun may add its own banner after a non-zero exit; those lines are not ours).
set -u
profiler=$1
tool=$(basename "$profiler")
export OMPI_MCA_btl=self,vader
export OMPI_MCA_hwloc_base_binding_policy=none
failed=0
expect() {  # expect WANTED_TEXT COMMAND...
    local wanted=$1
    shift
    local stderr status ours
    stderr=$(timeout 60 "$@" 2>&1 >/dev/null)
    status=$?
    ours=$(printf '%s\n' "$stderr" | grep -c "^$tool: ")
    if [[ $status -eq 2 && $ours -eq 1 && $stderr == *"$wanted"* ]]; then
        echo "ok: $*"
    else
        echo "FAIL: $*"
        echo "  expected status 2 and one '$tool:' line containing: $wanted"
        echo "  got status $status, $ours line(s): $stderr"
        failed=1
    fi
}
only_line() {  # without mpirun the whole stderr must be that one line
    local stderr
    stderr=$(timeout 60 "$@" 2>&1 >/dev/null)
    [[ $(printf '%s' "$stderr" | grep -c '') -eq 1 ]] || { echo "FAIL: more than one line: $stderr"; failed=1; }
}
expect "The following argument was not expected: --bogus" "$profiler" --bogus
only_line "$profiler" --bogus
expect "--train: Value 1 not in range" "$profiler" --train 1
expect "--group-of '(': not a valid regular expression" "$profiler" --group-of "("
expect "--min-size 4096 is above --max-size 64" "$profiler" --min-size 4096 --max-size 64
expect "1 rank: the profiler measures rank pairs and needs an even number of ranks" "$profiler" --quick -o /dev/null
only_line "$profiler" --quick -o /dev/null
expect "3 ranks: the profiler measures rank pairs and needs an even number of ranks" \
    mpirun --allow-run-as-root --oversubscribe -n 3 "$profiler" --quick -o odd.yaml
expect "The following argument was not expected: --bogus" \
    mpirun --allow-run-as-root --oversubscribe -n 2 "$profiler" --bogus
expect "--group-of 'nomatch\\d': host name" \
    mpirun --allow-run-as-root --oversubscribe -n 2 "$profiler" --quick --group-of 'nomatch\d' -o none.yaml
expect "--devices-per-node 1 is below the 2 ranks found on one node" \
    mpirun --allow-run-as-root --oversubscribe -n 2 "$profiler" --quick --devices-per-node 1 -o none.yaml
exit $failed
