#!/usr/bin/env bash
# Held-out model check: the profile and the collectives come from two different runs. Run 1:
# piccolo-profile-mpi --quick on 2 ranks fits a machine profile from ping-pong trains. Run 2:
# piccolo-run-mpi times real Allgather and Allreduce schedules (ring, rd) at 8 B, 64 KiB and
# 1 MiB on 2 ranks. `piccolo accuracy` simulates the same schedules on the profile; every
# prediction must be within the tolerance of its measurement:
#   64 KiB and 1 MiB: within a factor of 2 either way (on this 2-core VM three quiet runs of
#     2026-11-24 landed within 0.53..1.36: the profile's run-to-run spread is +-15 % and a
#     collective adds a reduction or a second message the ping-pong never had);
#   8 B: prediction between measured/8 and measured*2. The model predicts too fast here (0.64..0.74
#     of the measured time on those runs): a collective's time includes the barrier's exit skew
#     and the executor's request bookkeeping, which a half round trip of the profile does not.
# On a busy 2-core box the ranks lose whole scheduler time slices (milliseconds) in either run. A
# run where any time (measured, predicted or the MPI library's) exceeds 2 ms (the slowest case,
# 1 MiB, takes ~0.25 ms idle; a time slice is 3 ms or more) or any 8 B time exceeds 20 us (40x its
# idle value) measured the scheduler, not the network: the test is skipped (exit 77).
set -u
profiler=$1 runner=$2 piccolo=$3 workdir=$4
source "$(dirname "$0")/../executor/mpirun.sh"
mkdir -p "$workdir" && cd "$workdir" || exit 1
rm -f heldout.yaml heldout.raw.csv measured.csv accuracy.json
timeout 110 "${launcher[@]}" -n 2 "$profiler" --quick -q -o heldout.yaml >profile.log 2>&1 ||
    { cat profile.log; exit 1; }
timeout 60 "${launcher[@]}" -n 2 "$runner" -c allgather,allreduce -a ring,rd -s 8,64KiB,1MiB \
    --csv measured.csv -q || exit 1
"$piccolo" accuracy --measured measured.csv -m heldout.yaml --json accuracy.json >/dev/null ||
    exit 1
python3 - accuracy.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
def busy():
    for size in doc["sizes"]:
        limit = 20e-6 if size["bytes"] == 8 else 2e-3
        times = [size["library_s"] or 0] + [t for c in size["candidates"]
                                             for t in (c["measured_s"], c["predicted_s"])]
        if max(times) > limit:
            return f"{max(times) * 1e6:.0f} us at {size['bytes']} B, above {limit * 1e6:g} us"
    return None
worst = []
for size in doc["sizes"]:
    for c in size["candidates"]:
        measured, predicted = c["measured_s"], c["predicted_s"]
        low, high = (1 / 8, 2) if size["bytes"] < 4096 else (1 / 2, 2)
        ratio = predicted / measured
        ok = low <= ratio <= high
        print(f"{size['collective']:9} {size['bytes']:>8} B {c['algorithm']:5} measured "
              f"{measured * 1e6:9.3f} us, predicted {predicted * 1e6:9.3f} us, ratio "
              f"{ratio:6.2f} (allowed {low:.3f}..{high:g}){'' if ok else '  OUT'}")
        if not ok:
            worst.append(ratio)
if busy():
    print(f"skipped: the machine was busy ({busy()} in one of the runs): the ranks lost "
          "scheduler time slices, so the times measure the scheduler, not the network")
    sys.exit(77)
if worst:
    print(f"FAIL: {len(worst)} prediction(s) outside the tolerance")
    sys.exit(1)
print("ok: every held-out prediction within its tolerance")
PY
