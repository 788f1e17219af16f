#!/usr/bin/env bash
# Runs every command of README.md's ```sh blocks, verbatim and in order, in a fresh clone of the
# repository, failing on the first that fails. The two one-line blocks at the top (tools/setup.sh
# and the whole test suite: what CI itself runs, and this test is part of that suite) are
# skipped; the script checks they are still those two lines. Commands run in one bash, so
# `export PATH=...` carries on, from the clone's root.
#   run_readme.sh SOURCE_REPO WORKDIR
# The clone's build uses ccache where installed (CMakeLists.txt: base directory the source tree),
# so the compilations of SOURCE_REPO's own release build are cache hits.
set -uo pipefail
source_repo=$(cd "$1" && pwd) work=$2
rm -rf "$work" && mkdir -p "$work" || exit 1
clone=$work/piccolo
git clone --quiet "$source_repo" "$clone" || { echo "FAIL: git clone $source_repo"; exit 1; }

# Commands: the lines inside ```sh ... ``` fences; a line ending in a backslash continues.
mapfile -t commands < <(awk '
    /^```sh[[:space:]]*$/ { inside = 1; next }
    /^```/ { inside = 0; next }
    inside && NF {
        if (sub(/\\$/, "")) { pending = pending $0; next }
        print pending $0; pending = ""
    }' "$clone/README.md")
skipped=("bash tools/setup.sh && cmake --workflow --preset app && build/release/bin/piccolo select"
    "bash tools/setup.sh && cmake --workflow --preset test && cmake --workflow --preset asan && cmake --workflow --preset fuzz")
for i in 0 1; do
    if [[ ${commands[i]:-} != "${skipped[i]}" ]]; then
        echo "FAIL: README command $((i + 1)) is '${commands[i]:-}', expected '${skipped[i]}'"
        echo "(this script skips the two CI lines at the top; update it with the README)"
        exit 1
    fi
done
commands=("${commands[@]:2}")
((${#commands[@]} > 0)) || { echo "FAIL: no commands after the first two"; exit 1; }

# One script, so that the commands share a shell; each stops it at its first failure.
script=$work/readme-commands.sh
{
    echo 'cd "$1" || exit 1'
    for i in "${!commands[@]}"; do
        printf 'echo %q\n' "README \$ ${commands[i]}"
        printf '%s\n' "${commands[i]}"
        printf 'status=$?; if [[ $status != 0 ]]; then echo "FAIL: README command %d of %d (status $status): %s"; exit 1; fi\n' \
            $((i + 3)) $((${#commands[@]} + 2)) "$(printf '%q' "${commands[i]}")"
    done
    echo "echo \"readme: ${#commands[@]} commands passed (the first 2 are CI's and skipped)\""
} > "$script"
start=$SECONDS
bash "$script" "$clone"
status=$?
echo "readme: $((SECONDS - start)) s"
exit $status
