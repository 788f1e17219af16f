#!/usr/bin/env bash
# tools/testbed/tuned_vs_default.sh and its statistics (speedup.py):
#  1. speedup.py on rounds written by hand: the median ratio and the order-statistic interval,
#     computed by hand below, and the verdicts;
#  2. the script's refusals (one line, exit 2);
#  3. a real run on 2 ranks of this host (6 rounds, 2 sizes): a table of every collective and
#     size, and a tuned job that really reads the file (a rules file naming an Allreduce
#     algorithm Open MPI does not have makes the tuned jobs fail).
#   tuned_vs_default.sh PICCOLO_BIN_DIR WORKDIR
source "$(dirname "$0")/prologue.sh"

# 1. Hand-made rounds. allgather 8 B: ratios 2, 1, 0.5, 1.25, 0.8, 4 -> sorted 0.5 0.8 1 1.25 2 4,
# median (1 + 1.25) / 2 = 1.125; with 6 rounds j = 1 (P(B < 1) = 1/64 <= 2.5 % < P(B < 2) =
# 7/64), interval (x_(1), x_(6)) = (0.5, 4): same. allreduce 8 B: ratios 1.1 .. 1.6: median 1.35,
# (1.1, 1.6): faster. allreduce 64 B: ratios 0.5 .. 0.95: median 0.725, (0.5, 0.95): slower.
mkdir hand && cd hand || exit 1
tuned_ag=(1 2 4 1.6 2.5 0.5) ratio_ar=(1.1 1.2 1.3 1.4 1.5 1.6) ratio_slow=(0.5 0.6 0.7 0.75 0.9 0.95)
for r in 1 2 3 4 5 6; do
    for kind in default tuned; do
        {
            echo "# piccolo-run-mpi measurements"
            echo "# ranks: 4"
            echo "collective,algorithm,k,style,bytes,type,median_s,ci_low_s,ci_high_s,runs,staged_bytes,dropped_waits"
            if [[ $kind == default ]]; then a=2 b=3 c=1; else
                a=${tuned_ag[r - 1]}
                b=$(python3 -c "print(3 / ${ratio_ar[r - 1]})") c=$(python3 -c "print(1 / ${ratio_slow[r - 1]})")
            fi
            echo "allgather,MPI_Allgather,0,library,8,byte,$a,0,0,10,0,0"
            echo "allreduce,MPI_Allreduce,0,library,8,double,$b,0,0,10,0,0"
            echo "allreduce,MPI_Allreduce,0,library,64,double,$c,0,0,10,0,0"
        } > $kind.$r.csv
    done
done
# The rules file: Allgather left to Open MPI; Allreduce recursive doubling below 64 B, then ring.
printf '2\n0\n1\n0 1\n0 0 0 0\n2 # allreduce\n1\n0 2\n0 3 0 0\n64 4 0 0 # ring\n' > rules.txt
python3 "$tools/speedup.py" . 6 > table.md || fail "speedup.py on hand-made rounds"
cat table.md
expect() {  # expect COLLECTIVE BYTES FILE_NAMES SPEEDUP LOW HIGH VERDICT
    grep -qF "| $1 | $2 | - | $3 | " table.md || fail "no row for $1 $2 naming $3"
    grep "| $1 | $2 | " table.md | grep -qF "| $4 ($5-$6) | $7 |" ||
        fail "$1 $2: expected $4 ($5-$6) $7: $(grep "| $1 | $2 | " table.md)"
}
expect allgather 8 "Open MPI's own" 1.125 0.500 4.000 same
expect allreduce 8 recursive_doubling 1.350 1.100 1.600 faster
expect allreduce 64 ring 0.725 0.500 0.950 slower
grep -qF "1 of 3 sizes faster with piccolo's file, 1 slower" table.md || fail "the summary line"
# 9 rounds: j = 2 (P(B < 2) = 10/512 <= 2.5 % < P(B < 3) = 46/512): interval (x_(2), x_(8)).
for r in 7 8 9; do cp default.1.csv default.$r.csv && cp tuned.1.csv tuned.$r.csv; done
python3 "$tools/speedup.py" . 9 > nine.md || fail "speedup.py, 9 rounds"
# allreduce 8 B ratios 1.1 1.2 1.3 1.4 1.5 1.6 and 1.1 x3: sorted 1.1 1.1 1.1 1.1 1.2 1.3 1.4 1.5 1.6
grep "| allreduce | 8 | " nine.md | grep -qF "| 1.200 (1.100-1.500) | faster |" ||
    fail "9 rounds: $(grep '| allreduce | 8 | ' nine.md)"
