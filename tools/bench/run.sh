#!/usr/bin/env bash
# Runs the schedule and engine benchmarks of a release build and prints wall time and peak RSS
# (GNU time) for each big case. Usage: tools/bench/run.sh [build-dir]   (default build/release)
set -euo pipefail
build=${1:-build/release}
bin=$build/bin
rss() {  # command... -> prints "wall s, peak RSS MB" of the whole process
    /usr/bin/time -f "  process: %e s wall, %M KB peak RSS" "$@"
}
echo "== schedules (1024-rank ring allgather)"
rss "$bin/schedule_bench" 1024 5
echo "== engine"
rss "$bin/engine_bench" small
rss "$bin/engine_bench" ring4096
rss "$bin/engine_bench" rm1m
echo "== the same through the CLI"
rss "$bin/piccolo" sim -a ring --nodes 1024 --bytes 2MiB >/dev/null
rss "$bin/piccolo" sim -a rm -k 2 --nodes 262144 --bytes 2MiB >/dev/null
