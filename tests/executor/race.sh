#!/usr/bin/env bash
# A race made real: the 3-rank ring Allgather with one dependency removed. Transfer 4 (rank 1
# forwards block 0 to rank 2) no longer waits for transfer 0, which brings block 0 to rank 1, so
# rank 1 sends its buffer before the block arrived: the poison it was filled with reaches rank 2.
# The verifier must refuse the file (exit 2); run anyway, the executor must report rank 2's wrong
# byte (exit 1). The intact file must pass.
set -u
runner=$1 piccolo=$2 workdir=$3
source "$(dirname "$0")/mpirun.sh"
mkdir -p "$workdir" && cd "$workdir" || exit 1
"$piccolo" gen -c allgather -a ring -p 3 -b 8 --style mpi -o ring3.xml || exit 1
sed 's/<transfer id="4" size="8" src="1" dst="2" deps="0"/<transfer id="4" size="8" src="1" dst="2" deps="-1"/' \
    ring3.xml >racy.xml
cmp -s ring3.xml racy.xml && { echo "FAIL: the dependency to remove is not in ring3.xml"; exit 1; }
failed=0
run() {  # run WANTED_STATUS WANTED_TEXT ARGS...
    local want=$1 text=$2
    shift 2
    local out status
    out=$(timeout 60 "${launcher[@]}" -n 3 "$runner" --check-only --no-reference -q "$@" 2>&1)
    status=$?
    if [[ $status -ne $want || $out != *"$text"* ]]; then
        echo "FAIL: $* gave status $status (want $want) and: $out"
        failed=1
    else
        echo "ok: $* -> $want"
    fi
}
run 0 "" --schedule ring3.xml
run 2 "not in its dependency closure" --schedule racy.xml
run 1 "rank 2: wrong byte at offset 0 of the Allgather result (block 0, byte 0): expected 0x01, got 0xff" \
    --schedule racy.xml --allow-race
exit $failed
