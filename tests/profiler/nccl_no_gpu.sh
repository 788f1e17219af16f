#!/usr/bin/env bash
# piccolo-profile-nccl's one-line errors (exit status 2), as tools/testbed/nccl_paths.sh checks
# them for a campaign: without a GPU (or without a CUDA driver) one process says "no CUDA
# device"; on a GPU machine two ranks made to share GPU 0 are refused before NCCL is called.
#   nccl_no_gpu.sh PICCOLO_PROFILE_NCCL
set -u
profiler=$1
source "$(dirname "$0")/../executor/mpirun.sh"
result=$(mktemp) && trap 'rm -f "$result"' EXIT
bash "$(dirname "$0")/../../tools/testbed/nccl_paths.sh" "$(dirname "$profiler")" "$result" \
    --only "$(basename "$profiler")" "${launcher[@]}"
