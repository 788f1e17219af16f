#!/usr/bin/env bash
# The emulated cluster of tools/testbed: its refusals (one line, exit 2), its link rate, an MPI
# job across its namespaces (the profiler and the executor, nodes of one rank; MPICH's own
# Allgather where piccolo-run-mpi-mpich was built), and that nothing
# it created is left behind, after a normal end, a failing job and a SIGTERM.
#   testbed.sh PROFILER RUNNER WORKDIR       (skipped, 77, where network namespaces cannot be made)
set -u
profiler=$1 runner=$2 work=$3
testbed=$(cd "$(dirname "$0")/../../tools/testbed" && pwd)/testbed.sh
name=pct$$ && name=${name:0:6}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
if [[ $(id -u) -ne 0 ]] || ! ip netns add "${name}x" 2> /dev/null; then
    echo "skipped: network namespaces cannot be created here (not root?)"
    exit 77
fi
ip netns del "${name}x"
fail() { echo "FAIL: $*"; exit 1; }
# Its own namespaces and folders (named after $name: another testbed may run beside it), and
# every link and queueing discipline of the host.
snapshot() { { ip netns list | grep "^$name"; ip -br link; tc qdisc show; ls /tmp | grep "^testbed-$name"; } | sort; }
before=$(snapshot)
nothing_left() {
    local now
    now=$(snapshot)
    [[ $now == "$before" ]] || fail "left behind after $1: $(diff <(echo "$before") <(echo "$now") | tr '\n' ' ')"
}

refused() {  # refused EXPECTED_TEXT ARGS...: exit 2, one line that contains the text
    local expected=$1
    shift
    "$@" > out.txt 2> err.txt
    local status=$?
    [[ $status -eq 2 ]] || fail "$* exited $status, not 2"
    [[ $(wc -l < err.txt) -eq 1 ]] || fail "$*: $(wc -l < err.txt) lines on stderr: $(cat err.txt)"
    grep -qF -- "$expected" err.txt || fail "$*: '$(cat err.txt)' does not say '$expected'"
}
refused "--rate 'fast': tc refuses it" bash "$testbed" --name "$name" --rate fast check
nothing_left "a rate tc refuses"
refused "200 nodes x 64 ranks need 12800 cores" bash "$testbed" --name "$name" --nodes 200 --ppn 64 check
refused "--nodes '0': must be an integer in 1..200" bash "$testbed" --nodes 0 check
refused "needs root" setpriv --reuid=65534 --regid=65534 --clear-groups bash "$testbed" check
nothing_left "the refusals before any namespace"
ip netns add "${name}sw"  # in use: refused, and the testbed must not remove what is not its own
refused "network namespace ${name}sw exists already" bash "$testbed" --name "$name" check
ip netns list | grep -qw "^${name}sw" || fail "the testbed removed a namespace it had not made"
ip netns del "${name}sw"
nothing_left "a name in use"

# The shaped link: a TCP stream's payload within 10 % of the rate less its headers (1448 of
# 1514 bytes a frame: 95.6 %), each way alone and both ways at once (full duplex).
bash "$testbed" --name "$name" --rate 200mbit check > rate.txt || fail "check: $(cat rate.txt)"
cat rate.txt
[[ $(wc -l < rate.txt) -eq 4 ]] || fail "check printed not 4 lines"
awk '{ if ($4 < 0.9 * 191 || $4 > 1.1 * 191) bad = 1 } END { exit bad }' rate.txt ||
    fail "a direction off 191 Mbit/s by more than 10 %"
nothing_left "check"

# MPI across the namespaces: the profiler measures the system level between them (no rank pair
# shares a node), and the executor runs and checks every algorithm on 2 nodes.
bash "$testbed" --name "$name" --rate 1gbit shell "
    \"\$TESTBED_MPIRUN\" $profiler --quick --quiet --node-size 1 -o profile.yaml &&
    \"\$TESTBED_MPIRUN\" $runner --node-size 1 -s 8,64KiB --check-only -q" > mpi.txt 2>&1 ||
    fail "MPI on the testbed: $(tail -n 5 mpi.txt)"
grep -q '^# level system: ' profile.yaml || fail "the profile has no measured system level"
nothing_left "MPI jobs"

# MPICH across the namespaces ("$TESTBED_MPIEXEC"), where it was built: its own 1 MiB Allgather
# between 2 nodes crosses the 200 Mbit/s link, so it cannot take less than the 1 MiB beyond the
# bucket's 32 KiB at the full rate (40.6 ms); through shared memory it takes well under 1 ms.
mpich_runner=$(dirname "$runner")/piccolo-run-mpi-mpich
if [[ -x $mpich_runner ]] && command -v mpiexec.mpich > /dev/null; then
    bash "$testbed" --name "$name" --rate 200mbit shell "
        \"\$TESTBED_MPIEXEC\" $mpich_runner --library-only --node-size 1 -c allgather -s 1MiB \
            -q --csv mpich.csv" > mpich.txt 2>&1 || fail "MPICH on the testbed: $(tail -n 5 mpich.txt)"
    grep -q '^# mpi_library: MPICH' mpich.csv || fail "mpich.csv was not written by MPICH"
    awk -F, '$4 == "library" && $5 == 1048576 { found = 1; if ($7 < 8 * (1048576 - 32768) / 200e6) fast = 1 }
             END { exit !(found && !fast) }' mpich.csv ||
        fail "MPICH's 1 MiB Allgather did not cross the link: $(grep library mpich.csv)"
    nothing_left "an MPICH job"
fi

# A failing job and a SIGTERM: the status comes back, nothing stays.
bash "$testbed" --name "$name" mpi false > /dev/null 2>&1
[[ $? -ne 0 ]] || fail "a failing job's status was lost"
nothing_left "a failing job"
bash "$testbed" --name "$name" shell "sleep 30" &
sleep 2
kill -TERM $!
wait $!
[[ $? -eq 143 ]] || fail "SIGTERM: status $? (143 expected)"
nothing_left "SIGTERM"
echo "testbed: ok"
