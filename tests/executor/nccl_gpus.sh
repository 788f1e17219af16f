#!/usr/bin/env bash
# piccolo-run-nccl's one-line errors (exit status 2) before NCCL is ever called, as
# tools/testbed/nccl_paths.sh checks them for a campaign:
#  - no GPU visible (this machine): "no CUDA device ...", run as a single process;
#  - on a GPU machine, two ranks made to share one GPU (CUDA_VISIBLE_DEVICES=0): "2 ranks on HOST
#    but only 1 GPU(s) visible there", where NCCL itself would fail in ncclCommInitRank.
#   nccl_gpus.sh PICCOLO_RUN_NCCL
set -u
runner=$1
source "$(dirname "$0")/mpirun.sh"
result=$(mktemp) && trap 'rm -f "$result"' EXIT
bash "$(dirname "$0")/../../tools/testbed/nccl_paths.sh" "$(dirname "$runner")" "$result" \
    --only "$(basename "$runner")" "${launcher[@]}"
