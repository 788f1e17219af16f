#!/usr/bin/env bash
# tools/plot_selection.py reads every selection output of piccolo select (CSV, JSON, YAML), plots
# the same points from each (--data) and refuses each tuning file with one line on stderr, no
# traceback, exit status 2.
#   plot_inputs.sh PICCOLO PYTHON3 PLOT_SELECTION_PY WORKDIR
set -uo pipefail
piccolo=$1 python=$2 plot=$3 work=$4
mkdir -p "$work" && cd "$work" || exit 1
"$piccolo" select --nodes 1,2 --sizes 8,1KiB -o table.txt --emit csv -o sel.csv --emit json \
    -o sel.json --emit yaml -o sel.yaml --emit mpich-json -o tuning.json --emit openmpi-rules \
    -o rules.txt 2> /dev/null || { echo "FAIL: piccolo select"; exit 1; }
"$piccolo" select --nodes 1 --sizes 8 --emit piccl-env -o piccl.env > /dev/null 2>&1 ||
    { echo "FAIL: piccolo select piccl-env"; exit 1; }
status=0
for f in sel.csv sel.json sel.yaml; do
    if "$python" "$plot" "$f" -o "$f.png" --data "$f.points" > out.txt 2>&1 && [[ -s $f.png ]] &&
        [[ $(wc -l < "$f.points") -gt 1 ]] && cmp -s sel.csv.points "$f.points"; then
        echo "plotted $f"
    else
        echo "FAIL: $f (not the points of sel.csv?): $(cat out.txt)"; status=1
    fi
done
declare -A kinds=([tuning.json]=mpich-json [rules.txt]=openmpi-rules [piccl.env]=piccl-env)
for f in tuning.json rules.txt piccl.env; do
    "$python" "$plot" "$f" -o x.png > out.txt 2> err.txt
    rc=$?
    lines=$(wc -l < err.txt)
    if [[ $rc -eq 2 && $lines -eq 1 ]] && grep -q -- "--emit ${kinds[$f]}), not a selection" err.txt &&
        ! grep -q Traceback err.txt; then
        echo "refused $f: $(cat err.txt)"
    else
        echo "FAIL: $f: exit $rc, $lines lines: $(cat err.txt)"; status=1
    fi
done
exit $status
