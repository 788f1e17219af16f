#!/usr/bin/env bash
# The distributed sweep benchmark (tools/bench/README.md, "Distributed sweeps"): one sweep by
# piccolo-mpi under 1 rank and under 2 ranks of 1 thread each (Open MPI), alternated so that both
# see the same background load; wall and CPU time (user + sys, all ranks) of each, the speedup of
# 2 ranks over 1, and whether both wrote the same JSON byte for byte.
# Usage: tools/bench/mpi/run.sh [build-dir] [repeats] [select options...]
#   default: build/release, 1 repeat, the 75,264-rank every-k sweep of the Selector figures
#   (-m dgx-h100 --nodes 9408 --ppn 8).
set -euo pipefail
build=${1:-build/release}
repeats=${2:-1}
shift $(($# < 2 ? $# : 2))
sweep=("$@")
((${#sweep[@]} > 0)) || sweep=(-m dgx-h100 --nodes 9408 --ppn 8)
bin=$build/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # containers run as root

run() {  # ranks: appends "wall cpu" to $tmp/RANKS.times, the JSON to $tmp/RANKS.json
    local ranks=$1
    /usr/bin/time -o "$tmp/time" -f "%e %U %S" mpirun.openmpi --oversubscribe -n "$ranks" \
        "$bin/piccolo-mpi-openmpi" select "${sweep[@]}" -j 1 -q -f json -o "$tmp/$ranks.json"
    awk '{printf "%s %.2f\n", $1, $2 + $3}' "$tmp/time" >>"$tmp/$ranks.times"
}
best() { sort -n "$tmp/$1.times" | head -1; }

echo "sweep: select ${sweep[*]}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
for ((i = 0; i < repeats; i++)); do
    run 1
    echo "  1 rank : $(tail -1 "$tmp/1.times") (wall s, cpu s); load $(cut -d' ' -f1 /proc/loadavg)"
    run 2
    echo "  2 ranks: $(tail -1 "$tmp/2.times") (wall s, cpu s); load $(cut -d' ' -f1 /proc/loadavg)"
done
read -r one one_cpu < <(best 1)
read -r two two_cpu < <(best 2)
echo "1 rank x 1 thread : best $one s wall (cpu $one_cpu s)"
echo "2 ranks x 1 thread: best $two s wall (cpu $two_cpu s)"
echo "speedup           : $(awk -v a="$one" -v b="$two" 'BEGIN {printf "%.2f", a / b}')x (best of $repeats each)"
if cmp -s "$tmp/1.json" "$tmp/2.json"; then
    echo "JSON byte-identical: yes"
else
    echo "JSON byte-identical: NO"
    exit 1
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
