#!/usr/bin/env bash
# Where CI's time goes: runs .ci/run's steps one by one in a fresh clone of the committed tree,
# with an empty ccache (a fresh machine's), and prints the seconds of each configure, build and
# test step, the ten slowest tests of each suite, and the total.
#   tools/ci_timing.sh [WORKDIR]      (default: a new folder under /tmp, removed at the end)
# It takes as long as CI (about 20 minutes on 2 cores). Its figures are in docs/architecture.md.
set -euo pipefail
source_repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d /tmp/piccolo-ci-timing.XXXXXX)}
keep=${1:+yes}
cleanup() { [[ -n $keep ]] || rm -rf "$work"; }
trap cleanup EXIT
mkdir -p "$work"
git clone --quiet "$source_repo" "$work/piccolo"
export CCACHE_DIR=$work/ccache CI=true
cd "$work/piccolo"

total=0
step() {  # step NAME COMMAND...: runs it, logs it, adds its seconds
    local name=$1 start=$SECONDS
    shift
    if ! "$@" > "$work/$name.log" 2>&1; then
        tail -n 30 "$work/$name.log"
        echo "ci_timing: $name failed (log: $work/$name.log)"
        keep=yes
        exit 1
    fi
    local took=$((SECONDS - start))
    total=$((total + took))
    printf '%-22s %5d s\n' "$name" "$took"
}
slowest() {  # the ten slowest tests of a ctest log
    grep -E 'Test +#[0-9]+:' "$work/$1.log" | sed -E 's/^.*Test +#[0-9]+: //' |
        awk '{ t = $(NF - 1); $NF = ""; $(NF - 1) = ""; sub(/ \.+ .*$/, ""); printf "%8.1f s  %s\n", t, $0 }' |
        sort -rn | head -n 10
}

step setup bash tools/setup.sh
for preset in release asan fuzz; do
    step "$preset-configure" cmake --preset "$preset"
    step "$preset-build" cmake --build --preset "$preset"
    step "$preset-test" ctest --preset "$preset"
done
printf '%-22s %5d s (%d min %d s)\n' total "$total" $((total / 60)) $((total % 60))
for preset in release asan fuzz; do
    echo "slowest tests, $preset:"
    slowest "$preset-test"
    grep -E 'tests passed|tests failed' "$work/$preset-test.log"
done
