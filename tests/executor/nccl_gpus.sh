#!/usr/bin/env bash
# piccolo-run-nccl's one-line errors (exit status 2) before NCCL is ever called:
#  - no GPU visible (this machine): "no CUDA device ...", run as a single process;
#  - on a GPU machine, two ranks made to share one GPU (CUDA_VISIBLE_DEVICES=0): "2 ranks on HOST
#    but only 1 GPU(s) visible there", where NCCL itself would fail in ncclCommInitRank.
set -u
runner=$1
source "$(dirname "$0")/mpirun.sh"
expect() {  # STATUS STDERR PATTERN WHAT
    local lines
    lines=$(printf '%s' "$2" | grep -c "piccolo-run-nccl: ")
    if [[ $1 -eq 2 && $lines -eq 1 && $2 == *"$3"* ]]; then
        echo "ok ($4): $(printf '%s' "$2" | grep 'piccolo-run-nccl: ')"
        return 0
    fi
    echo "FAIL ($4): expected status 2 and one line with '$3'; got $1, $lines line(s): $2"
    exit 1
}
if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q GPU; then
    stderr=$(CUDA_VISIBLE_DEVICES=0 timeout 60 "${launcher[@]}" -x CUDA_VISIBLE_DEVICES -n 2 \
        "$runner" -s 8 -q 2>&1 >/dev/null)
    expect $? "$stderr" "but only 1 GPU(s) visible there" "two ranks on one GPU"
    exit 0
fi
stderr=$(timeout 60 "$runner" -s 8 -q 2>&1 >/dev/null)
status=$?
lines=$(printf '%s' "$stderr" | grep -c '')
[[ $lines -eq 1 ]] || { echo "FAIL: $lines lines on stderr: $stderr"; exit 1; }
expect $status "$stderr" "no CUDA device" "no GPU"
