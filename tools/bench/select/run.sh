#!/usr/bin/env bash
# The selector benchmark (tools/bench/README.md, "Selector"), on a release build:
#  1. `piccolo select` with no arguments, end to end (all cores): wall time;
#  2. `piccolo select --threads 1` and `--threads 2`, alternated so that both see the same
#     background load: wall times and the speedup;
#  3. the three outputs byte-identical;
#  4. select_bench: the same sweep through the library, with the time split and counts.
# Best and median of R runs each; the CPU time (user + sys) shows whether the run had its cores.
# Usage: tools/bench/select/run.sh [build-dir] [repeats]   (default build/release, 3)
set -euo pipefail
build=${1:-build/release}
repeats=${2:-3}
bin=$build/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {  # name command... : appends "wall cpu" to $tmp/name.times, stdout to $tmp/name.out
    local name=$1
    shift
    /usr/bin/time -o "$tmp/time" -f "%e %U %S" "$@" >"$tmp/$name.out"
    awk '{printf "%s %.2f\n", $1, $2 + $3}' "$tmp/time" >>"$tmp/$name.times"
}
summary() {  # name -> "best X s (cpu Y s), median Z s"
    sort -n "$tmp/$1.times" | awk '{w[NR] = $1; c[NR] = $2}
        END {printf "best %.2f s wall (cpu %.2f s), median %.2f s", w[1], c[1], w[int((NR + 1) / 2)]}'
}
best() { sort -n "$tmp/$1.times" | head -1 | cut -d' ' -f1; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
for ((i = 0; i < repeats; i++)); do
    run default "$bin/piccolo" select
    run one "$bin/piccolo" select --threads 1
    run two "$bin/piccolo" select --threads 2
done
echo "piccolo select            : $(summary default)"
echo "piccolo select --threads 1: $(summary one)"
echo "piccolo select --threads 2: $(summary two)"
echo "speedup 2 threads over 1  : $(awk -v a="$(best one)" -v b="$(best two)" 'BEGIN {printf "%.2f", a / b}')x (best of $repeats each)"
if cmp -s "$tmp/one.out" "$tmp/two.out" && cmp -s "$tmp/one.out" "$tmp/default.out"; then
    echo "outputs byte-identical    : yes"
else
    echo "outputs byte-identical    : NO"
    exit 1
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== select_bench (library, same sweep)"
"$bin/select_bench" 2 "$repeats"
