#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time: run.sh TARGET SECONDS SEED_DIR WORK_DIR.
# Fails (non-zero) on any finding: a crash, a sanitizer report, a leak, an input slower than
# 10 s or one that takes more than 1 GiB. The seed corpus is only read; new inputs go to WORK_DIR.
set -euo pipefail
target=$1 seconds=$2 seeds=$3 work=$4
mkdir -p "$work/corpus" "$work/artifacts"
"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" "$seeds" 2>"$work/log" ||
    {
        status=$?
        tail -n 60 "$work/log"
        echo "fuzz: $(basename "$target") found a problem; the input is in $work/artifacts/"
        exit "$status"
    }
grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$work/log" | tr '\n' ' '
echo "($(basename "$target"), ${seconds} s)"
