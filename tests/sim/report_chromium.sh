#!/usr/bin/env bash
# The HTML reports of `select --report` and `compare --report`: self-contained (no http(s) URL,
# no src= attribute), and rendered by headless Chromium with every section and figure present,
# a screenshot taken and no console message. Exit 77 (ctest SKIP) only when Chromium is absent.
set -u
piccolo=$1
chromium=$2
out=$3
if [[ -z $chromium || ! -x $chromium ]]; then
    echo "chromium not found: skipped"
    exit 77
fi
rm -rf "$out" && mkdir -p "$out" || exit 1
failed=0
fail() {
    echo "FAIL: $*"
    failed=1
}

# $1 report, $2 figures expected, $3... section ids
check_report() {
    local report=$1 figures=$2
    shift 2
    grep -Eq 'https?://|src=' "$report" && fail "$report refers to something outside it"
    local home="$out/home"
    mkdir -p "$home"
    HOME=$home timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --dump-dom \
        --enable-logging=stderr --v=0 "file://$report" >"$report.dom" 2>"$report.log" ||
        fail "$report: chromium --dump-dom failed"
    grep -E 'CONSOLE|Uncaught' "$report.log" && fail "$report: console messages (above)"
    for id in "$@"; do
        grep -q "<section id=\"$id\">" "$report.dom" || fail "$report: no section '$id'"
    done
    local count
    count=$(grep -c '<figure id=' "$report.dom")
    [[ $count -eq $figures ]] || fail "$report: $count figures, expected $figures"
    [[ $(grep -c '<svg ' "$report.dom") -eq $figures ]] || fail "$report: an SVG is missing"
    HOME=$home timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
        --screenshot="$report.png" --window-size=1400,2000 "file://$report" 2>/dev/null
    [[ -s $report.png ]] || fail "$report: no screenshot"
}

sections=(summary command best-map speedup differences machines)
"$piccolo" compare -m delta --variant 'system.G*0.5' -n 4,16 -s 8-1MiB \
    --report "$out/compare.html" >/dev/null || fail "compare --report"
# 2 collectives x 2 machines: a map and a speedup chart each; 2 difference maps.
check_report "$out/compare.html" 10 "${sections[@]}"
grep -q 'delta\[system.G\*0.5\]' "$out/compare.html.dom" || fail "compare: machine name missing"
grep -q 'piccolo compare -m delta --variant' "$out/compare.html.dom" || fail "no command line"
"$piccolo" select -m delta --set node.radix=2 -n 2 -s 8-64KiB --report "$out/select.html" \
    >/dev/null || fail "select --report"
check_report "$out/select.html" 4 "${sections[@]}"
grep -q 'radix: 2' "$out/select.html.dom" || fail "select: machine parameters missing"
[[ $failed -eq 0 ]] && echo "reports: all checks passed"
exit $failed
