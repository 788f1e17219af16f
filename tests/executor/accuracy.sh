#!/usr/bin/env bash
# End to end: piccolo-run-mpi measures every candidate on P ranks, then `piccolo accuracy` scores
# the committed profile of this machine against the measurement. Checks that the CSV, JSON and
# HTML report are written and well-formed, that they name the machine, ranks, profile and date,
# and (NOISY=1) that a run with more ranks than cores is flagged as noisy.
# Usage: accuracy.sh RUNNER PICCOLO P PROFILE NOISY WORKDIR
set -u
runner=$1 piccolo=$2 p=$3 profile=$4 noisy=$5 workdir=$6
source "$(dirname "$0")/mpirun.sh"
mkdir -p "$workdir" && cd "$workdir" || exit 1
rm -f "measured$p.csv" "accuracy$p".*
timeout 50 "${launcher[@]}" -n "$p" "$runner" -c allgather,allreduce -s 8,64KiB --warmup 1 \
    --min-runs 5 --max-runs 20 --budget 0.2 --csv "measured$p.csv" -q || exit 1
"$piccolo" accuracy --measured "measured$p.csv" -m "$profile" --csv "accuracy$p.csv" \
    --json "accuracy$p.json" --report "accuracy$p.html" >"accuracy$p.txt" || exit 1
cat "accuracy$p.txt"
fail() { echo "FAIL: $*"; exit 1; }
# Two collectives x two sizes, one row each; every captured share in (0, 1].
rows=$(grep -vc '^#\|^collective,' "accuracy$p.csv")
[[ $rows -eq 4 ]] || fail "$rows rows in accuracy$p.csv (4 expected)"
awk -F, '!/^#/ && !/^collective,/ && !($8 > 0 && $8 <= 1) { bad = 1 } END { exit bad }' \
    "accuracy$p.csv" || fail "a captured share outside (0, 1]"
grep -q "^# ranks: $p\$" "accuracy$p.csv" || fail "the CSV does not state the ranks"
grep -q "^# profile: $profile\$" "accuracy$p.csv" || fail "the CSV does not state the profile"
grep -q '^# date: 20[0-9][0-9]-' "accuracy$p.csv" || fail "the CSV does not state the date"
grep -q "^# host: $(hostname)\$" "accuracy$p.csv" || fail "the CSV does not state the host"
grep -q "($p ranks, " "accuracy$p.html" || fail "the report does not state the ranks"
# The JSON parses; every <svg> of the report is well-formed XML with points in it.
python3 - "accuracy$p.json" "accuracy$p.html" <<'PY' || exit 1
import json, re, sys, xml.etree.ElementTree as ET
doc = json.load(open(sys.argv[1]))
assert len(doc["sizes"]) == 4, doc["sizes"]
html = open(sys.argv[2]).read()
svgs = re.findall(r"<svg.*?</svg>", html, re.S)
assert len(svgs) == 4, f"{len(svgs)} figures (4 expected)"
for svg in svgs:
    ET.fromstring(svg)
assert sum(svg.count("<circle") for svg in svgs) == sum(len(s["candidates"]) for s in doc["sizes"])
print(f"ok: {len(svgs)} well-formed figures")
PY
if [[ $noisy -eq 1 && $(nproc) -lt $p ]]; then
    grep -q '^# noisy: yes$' "accuracy$p.csv" || fail "$p ranks on $(nproc) cores not flagged noisy"
    grep -q 'NOISY: .*oversubscribed' "accuracy$p.txt" || fail "the table does not say why it is noisy"
fi
# Bcast and Reduce from the last rank: the measurement names its root, and accuracy scores both
# collectives (that it predicts from that root: tests/sim/test_accuracy.cpp, by hand).
root=$((p - 1))
timeout 50 "${launcher[@]}" -n "$p" "$runner" -c bcast,reduce --root "$root" -s 8,4KiB --warmup 1 \
    --min-runs 5 --max-runs 20 --budget 0.2 --csv "rooted$p.csv" -q || exit 1
grep -q "^# root: $root\$" "rooted$p.csv" || fail "the rooted measurement does not state its root"
"$piccolo" accuracy --measured "rooted$p.csv" -m "$profile" --csv "rooted-accuracy$p.csv" \
    >/dev/null || exit 1
scored=$(grep -v '^#\|^collective,' "rooted-accuracy$p.csv" | cut -d, -f1 | sort | uniq -c | xargs)
[[ $scored == "2 bcast 2 reduce" ]] || fail "rooted rows scored: '$scored' (2 bcast 2 reduce expected)"
echo "ok: accuracy report on $p ranks, Bcast and Reduce from root $root"
