#!/usr/bin/env bash
# The calibration benchmark (tools/bench/README.md, "Calibrate"), on the 16-rank measurement of a
# 16-core machine beside this script (measured-16-ranks.csv: 1,475 cells; profile-16-ranks.yaml):
#  1. a cut of it (8 B and 64 KiB: 143 cells, every algorithm and k) calibrated by the baseline
#     build and by the candidate, in turn, so that both see the same background load: wall and
#     CPU time (user + sys), and the candidate's ratio to the baseline;
#  2. the whole measurement calibrated by the candidate with --threads 1 and with every thread:
#     wall and CPU time, and the two reports byte-identical.
# Usage: tools/bench/calibrate/run.sh BASELINE_BUILD [CANDIDATE_BUILD] [repeats]
#   (default candidate build/release, 1 repeat; the baseline takes minutes on the cut). A
#   baseline from before --threads existed runs with every core of its own accord.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
old=$1/bin/piccolo
new=${2:-build/release}/bin/piccolo
repeats=${3:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
measured=$here/measured-16-ranks.csv
profile=$here/profile-16-ranks.yaml
awk -F, '/^#/ || /^collective,/ || $5 == 8 || $5 == 65536' "$measured" >"$tmp/cut.csv"

run() {  # name command... : appends "wall cpu" to $tmp/name.times, stdout to $tmp/name.out
    local name=$1
    shift
    /usr/bin/time -o "$tmp/time" -f "%e %U %S" "$@" >"$tmp/$name.out"
    awk '{printf "%s %.2f\n", $1, $2 + $3}' "$tmp/time" >>"$tmp/$name.times"
}
best() {  # name -> "wall cpu" of the run with the least CPU time
    sort -n -k2 "$tmp/$1.times" | head -1
}
row() {  # label name [baseline-name]
    read -r wall cpu < <(best "$2")
    printf "%-44s %9.2f %9.2f" "$1" "$wall" "$cpu"
    if [[ -n ${3:-} ]]; then
        read -r bwall bcpu < <(best "$3")
        awk -v w="$wall" -v c="$cpu" -v bw="$bwall" -v bc="$bcpu" \
            'BEGIN {printf "   wall %.2fx, cpu %.2fx faster", bw / w, bc / c}'
    fi
    echo
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
calibrate=(calibrate -m "$profile" --force)
for ((i = 0; i < repeats; i++)); do
    run old "$old" "${calibrate[@]}" --measured "$tmp/cut.csv"
    run new "$new" "${calibrate[@]}" --measured "$tmp/cut.csv"
done
for ((i = 0; i < repeats; i++)); do
    run one "$new" "${calibrate[@]}" --measured "$measured" --threads 1
    run all "$new" "${calibrate[@]}" --measured "$measured"
done
printf "%-44s %9s %9s\n" "run (best CPU time of $repeats)" "wall s" "cpu s"
row "cut, 143 cells: baseline" old
row "cut, 143 cells: candidate" new old
row "1,475 cells: candidate, --threads 1" one
row "1,475 cells: candidate, every thread" all one
if cmp -s "$tmp/one.out" "$tmp/all.out"; then
    echo "reports of 1 and every thread byte-identical: yes"
else
    echo "reports of 1 and every thread byte-identical: NO"
    exit 1
fi
echo "last line, baseline : $(tail -n 1 "$tmp/old.out")"
echo "last line, candidate: $(tail -n 1 "$tmp/new.out")"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
