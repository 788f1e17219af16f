#!/usr/bin/env bash
# Without a GPU (or without a CUDA driver) the NCCL profiler exits with status 2 and one line
# saying "no CUDA device". On a GPU machine this test has nothing to check and passes.
set -u
profiler=$1
if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q GPU; then
    echo "GPU present: nothing to check"
    exit 0
fi
stderr=$(timeout 60 "$profiler" --quick -o /dev/null 2>&1 >/dev/null)
status=$?
lines=$(printf '%s' "$stderr" | grep -c '')
if [[ $status -eq 2 && $lines -eq 1 && $stderr == *"no CUDA device"* ]]; then
    echo "ok: $stderr"
    exit 0
fi
echo "FAIL: expected status 2 and one line with 'no CUDA device'; got $status, $lines line(s): $stderr"
exit 1
