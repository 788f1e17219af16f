#!/usr/bin/env bash
# `piccolo select` on a terminal: after 2 s a progress bar with the share done and the time
# left at the pace so far; none when stderr is not a terminal. `script` gives the run a terminal.
set -euo pipefail
piccolo=$1
work=$2
nodes=${3:-64}  # the sanitizer builds, several times slower, give a smaller sweep
rm -rf "$work" && mkdir -p "$work"

# A sweep of several seconds on two cores (64 nodes, every default, one thread).
script -qec "$piccolo select --nodes $nodes --threads 1 -o $work/table.txt" /dev/null >"$work/tty"
tr '\r' '\n' <"$work/tty" >"$work/lines"
if ! grep -aqE '^piccolo select: \[#*\.*\] +[0-9]+%, about [0-9]+ s left' "$work/lines"; then
    echo "no progress line with the time left on the terminal; got:" >&2
    head -c 400 "$work/lines" >&2
    exit 1
fi
grep -q "best" "$work/table.txt" || { echo "the table was not written" >&2; exit 1; }

# Not a terminal: no bar at all.
"$piccolo" select --nodes "$nodes" --threads 1 -o "$work/table2.txt" 2>"$work/stderr"
if grep -q "piccolo select: \[" "$work/stderr"; then
    echo "a progress bar on a stderr that is not a terminal" >&2
    exit 1
fi
echo "progress bar: time left shown on a terminal, nothing otherwise"
