#!/usr/bin/env bash
# `piccolo sim FILE` reads what `piccolo gen` writes past 4,096 ranks, where an Allgather has more
# (rank, block) pairs than a reader keeps with the payload (2^24): sim reads files without it.
# Its replay of the file must equal the replay of the same schedule generated in process, byte
# for byte of the JSON; verify still refuses the payload file with a pointer to sim.
#   large_files.sh PICCOLO WORKDIR
set -uo pipefail
piccolo=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
same() {  # same WHAT FILE_A FILE_B
    if [[ -s $2 ]] && cmp -s "$2" "$3"; then ok; else fail "$1: $(diff "$2" "$3" | head -3)"; fi
}

# 65,536 ranks without payload (1 M transfers), and 5,000 ranks with it (25 M block pairs).
"$piccolo" gen -a rm -k 2 -p 65536 -b 8 --style nccl --no-payload -o rm-65536.xml || fail "gen 65536"
"$piccolo" sim rm-65536.xml --json > file-65536.json || fail "sim rm-65536.xml"
"$piccolo" sim -a rm -k 2 -p 65536 -b 8 --json > memory-65536.json
same "sim of the 65,536-rank file vs in process" file-65536.json memory-65536.json

"$piccolo" gen -a rm -k 2 -p 5000 -b 8 --style nccl -o rm-5000.xml || fail "gen 5000"
"$piccolo" sim rm-5000.xml --json > file-5000.json || fail "sim rm-5000.xml"
"$piccolo" sim -a rm -k 2 -p 5000 -b 8 --json > memory-5000.json
same "sim of the 5,000-rank payload file vs in process" file-5000.json memory-5000.json

"$piccolo" verify rm-5000.xml > verify.txt 2>&1
status=$?
expected="piccolo: error: rm-5000.xml:1: nodes x blocks: 5000 x 5000 is more than the 16777216 (rank, block) pairs a schedule may have when its blocks are read (piccolo sim reads the file without them)"
[[ $status == 2 && $(cat verify.txt) == "$expected" ]] && ok ||
    fail "verify: status $status, $(cat verify.txt)"

echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
