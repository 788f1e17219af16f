#!/usr/bin/env bash
# tools/plot_selection.py draws what the selection says: the points it plots (--data) are exactly
# the simulated rows of the example CSV (every algorithm at its best k, the selection flagged), the
# JSON of the same run gives the same points, and the SVG carries each panel's title, every
# algorithm in the legend, the machine and the axis labels.
#   plot_content.sh PYTHON3 PLOT_SELECTION_PY EXAMPLE.csv EXAMPLE.json WORKDIR
set -uo pipefail
python=$1 plot=$2 example_csv=$3 example_json=$4 work=$5
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

"$python" "$plot" "$example_csv" -o csv.svg --data csv.points > out.txt 2>&1 ||
    { cat out.txt; echo "FAIL: plotting $example_csv"; exit 1; }
"$python" "$plot" "$example_json" -o json.png --data json.points > out.txt 2>&1 ||
    { cat out.txt; echo "FAIL: plotting $example_json"; exit 1; }

# The example's columns: 1 collective, 2 size_bytes, 6 nodes, 7 ppn, 8 ranks, 10 algorithm, 11 k,
# 13 time_s (empty: not simulated), 14 speedup_vs_baseline, 16 best.
awk -F, 'NR > 1 && $13 != "" {print $1","$6","$7","$8","$10","$2","$11","$14","$16}' \
    "$example_csv" | sort > expected.points
[[ -s expected.points ]] || fail "no simulated rows in $example_csv"
tail -n +2 csv.points | sort > plotted.points
cmp -s expected.points plotted.points ||
    fail "points plotted from the CSV differ from its rows: $(diff expected.points plotted.points | head -3)"
cmp -s csv.points json.points || fail "the JSON of the same run plots other points than the CSV"
selections=$(awk -F, 'NR > 1 && $13 != "" {print $1, $6, $2}' "$example_csv" | sort -u | wc -l)
best=$(grep -c ',1$' plotted.points)
[[ $best == "$selections" ]] || fail "$best points flagged best, but $selections selections"

# matplotlib's SVG keeps each text as a comment beside its glyphs.
for text in "allgather, 2 nodes x 4 = 8 ranks" "allgather, 16 nodes x 4 = 64 ranks" \
    "allreduce, 2 nodes x 4 = 8 ranks" "allreduce, 16 nodes x 4 = 64 ranks" \
    ring k-ring rd rm prd prm "speedup over best of ring, rd" \
    "message size (per-rank contribution)" "message size (vector size)" \
    "piccolo select on delta: each algorithm at its best k (big markers: the selection)"; do
    grep -qF -- "<!-- $text -->" csv.svg || fail "csv.svg has no text '$text'"
done
lines=$(grep -c '<g id="line2d_' csv.svg)
[[ $lines -gt 0 ]] || fail "csv.svg draws no lines"
echo "plot content: $(wc -l < plotted.points) points, $selections selections, $failed failures"
[[ $failed == 0 ]]