python3 "$tools/speedup.py" . 5 > /dev/null 2>&1 && fail "speedup.py took 5 rounds"
cd .. || exit 1

# 2. Refusals.
refused() {  # refused EXPECTED ARGS...
    local expected=$1
    shift
    bash "$tools/tuned_vs_default.sh" "$@" > out.txt 2> err.txt
    local status=$?
    [[ $status -eq 2 && $(wc -l < err.txt) -eq 1 ]] || fail "$*: status $status, $(cat err.txt)"
    grep -qF -- "$expected" err.txt || fail "$*: '$(cat err.txt)' does not say '$expected'"
}
refused "--machine (or --rules), --nodes and --ppn are needed" --nodes 1 --ppn 2 mpirun
refused "--rounds '5': must be an integer in 6..100" --rounds 5
refused "--machine 'nowhere.yaml': no such file" --machine nowhere.yaml --nodes 1 --ppn 2 mpirun
refused "no launcher" --machine "$0" --nodes 1 --ppn 2
refused "--bin '/nonexistent': no piccolo there" --bin /nonexistent --machine "$0" --nodes 1 --ppn 2 mpirun
for extra in "-a ring" "--no-reference" "-k 2"; do  # the runner's --library-only runs no schedule
    # shellcheck disable=SC2086
    timeout 60 "${launcher[@]}" -n 1 "$bin/piccolo-run-mpi" --library-only $extra > lib.out 2>&1
    status=$?
    [[ $status -eq 2 ]] || fail "piccolo-run-mpi --library-only $extra: status $status"
    grep -q "^piccolo-run-mpi: error: --library-only" lib.out ||
        fail "piccolo-run-mpi --library-only $extra: $(head -n 2 lib.out)"
done

# 3. A real run: 2 ranks, 6 rounds, 2 sizes, on the committed profile of the development VM.
machine=$(cd "$(dirname "$0")/../../configs/machines" && pwd)/laptop-measured-2026-11-22.yaml
timeout 300 bash "$tools/tuned_vs_default.sh" --machine "$machine" --nodes 1 --ppn 2 --sizes 8,64KiB \
    --rounds 6 --bin "$bin" --out real "${launcher[@]}" -n 2 > real.md 2> real.err ||
    fail "a real run: $(tail -n 3 real.err)"
cat real.md
[[ $(grep -c '^| all' real.md) -eq 4 ]] || fail "the real run's table has not 4 rows"
[[ -s real/rules.txt && -s real/select.csv && -s real/tuned.6.csv ]] || fail "outputs missing"
printf '1\n2\n1\n0\n1\n0 7 0 0\n' > bad.rules  # Allreduce algorithm 7: Open MPI 4.1 has none
# Both ranks abort at once; mpirun's relay of the library's own error message sometimes fails
# ("ORTE_ERROR_LOG: Data unpack would read past end of buffer", show_help.c) and prints nothing,
# so piccolo-run-mpi's error handler prints each rank's line itself (executor/mpi/sweep.cpp).
OMPI_MCA_orte_base_help_aggregate=0 timeout 120 bash "$tools/tuned_vs_default.sh" --rules bad.rules --nodes 1 --ppn 2 --sizes 8 \
    --rounds 6 --bin "$bin" --out bad "${launcher[@]}" -n 2 > bad.out 2>&1 &&
    fail "the tuned jobs ran with an impossible rule: the file did not reach the library"
grep -q MPI_ERR_ARG bad.out || fail "the impossible rule failed without MPI_ERR_ARG: $(tail -n 3 bad.out)"
echo "tuned_vs_default: ok"
