#!/usr/bin/env bash
# Runs the CLI on every case of CORPUS/expected.txt: each must exit with status 2, print exactly
# one line on stderr (at most 500 characters: inputs are echoed cut at 200) containing the
# expected text, and stay within MAX_SECONDS of processor time (user + system, from GNU time: the
# work done, which other jobs on a busy machine do not stretch as they stretch wall time; a run
# that waits instead of working ends at the 20 s timeout, status 124) and MAX_KB of peak memory
# (resident set). Usage: bad_inputs.sh PICCOLO CORPUS [MAX_SECONDS MAX_KB]; limits of "-" are not
# checked (sanitizer builds are slower and bigger by design).
set -u
piccolo=$1
corpus=$2
max_seconds=${3:-2}
max_kb=${4:-524288}
cd "$corpus" || exit 1
usage=$(mktemp)
trap 'rm -f "$usage"' EXIT
passed=0
failed=0
while IFS= read -r line; do
    [[ -z $line || $line == \#* ]] && continue
    input=${line%% ||| *}
    expected=${line#* ||| }
    if [[ $input == args:* ]]; then
        read -r -a args <<<"${input#args: }"
    else
        args=(verify "$input")
    fi
    stderr=$(/usr/bin/time -f '%U %S %M' -o "$usage" timeout 20 "$piccolo" "${args[@]}" 2>&1 >/dev/null)
    status=$?
    read -r user system kb < <(tail -n 1 "$usage")
    seconds=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')
    lines=$(printf '%s' "$stderr" | grep -c '')
    problem=""
    if [[ $status -ne 2 || $lines -ne 1 || $stderr != *"$expected"* ]]; then
        problem="expected status 2, one line containing: $expected"
    elif ((${#stderr} > 500)); then
        problem="the line is ${#stderr} characters long (an input echoed whole?)"
    elif [[ $max_seconds != - ]] && awk -v s="$seconds" -v m="$max_seconds" 'BEGIN { exit !(s > m) }'; then
        problem="took $seconds s of processor time (limit $max_seconds s)"
    elif [[ $max_kb != - ]] && ((kb > max_kb)); then
        problem="peak memory $kb KB (limit $max_kb KB)"
    fi
    if [[ -z $problem ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $input"
        echo "  $problem"
        echo "  got status $status, $lines line(s) in $seconds s of processor time, $kb KB: ${stderr:0:600}"
    fi
done <expected.txt
echo "bad inputs: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
