#!/usr/bin/env bash
# Tuned vs default: the MPI library's own MPI_Allgather and MPI_Allreduce timed with the tuning
# file piccolo writes for MACHINE and without it, in one run, and the speedup per size with a
# 95 % confidence interval (tools/testbed/speedup.py). Open MPI (the default): the file is its
# coll_tuned dynamic rules, given to the tuned jobs through OMPI_MCA_coll_tuned_* in the
# environment, timed by piccolo-run-mpi. MPICH (--library mpich): the file is its collective
# selection JSON, given through MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE, timed by
# piccolo-run-mpi-mpich; LAUNCHER must then start MPICH jobs (mpiexec.mpich, or
# "$TESTBED_MPIEXEC" inside `testbed.sh shell`).
#
#   tuned_vs_default.sh (--machine FILE | --rules FILE) --nodes N --ppn P [--sizes LIST]
#                       [--rounds R] [--library openmpi|mpich] [--bin DIR] [--out DIR] LAUNCHER...
#
# LAUNCHER starts an MPI job of N x P ranks, e.g. "$TESTBED_MPIRUN" inside `testbed.sh shell`,
# or mpirun.openmpi -n 2. --rules times a rules file of your own instead of piccolo's. The rounds alternate which job goes first (default, tuned; then tuned,
# default), so that a drift of the machine during the run falls on both alike; each round
# contributes one pair of medians, and the speedup of a size is the median of the pairs' ratios
# with a distribution-free 95 % interval (at least 6 rounds). A job that runs past
# TUNED_JOB_TIMEOUT seconds (default 600) is run once more. Writes, under --out: rules.txt
# (Open MPI) or rules.json (MPICH), select.csv (piccolo's choice per size), default.R.csv and tuned.R.csv (piccolo-run-mpi
# --library-only), speedup.csv and speedup.md.
# Exit status: 0, or 2 with one line for a request it refuses, or the failing step's status.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
machine="" rules="" nodes="" ppn="" sizes=8-4MiB rounds=7 bin=$here/../../build/release/bin out=tuned
library=openmpi job_timeout=${TUNED_JOB_TIMEOUT:-600}
usage="usage: tuned_vs_default.sh (--machine FILE | --rules FILE) --nodes N --ppn P [--sizes LIST] [--rounds R] [--library openmpi|mpich] [--bin DIR] [--out DIR] LAUNCHER..."
refuse() {
    echo "tuned_vs_default: $*" >&2
    exit 2
}
count() {  # count FLAG VALUE MIN MAX
    [[ $2 =~ ^[0-9]+$ ]] && (($2 >= $3 && $2 <= $4)) || refuse "$1 '$2': must be an integer in $3..$4"
}
while (($# > 0)); do
    case $1 in
        --machine) machine=${2:-} && shift 2 ;;
        --rules) rules=${2:-} && shift 2 ;;
        --nodes) count --nodes "${2:-}" 1 4096 && nodes=$2 && shift 2 ;;
        --ppn) count --ppn "${2:-}" 1 1024 && ppn=$2 && shift 2 ;;
        --sizes) sizes=${2:-} && shift 2 ;;
        --rounds) count --rounds "${2:-}" 6 100 && rounds=$2 && shift 2 ;;
        --library) [[ ${2:-} == openmpi || ${2:-} == mpich ]] ||
            refuse "--library '${2:-}': openmpi or mpich"
            library=$2 && shift 2 ;;
        --bin) bin=${2:-} && shift 2 ;;
        --out) out=${2:-} && shift 2 ;;
        --) shift && break ;;
        -*) refuse "unknown option '$1' ($usage)" ;;
        *) break ;;
    esac
done
[[ -n $machine$rules && -n $nodes && -n $ppn ]] || refuse "--machine (or --rules), --nodes and --ppn are needed ($usage)"
[[ -z $machine || -z $rules ]] || refuse "--machine and --rules: give one (--rules times that file, --machine writes piccolo's)"
[[ -z $machine || -r $machine ]] || refuse "--machine '$machine': no such file"
[[ -z $rules || -r $rules ]] || refuse "--rules '$rules': no such file"
(($# > 0)) || refuse "no launcher ($usage)"
runner=piccolo-run-mpi emit=openmpi-rules file=rules.txt
[[ $library == mpich ]] && runner=piccolo-run-mpi-mpich emit=mpich-json file=rules.json
for tool in piccolo $runner; do
    [[ -x $bin/$tool ]] || refuse "--bin '$bin': no $tool there (build the release preset)"
done
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [[ -n $rules ]]; then
    rm -f "$out/rules.txt" "$out/rules.json" "$out/select.csv" && cp "$rules" "$out/$file"
else
    rm -f "$out/rules.txt" "$out/rules.json"
    "$bin/piccolo" select -m "$machine" --nodes "$nodes" --ppn "$ppn" -c allgather,allreduce \
        --sizes "$sizes" --style mpi -f csv -o "$out/select.csv" --emit $emit -o "$out/$file" -q
fi

job() {  # job KIND ROUND
    local env=()
    if [[ $1 == tuned && $library == openmpi ]]; then
        env=(OMPI_MCA_coll_tuned_use_dynamic_rules=1
             OMPI_MCA_coll_tuned_dynamic_rules_filename="$out/rules.txt")
    elif [[ $1 == tuned ]]; then
        env=(MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE="$out/rules.json")
    fi
    local try status
    for try in 1 2; do
        status=0
        timeout "$job_timeout" env "${env[@]}" "${launcher[@]}" "$bin/$runner" --library-only \
            --node-size "$ppn" -c allgather,allreduce -s "$sizes" --csv "$out/$1.$2.csv" -q ||
            status=$?
        # A job that hangs (MPICH over UCX's TCP transport on the testbed did, once in about 20
        # jobs) is run once more; its rows come from the run that finished.
        ((status == 124 && try == 1)) || return $status
        echo "tuned_vs_default: the $1 job of round $2 ran past ${job_timeout} s; running it again" >&2
    done
}
launcher=("$@")
for ((r = 1; r <= rounds; ++r)); do
    if ((r % 2)); then job default $r && job tuned $r; else job tuned $r && job default $r; fi
    echo "tuned_vs_default: round $r of $rounds done" >&2
done
python3 "$here/speedup.py" "$out" "$rounds"
