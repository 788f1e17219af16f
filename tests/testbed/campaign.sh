#!/usr/bin/env bash
# tools/testbed/campaign.sh at small scale: 2 ranks of this host, quick profile, a few sizes.
# Every step must pass and leave its output; the summary must hold a row per step with numbers
# (calibrate's: the errors before, after and held out, and whether the timings were noisy);
# the GPU error paths must be the ones for this machine (no GPU: one process, "no CUDA device").
# And its refusals. tools/testbed/pack.sh must pack every binary with its libraries.
#   campaign.sh PICCOLO_BIN_DIR WORKDIR
source "$(dirname "$0")/prologue.sh"

bash "$tools/campaign.sh" --ranks 1 out mpirun > /dev/null 2> err.txt
[[ $? -eq 2 && $(wc -l < err.txt) -eq 1 ]] && grep -qF -- "--ranks '1': an integer >= 2" err.txt ||
    fail "--ranks 1: $(cat err.txt)"
bash "$tools/campaign.sh" out > /dev/null 2> err.txt
[[ $? -eq 2 ]] && grep -qF "OUT and a launcher are needed" err.txt || fail "no launcher: $(cat err.txt)"

timeout 400 bash "$tools/campaign.sh" --ranks 2 --quick --sizes 8,64KiB,1MiB --tuned-sizes 8,64KiB \
    --bin "$bin" out "${launcher[@]}" 2> campaign.err
status=$?
cat out/summary.md
[[ $status -eq 0 ]] || fail "campaign: status $status: $(tail -n 5 campaign.err)"
for f in profile.yaml measured.csv measured.json accuracy.json accuracy.html calibrated.yaml \
    calibration.txt tuned/speedup.md nccl.txt; do
    [[ -s out/$f ]] || fail "campaign: no $f"
done
for step in profile measure accuracy calibrate tuned nccl; do
    grep -q "^| $step | ok | [0-9.]* | ." out/summary.md || fail "summary: no ok row with a result for $step"
done
# The captured share lies in (0, 1]: 1.000 when every size's predicted best was the measured best.
grep -Eq "^\| accuracy \| ok \| .* \| captured share (0\.[0-9]+|1\.0+) .*absolute error [0-9.]+ over 36 cells" out/summary.md ||
    fail "summary: the accuracy row (36 cells: 2 collectives x 3 sizes x 6 candidates at p = 2: ring, k-ring, rd, rm, prd, prm, k = 2)"
grep -q "^| calibrate | ok | .* | error uncalibrated [0-9.]*, fitted on every cell [0-9.]*; held out: one algorithm left out [0-9.]*, by size [0-9.]*" out/summary.md ||
    fail "summary: the calibrate row (the errors before, after and held out)"
grep -q "^# fitted: node.time x[0-9.]*, node.G x[0-9.]*, compute x[0-9.]*$" out/calibrated.yaml ||
    fail "calibrated.yaml: no record of the fitted factors (node.time, node.G, compute at p = 2 on one node)"
if grep -q "^warning: noisy timings" out/calibration.txt; then
    grep -q "^| calibrate | .*; measurement flagged noisy, fitted anyway: " out/summary.md ||
        fail "summary: a noisy measurement calibrated without saying so"
fi
if ! nvidia-smi -L > /dev/null 2>&1; then
    [[ $(grep -c "(no GPU, 1 process): ok, exit 2: .*no CUDA device" out/nccl.txt) -eq 2 ]] ||
        fail "the GPU error paths: $(cat out/nccl.txt)"
fi

bash "$tools/pack.sh" "$bin" packed > /dev/null || fail "pack.sh"
for tool in piccolo piccolo-profile-mpi piccolo-run-mpi; do
    missing=$(LD_LIBRARY_PATH=packed/lib ldd "packed/bin/$tool" | grep "not found")
    [[ -x packed/bin/$tool && -z $missing ]] || fail "pack.sh: $tool: $missing"
done
[[ -e packed/lib/libyaml-cpp.so.0.7 || -n $(ls packed/lib/libyaml-cpp.so.* 2> /dev/null) ]] ||
    fail "pack.sh: yaml-cpp not packed"
echo "campaign: ok"
