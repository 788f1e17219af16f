#!/usr/bin/env bash
# The CI profile of issue 5: 2 ranks over shared memory, --quick, well under 2 minutes; then the
# YAML must load with the simulator's loader and hold plausible parameters.
set -u
profiler=$1
checker=$2
workdir=$3
mkdir -p "$workdir" && cd "$workdir" || exit 1
rm -f here.yaml here.raw.csv
# Inside containers: shared memory and self only (no network transports to probe), and no
# process binding (the container may not expose the cores to hwloc).
export OMPI_MCA_btl=self,vader
export OMPI_MCA_hwloc_base_binding_policy=none
export OMPI_MCA_rmaps_base_oversubscribe=1
run() {
    timeout 110 mpirun --allow-run-as-root --oversubscribe -n 2 "$@" "$profiler" --quick -q \
        -o here.yaml >profile.log 2>&1
}
start=$(date +%s)
if ! run; then
    # Containers that forbid process_vm_readv (CMA) need vader's copy-in/copy-out path.
    echo "mpirun failed; retrying without single-copy (CMA):"
    tail -5 profile.log
    run --mca btl_vader_single_copy_mechanism none || { cat profile.log; exit 1; }
fi
elapsed=$(($(date +%s) - start))
echo "profile took ${elapsed} s"
if ((elapsed >= 120)); then
    echo "FAIL: --quick took ${elapsed} s (limit 120 s)"
    exit 1
fi
[[ -s here.raw.csv ]] || { echo "FAIL: no raw CSV written"; exit 1; }
# The node pair's reclaim probe: rows at 64 KiB and at the largest size up to 1 MiB.
sizes=$(awk -F, '$1 == "node" && $2 == "reclaim" {print $5}' here.raw.csv | sort -u | tr '\n' ' ')
[[ $sizes == "1048576 65536 " ]] || { echo "FAIL: reclaim rows at sizes '$sizes' (want 65536 and 1048576)"; exit 1; }
grep -q '^reclaim node: ' <(grep -o 'reclaim node: .*' here.yaml) ||
    { echo "FAIL: the profile's report has no 'reclaim node:' line"; exit 1; }
"$checker" here.yaml
