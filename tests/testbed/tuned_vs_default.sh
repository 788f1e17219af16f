#!/usr/bin/env bash
# tools/testbed/tuned_vs_default.sh and its statistics (speedup.py):
#  1. speedup.py on rounds written by hand: the median ratio and the order-statistic interval,
#     computed by hand below, and the verdicts;
#  2. the script's refusals (one line, exit 2);
#  3. a real run on 2 ranks of this host (6 rounds, 2 sizes): a table of every collective and
#     size, and a tuned job that really reads the file (a rules file naming an Allreduce
#     algorithm Open MPI does not have makes the tuned jobs fail), and the jobs time the library
#     alone, and a job that hangs is run once more;
#  4. the same with MPICH (--library mpich) where piccolo-run-mpi-mpich was built.
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
grep -v '^#' real/tuned.6.csv | cut -d, -f4 | sort -u | tr '\n' ' ' | grep -qx 'library style ' ||
    fail "--library-only timed more than the library's collectives: $(cut -d, -f2,4 real/tuned.6.csv)"

# A job that hangs is run once more: the launcher's first job sleeps past TUNED_JOB_TIMEOUT.
cat > hangs_once.sh << 'EOF'
#!/usr/bin/env bash
[[ -e hung ]] || { touch hung && exec sleep 60; }
exec "$@"
EOF
TUNED_JOB_TIMEOUT=5 timeout 300 bash "$tools/tuned_vs_default.sh" --machine "$machine" --nodes 1 \
    --ppn 2 --sizes 8 --rounds 6 --bin "$bin" --out again bash hangs_once.sh "${launcher[@]}" -n 2 \
    > again.md 2> again.err || fail "a hung job was not run again: $(tail -n 3 again.err)"
grep -qx "tuned_vs_default: the default job of round 1 ran past 5 s; running it again" again.err ||
    fail "no note of the job run again: $(cat again.err)"
[[ $(grep -c '^| all' again.md) -eq 2 ]] || fail "the table after a job run again has not 2 rows"

# 4. MPICH (--library mpich), where piccolo-run-mpi-mpich was built: the same real run with its
# selection JSON, and a JSON naming an algorithm MPICH does not have, which MPICH refuses.
if [[ -x $bin/piccolo-run-mpi-mpich ]] && command -v mpiexec.mpich > /dev/null; then
    timeout 300 bash "$tools/tuned_vs_default.sh" --library mpich --machine "$machine" --nodes 1 \
        --ppn 2 --sizes 8,64KiB --rounds 6 --bin "$bin" --out mpich mpiexec.mpich -n 2 > mpich.md \
        2> mpich.err || fail "a real MPICH run: $(tail -n 3 mpich.err)"
    cat mpich.md
    [[ $(grep -c '^| all' mpich.md) -eq 4 ]] || fail "the MPICH run's table has not 4 rows"
    [[ -s mpich/rules.json && ! -e mpich/rules.txt ]] || fail "MPICH's rules.json missing"
    grep -q '^# mpi_library: MPICH' mpich/tuned.6.csv || fail "the tuned jobs did not run MPICH"
    echo '{"collective=allreduce": {"comm_type=intra": {"comm_size=any": {"avg_msg_size=any":
          {"algorithm=MPIR_Allreduce_intra_none": {}}}}}}' > bad.json
    timeout 120 bash "$tools/tuned_vs_default.sh" --library mpich --rules bad.json --nodes 1 \
        --ppn 2 --sizes 8 --rounds 6 --bin "$bin" --out badm mpiexec.mpich -n 2 > badm.out 2>&1 &&
        fail "the MPICH tuned jobs ran with an impossible rule: the file did not reach the library"
    grep -q 'unrecognized key algorithm=MPIR_Allreduce_intra_none' badm.out ||
        fail "the impossible MPICH rule failed otherwise: $(head -n 3 badm.out)"
fi
echo "tuned_vs_default: ok"
