#!/usr/bin/env bash
# One prepared accuracy campaign for a many-core machine (e.g. 16 cores and a GPU, reached with
# the `device` tool), every step timed and its output kept under OUT:
#   1. profile:  piccolo-profile-mpi on N ranks -> profile.yaml (+ profile.raw.csv)
#   2. measure:  piccolo-run-mpi, every algorithm and valid k of both collectives, SIZES
#                -> measured.csv (+ .json), the library's own collectives among the rows
#   3. accuracy: piccolo accuracy of the measurement against the profile -> accuracy.{csv,json,html}
#   4. calibrate: piccolo calibrate of the profile to the measurement, with its cross-validation
#      -> calibrated.yaml, calibration.txt (the fit report). Always --force: the campaign cannot
#      measure again, so a measurement flagged noisy is fitted anyway and summary.md says so.
#   5. tuned vs default: tools/testbed/tuned_vs_default.sh on the profile, TUNED_SIZES
#      (default 8 B to 4 MiB in steps of 8) -> tuned/speedup.md
#   6. GPU error paths: piccolo-profile-nccl and piccolo-run-nccl with 2 ranks on one GPU (or
#      none) must exit 2 with one line -> nccl.txt
# and summary.md: each step's status, seconds and headline numbers. Each step has a time limit
# (40, 170, 20, 90, 100 and 50 s; on a 16-core machine at 16 ranks the profile took 6 s and the
# measurement 134 s): the campaign ends within 8 minutes whatever happens.
#
#   campaign.sh [--ranks N] [--sizes LIST] [--tuned-sizes LIST] [--rounds R] [--quick]
#               [--bin DIR] OUT LAUNCHER...
#
# LAUNCHER starts MPI jobs and takes -n N after it: mpirun.openmpi --allow-run-as-root
# --oversubscribe here, orterun on a machine that got Open MPI from shared/device/ompi-bundle.sh
# (source its env.sh first). --quick: the profiler's quick mode and a runner budget of 20 ms and
# at most 30 runs per case (for a test; the numbers are then rough). A step that fails is recorded and the campaign goes on; the exit status is the
# number of failed steps (0: all passed), or 2 with one line for a request it refuses.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ranks=16 sizes=8-4MiB tuned_sizes=8,64,512,4KiB,32KiB,256KiB,1MiB,4MiB rounds=6 quick=no bin=$here/../../build/release/bin
usage="usage: campaign.sh [--ranks N] [--sizes LIST] [--tuned-sizes LIST] [--rounds R] [--quick] [--bin DIR] OUT LAUNCHER..."
refuse() {
    echo "campaign: $*" >&2
    exit 2
}
while (($# > 0)); do
    case $1 in
        --ranks) [[ ${2:-} =~ ^[0-9]+$ ]] && ((${2} >= 2)) || refuse "--ranks '${2:-}': an integer >= 2"
            ranks=$2 && shift 2 ;;
        --sizes) sizes=${2:-} && shift 2 ;;
        --tuned-sizes) tuned_sizes=${2:-} && shift 2 ;;
        --rounds) rounds=${2:-} && shift 2 ;;
        --quick) quick=yes && shift ;;
        --bin) bin=${2:-} && shift 2 ;;
        -*) refuse "unknown option '$1' ($usage)" ;;
        *) break ;;
    esac
done
(($# >= 2)) || refuse "OUT and a launcher are needed ($usage)"
out=$1
shift
launcher=("$@")
for tool in piccolo piccolo-profile-mpi piccolo-run-mpi; do
    [[ -x $bin/$tool ]] || refuse "--bin '$bin': no $tool there (build the release preset)"
done
mkdir -p "$out" && out=$(cd "$out" && pwd) || refuse "cannot create '$out'"
summary=$out/summary.md
failed=0
{
    echo "# piccolo campaign on $(hostname), $(date -u +%FT%TZ)"
    echo
    echo "$(nproc) cores, $ranks ranks, sizes $sizes, launcher: ${launcher[*]}"
    echo
    echo "| step | status | seconds | result |"
    echo "|---|---|---|---|"
} > "$summary"

step() {  # step NAME LIMIT_SECONDS COMMAND...: runs it, logs NAME.log, one summary row
    local name=$1 limit=$2 start status
    shift 2
    start=$(date +%s%N)
    timeout "$limit" "$@" > "$out/$name.log" 2>&1
    status=$?
    local tenths=$((($(date +%s%N) - start) / 100000000))
    local seconds=$((tenths / 10)).$((tenths % 10))
    ((status == 0)) || failed=$((failed + 1))
    local verdict=ok
    ((status == 124)) && verdict="timed out after $limit s"
    ((status != 0 && status != 124)) && verdict="failed ($status)"
    echo "| $name | $verdict | $seconds | $(headline "$name") |" >> "$summary"
    echo "campaign: $name: $verdict in $seconds s" >&2
}

headline() {  # one line of numbers from a step's output
    case $1 in
        profile) grep -c '^#   segment' "$out/profile.yaml" 2>/dev/null | sed 's/$/ fitted segments/' ;;
        measure) [[ -s $out/measured.csv ]] && echo "$(grep -vc '^#\|^collective' "$out/measured.csv") rows" ;;
        accuracy) python3 - "$out/accuracy.json" <<'PY' 2> /dev/null
