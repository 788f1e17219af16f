#!/usr/bin/env bash
# piccolo sim --json must be byte-identical across runs (and across thread settings of the
# environment, which the engine must ignore).
set -u
piccolo=$1
run() { "$piccolo" sim -c allreduce -a prm -k 4 --nodes 8 --bytes 1MiB --json; }
a=$(run)
b=$(OMP_NUM_THREADS=1 TBB_NUM_THREADS=1 run)
c=$(OMP_NUM_THREADS=2 run)
if [[ -n $a && $a == "$b" && $a == "$c" ]]; then
    echo "determinism: 1 passed, 0 failed"
else
    echo "determinism: 0 passed, 1 failed"
    diff <(echo "$a") <(echo "$b") | head
    exit 1
fi
