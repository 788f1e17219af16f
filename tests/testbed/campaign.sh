#!/usr/bin/env bash
# tools/testbed/campaign.sh at small scale: 2 ranks of this host, quick profile, a few sizes.
# Every step must pass and leave its output; the summary must hold a row per step with numbers;
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
for f in profile.yaml measured.csv measured.json accuracy.json accuracy.html tuned/speedup.md nccl.txt; do
    [[ -s out/$f ]] || fail "campaign: no $f"
done
for step in profile measure accuracy tuned nccl; do
    grep -q "^| $step | ok | [0-9.]* | ." out/summary.md || fail "summary: no ok row with a result for $step"
done
grep -q "^| accuracy | ok | .* | captured share 0\.[0-9]* .*absolute error [0-9.]* over 36 cells" out/summary.md ||
    fail "summary: the accuracy row (36 cells: 2 collectives x 3 sizes x 6 candidates at p = 2: ring, k-ring, rd, rm, prd, prm, k = 2)"
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
