#!/usr/bin/env bash
# Runs the CLI on every case of bad-inputs/expected.txt: each must exit with status 2, print
# exactly one line on stderr containing the expected text, and finish within 20 s.
set -u
piccolo=$1
corpus=$2
cd "$corpus" || exit 1
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
    stderr=$(timeout 20 "$piccolo" "${args[@]}" 2>&1 >/dev/null)
    status=$?
    lines=$(printf '%s' "$stderr" | grep -c '')
    if [[ $status -eq 2 && $lines -eq 1 && $stderr == *"$expected"* ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $input"
        echo "  expected status 2, one line containing: $expected"
        echo "  got status $status, $lines line(s): $stderr"
    fi
done <expected.txt
echo "bad inputs: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
