#!/usr/bin/env bash
# The CLI's shared spellings and their older aliases mean the same thing (same bytes out), select
# --quiet prints nothing, an unwritable output is refused before any work and leaves no file
# behind, counts are singular for one, and an import that changes a value says so on stderr.
#   options.sh PICCOLO SOURCE_DIR WORKDIR
set -uo pipefail
piccolo=$1 source=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
same() {  # same WHAT FILE_A FILE_B
    if [[ -s $2 ]] && cmp -s "$2" "$3"; then ok; else fail "$1: $(diff "$2" "$3" | head -3)"; fi
}

# sim: --json is --format json (and -f json); -p/--ranks 8 is --nodes 2 on delta's 4 per node;
# --ranks-per-node is --ppn.
sim=(sim -c allreduce -a rm -k 2 --bytes 64KiB)
"$piccolo" "${sim[@]}" --nodes 2 --json > json.txt
"$piccolo" "${sim[@]}" --nodes 2 --format json > format.txt
"$piccolo" "${sim[@]}" --nodes 2 -f json > f.txt
"$piccolo" "${sim[@]}" -p 8 --format json > p.txt
"$piccolo" "${sim[@]}" --ranks 8 --nodes 2 --format json > ranks.txt
same "sim --json vs --format json" json.txt format.txt
same "sim --format json vs -f json" json.txt f.txt
same "sim --nodes 2 vs -p 8" json.txt p.txt
same "sim --nodes 2 vs --ranks 8 --nodes 2" json.txt ranks.txt
"$piccolo" "${sim[@]}" --nodes 4 --ppn 2 --json > ppn.txt
"$piccolo" "${sim[@]}" --nodes 4 --ranks-per-node 2 --json > ranks-per-node.txt
same "sim --ppn vs --ranks-per-node" ppn.txt ranks-per-node.txt

# Singular for one.
first=$("$piccolo" sim -a ring --nodes 1 --ppn 2 --bytes 8 | head -n 1)
expected="allgather ring on delta: p = 2 ranks on 1 node, per-rank contribution = 8 bytes, nccl style, contention on"
[[ $first == "$expected" ]] && ok || fail "sim table header: '$first'"
"$piccolo" gen -a ring -p 2 --bytes 1 -o two.xml
line=$("$piccolo" verify two.xml)
[[ $line == "two.xml: OK: allgather ring p=2, 2 transfers, 0 computes, 2 bytes moved; "* ]] && ok ||
    fail "verify line: '$line'"

# machines -m NAME is machines NAME.
"$piccolo" machines delta > positional.txt
"$piccolo" machines -m delta > named.txt
same "machines NAME vs -m NAME" positional.txt named.txt

# select --quiet: nothing on stdout or stderr, the files as without it.
select=(select --nodes 1,2 --sizes 8,64KiB --emit csv)
"$piccolo" "${select[@]}" -o loud.csv > loud.txt 2>&1
"$piccolo" "${select[@]}" -o quiet.csv --quiet > quiet.txt 2>&1
[[ -s loud.txt && ! -s quiet.txt ]] && ok || fail "select --quiet printed: $(head -c 200 quiet.txt)"
same "select --quiet's file" loud.csv quiet.csv

# An unwritable output: one line, exit 2, before the sweep; no file left behind, an existing
# one untouched.
echo keep > existing.txt
"$piccolo" select -o fresh.txt --emit csv -o no-such-dir/sel.csv > out.txt 2> err.txt
status=$?
[[ $status == 2 && $(cat err.txt) == "piccolo: error: no-such-dir/sel.csv: cannot open for writing (check the directory)" ]] &&
    ok || fail "unwritable: status $status, $(cat err.txt)"
[[ ! -e fresh.txt ]] && ok || fail "the check left fresh.txt behind"
"$piccolo" select -o existing.txt --report no-such-dir/r.html 2> /dev/null
[[ $? == 2 && $(cat existing.txt) == keep ]] && ok || fail "existing.txt changed"

# An import that changes a value warns, one line per value, naming file and line.
data=$source/tests/topologies/data
"$piccolo" sim -m "$data/piccl-negative-latency.xml" -a ring -p 2 --bytes 8 > /dev/null 2> warn.txt
cat > expected-warn.txt <<END
piccolo: warning: $data/negative-latency.csv:2: column L: L - o_s - o_r = 3e-06 - 2e-06 - 1.5e-06 = -5e-07 s is below 0; the wire latency for s = 1 is set to 0 (o_s + o_r alone exceed this half round trip)
piccolo: warning: $data/negative-latency.csv:4: column L: L - o_s - o_r = 4e-06 - 3e-06 - 2e-06 = -1e-06 s is below 0; the wire latency for s = 65536 is set to 0 (o_s + o_r alone exceed this half round trip)
END
same "warnings of the PICCL import" expected-warn.txt warn.txt

# select -v lists the costliest jobs (here all three distinct DAGs: rm with k = 2 is rd's, and the
# job is the baseline's, named rd, whatever the order of -a), each with its thread time split and
# its counts; the times vary, the rest does not.
"$piccolo" select --nodes 2 -c allgather -a rm -k 2,4 -s 8,1KiB -v 2> verbose.txt > /dev/null
grep '^piccolo: sweep: allgather ' verbose.txt |
    sed -E 's/: [0-9.]+ s \(generating [0-9.]+, bounding [0-9.]+, simulating [0-9.]+; thread time\)/: T/' |
    LC_ALL=C sort > jobs.txt
cat > expected-jobs.txt <<END
piccolo: sweep: allgather rd at p = 8: T, 2 simulations, 0 left out by lower bounds, 0 stopped
piccolo: sweep: allgather ring at p = 8: T, 2 simulations, 0 left out by lower bounds, 0 stopped
piccolo: sweep: allgather rm k = 4 at p = 8: T, 2 simulations, 0 left out by lower bounds, 0 stopped
END
same "select -v: the costliest jobs" expected-jobs.txt jobs.txt

# -o writes under a temporary name and renames it over the file (tools/piccolo/text_files.cpp):
# the file has the output, no temporary is left, and a symbolic link is written through, not
# replaced.
"$piccolo" select --nodes 2 -c allgather -a rm -k 2 -s 8 -f csv > stdout.csv
echo old > renamed.csv
"$piccolo" select --nodes 2 -c allgather -a rm -k 2 -s 8 -f csv -o renamed.csv
same "select -o over an existing file" stdout.csv renamed.csv
if compgen -G '*.piccolo-tmp-*' > /dev/null; then fail "-o left a temporary: $(ls ./*.piccolo-tmp-*)"; else ok; fi
echo old > target.csv
ln -s target.csv link.csv
"$piccolo" select --nodes 2 -c allgather -a rm -k 2 -s 8 -f csv -o link.csv
same "select -o through a symbolic link" stdout.csv target.csv
if [[ -L link.csv ]]; then ok; else fail "-o replaced the symbolic link link.csv"; fi

echo "cli options: $passed passed, $failed failed"
[[ $failed == 0 ]]