import json, math, statistics, sys
doc = json.load(open(sys.argv[1]))
cells = [c for s in doc["sizes"] for c in s["candidates"] if c["measured_s"] > 0 and c["predicted_s"] > 0]
error = math.exp(statistics.fmean(abs(math.log(c["predicted_s"] / c["measured_s"])) for c in cells))
rho = [s["spearman"] for s in doc["sizes"] if s["spearman"] is not None]
share = doc["geomean_captured_share"]
print(f"captured share {share['all']:.3f} (allgather {share['allgather']:.3f}, allreduce "
      f"{share['allreduce']:.3f}); absolute error {error:.2f} over {len(cells)} cells; mean "
      f"Spearman {statistics.fmean(rho) if rho else float('nan'):.2f}; noisy: {doc['noisy']}")
PY
            ;;
        calibrate) local report=$out/calibration.txt
            echo "$(sed -n 's/^error, exp(mean |log(predicted\/measured)|): /error /p' "$report" 2>/dev/null)$(
                sed -n 's/^warning: noisy timings, forced: /; measurement flagged noisy, fitted anyway: /p' \
                    "$report" 2>/dev/null)" ;;
        tuned) tail -n 1 "$out/tuned/speedup.md" 2>/dev/null ;;
        nccl) tr '\n' ' ' < "$out/nccl.txt" 2>/dev/null | cut -c1-300 ;;
    esac
}

profile_args=(-q -o "$out/profile.yaml")
# A budget of 50 ms and at most 40 runs per case: every candidate of both collectives at 16
# ranks, 8 B..4 MiB, took 134 s on a 16-core H200 host (2026-11-28); the runner's default
# budget ran past the step's 170 s there.
run_args=(-c allgather,allreduce -s "$sizes" --csv "$out/measured.csv" --json "$out/measured.json" -q)
if [[ $quick == yes ]]; then
    profile_args+=(--quick)
    run_args+=(--budget 0.02 --max-runs 30)
else
    run_args+=(--budget 0.05 --max-runs 40)
fi
step profile 40 "${launcher[@]}" -n "$ranks" "$bin/piccolo-profile-mpi" "${profile_args[@]}"
step measure 170 "${launcher[@]}" -n "$ranks" "$bin/piccolo-run-mpi" "${run_args[@]}"
step accuracy 20 "$bin/piccolo" accuracy --measured "$out/measured.csv" -m "$out/profile.yaml" \
    --csv "$out/accuracy.csv" --json "$out/accuracy.json" --report "$out/accuracy.html"
# The table goes to calibration.txt, which the headline reads; the step's log keeps stderr.
# shellcheck disable=SC2016 # $0 and $1 are expanded by the inner shell
step calibrate 90 bash -c '"$0" calibrate --measured "$1/measured.csv" -m "$1/profile.yaml" \
    --force -o "$1/calibrated.yaml" > "$1/calibration.txt"' "$bin/piccolo" "$out"
step tuned 100 bash "$here/tuned_vs_default.sh" --machine "$out/profile.yaml" --nodes 1 \
    --ppn "$ranks" --sizes "$tuned_sizes" --rounds "$rounds" --bin "$bin" --out "$out/tuned" \
    "${launcher[@]}" -n "$ranks"
step nccl 50 bash "$here/nccl_paths.sh" "$bin" "$out/nccl.txt" "${launcher[@]}"
echo "campaign: $failed step(s) failed; $summary" >&2
exit "$failed"
