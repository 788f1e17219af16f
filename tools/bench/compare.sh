#!/usr/bin/env bash
# Compares two release builds on the benchmark cases, alternating them so that both see the same
# background load: prints, per case, the best CPU time (user + sys) of each and their ratio.
# Usage: tools/bench/compare.sh BASELINE_BUILD CANDIDATE_BUILD [repeats]   (default 3)
# A baseline built before implementation styles existed ignores engine_bench's style argument:
# its schedules are the pipelined ones, and its RM schedule is the one the nccl style generates
# now: "small pipelined", "ring4096 pipelined" and "rm1m nccl" replay the same DAGs in both.
# e.g. build an older commit in a worktree (git worktree add --detach /tmp/old COMMIT) and run
#   tools/bench/compare.sh /tmp/old/build/release build/release
# The piccolo cases replay FIFO lanes in both builds: a build whose `piccolo` has --set gets
# `--set sharing=fifo` (delta's default lane model is fair sharing now; builds without --set know
# only FIFO lanes), and engine_bench's cases fix the lane model themselves. With a baseline that
# has --set (and so fair sharing and cpu overheads), the fair-sharing and cpu-overhead cases at the
# end run too: cpu on every level, and on the node level only (each transfer's steps then go to
# the model of its level).
set -euo pipefail
old=$1/bin
new=$2/bin
repeats=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cases=(
    "schedule_bench 1024 1"
    "engine_bench ring4096"
    "engine_bench ring4096 pipelined"
    "engine_bench rm1m"
    "engine_bench rm1m pipelined"
    "engine_bench rm1m nccl"
    "piccolo sim -a ring --nodes 1024 --bytes 2MiB"
    "piccolo sim -a rm -k 2 --nodes 262144 --bytes 2MiB"
    "piccolo select --threads 1"
)
fair_cases=(
    "piccolo sim -a rm -k 256 --nodes 64 --bytes 1KiB --set sharing=fair"
    "piccolo select -n 64 -s 64MiB -c allgather -a rm -k 256 --set sharing=fair"
    "piccolo select -n 16 --threads 1 --set sharing=fair"
    "engine_bench fair256"
    "piccolo sim -a ring --nodes 1024 --bytes 2MiB --set sharing=fair"
)
cpu_cases=(
    "piccolo sim -a ring --nodes 1024 --bytes 2MiB --set node.overhead=cpu --set system.overhead=cpu"
    "piccolo sim -a rm -k 4 --nodes 65536 --bytes 64KiB --set node.overhead=cpu"
)
has_set() { "$1/piccolo" sim --help 2>/dev/null | grep -q -- '--set'; }
pinned() {  # dir case -> the case, FIFO lanes pinned where the build can say so
    if [[ $2 == piccolo* && $2 != *sharing=* ]] && has_set "$1"; then
        echo "$2 --set sharing=fifo"
    else
        echo "$2"
    fi
}
cpu() {  # dir case -> appends "cpu seconds, peak KB"
    local dir=$1 case=$2 out=$3 command
    command=$(pinned "$dir" "$case")
    # shellcheck disable=SC2086
    /usr/bin/time -o "$tmp/time" -f "%U %S %M" $dir/$command >/dev/null
    awk '{printf "%.3f %d\n", $1 + $2, $3}' "$tmp/time" >>"$out"
}
best() { sort -n "$1" | head -1; }

# The 64-device case takes a quarter of a millisecond, far below what the process's CPU time
# resolves (10 ms, mostly start-up): it is judged by the simulate time engine_bench prints, the
# best of its 200 runs, best again over the repeats, in each style.
simulate_time() {  # dir style -> seconds
    # shellcheck disable=SC2086
    $1/engine_bench small $2 | awk '/generate/ {for (i = 1; i < NF; ++i) if ($i == "simulate") print $(i + 1)}'
}
best_simulate() {
    local dir=$1 style=$2 best=
    for ((r = 0; r < repeats; r++)); do
        t=$(simulate_time "$dir" "$style")
        best=$(awk -v a="$t" -v b="${best:-$t}" 'BEGIN {print (a < b) ? a : b}')
    done
    echo "$best"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
printf "%-52s %12s %12s %7s %10s %10s\n" case "baseline s" "candidate s" ratio "base MB" "cand MB"
for style in pipelined mpi; do
    a=$(best_simulate "$old" $style)
    b=$(best_simulate "$new" $style)
    printf "%-52s %12s %12s %7.3f   (simulate time, best of 200 x %d runs)\n" \
        "engine_bench small $style: simulate" "${a}" "${b}" \
        "$(awk -v a="$a" -v b="$b" 'BEGIN {print b / a}')" "$repeats"
done
if has_set "$old"; then cases+=("${fair_cases[@]}" "${cpu_cases[@]}"); fi
for i in "${!cases[@]}"; do
    for ((r = 0; r < repeats; r++)); do
        cpu "$old" "${cases[$i]}" "$tmp/$i.old"
        cpu "$new" "${cases[$i]}" "$tmp/$i.new"
    done
    read -r a am < <(best "$tmp/$i.old")
    read -r b bm < <(best "$tmp/$i.new")
    printf "%-52s %12.3f %12.3f %7.3f %10.0f %10.0f\n" "${cases[$i]}" "$a" "$b" \
        "$(awk -v a="$a" -v b="$b" 'BEGIN {print b / a}')" "$((am / 1024))" "$((bm / 1024))"
done
