#!/usr/bin/env bash
# Hierarchy handling on one host: 4 ranks, --node-size 2 makes ranks {0,1} and {2,3} two
# "nodes". The profile must hold a measured node and system level (no table copied), the
# device radix, the node radix (probed between the two nodes) and the concurrent node probe
# (ranks 0 and 1: one transfer, then both directions at once). Timing is not checked: four
# spinning ranks on a small machine measure contention, not the machine.
set -u
profiler=$1
checker=$2
workdir=$3
mkdir -p "$workdir" && cd "$workdir" || exit 1
rm -f four.yaml four.raw.csv
export OMPI_MCA_btl=self,vader
export OMPI_MCA_hwloc_base_binding_policy=none
if ! timeout 110 mpirun --allow-run-as-root --oversubscribe -n 4 "$profiler" --quick -q \
    --node-size 2 --max-size 65536 -o four.yaml >four.log 2>&1; then
    cat four.log
    exit 1
fi
failed=0
need() {  # need PATTERN FILE WHAT
    grep -Eq "$1" "$2" || { echo "FAIL: $3 (no /$1/ in $2)"; failed=1; }
}
need '^# level: node 2$' four.raw.csv "node level with fanout 2 in the raw header"
need '^system,prtt,' four.raw.csv "system level measured"
need '^node,prtt,' four.raw.csv "node level measured"
need '^node,radix,' four.raw.csv "node radix probed between the two nodes"
need '^device,radix,' four.raw.csv "device radix probed"
need '^node,concurrent,1,0,' four.raw.csv "concurrent node probe: one transfer alone"
need '^node,concurrent,2,0,' four.raw.csv "concurrent node probe: the pair of node 0 exchanging"
need '^# concurrent node ' four.yaml "concurrent node probe in the report"
need '^device_radix: [0-9]+$' four.yaml "device_radix in the profile"
need '^    radix: [0-9]+$' four.yaml "node radix in the profile"
grep -q "table copied" four.yaml && { echo "FAIL: a level was not measured"; failed=1; }
"$checker" --structure-only four.yaml || failed=1
exit $failed
