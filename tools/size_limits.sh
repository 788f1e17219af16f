#!/usr/bin/env bash
# Lists the source files over 500 lines and the functions over 80 lines outside tests/ (the
# house rules of DEVELOPERS.md: a file or function longer than that hides more than one idea).
# Functions are found by Universal Ctags (Debian's universal-ctags; tools/setup.sh installs it),
# which gives each definition's first and last line. Exits 1 when it lists anything.
#   tools/size_limits.sh [REPO_ROOT]
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
max_file=500 max_function=80
command -v ctags > /dev/null || { echo "size_limits: ctags not found (tools/setup.sh installs universal-ctags)"; exit 2; }
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cu' | grep -v '^tests/')
((${#sources[@]} > 0)) || { echo "size_limits: no sources under $root"; exit 2; }
found=0
while read -r lines file; do
    if [[ $file != total ]] && ((lines > max_file)); then
        echo "$file: $lines lines (at most $max_file)"
        found=1
    fi
done < <(wc -l "${sources[@]}")
while read -r first last name file; do
    if ((last - first + 1 > max_function)); then
        echo "$file:$first: function $name is $((last - first + 1)) lines (at most $max_function)"
        found=1
    fi
done < <(ctags -x --_xformat='%{line} %{end} %{name} %{input}' --kinds-C++=f --languages=C++ \
    --langmap=C++:+.cu "${sources[@]}")
if ((found == 0)); then
    echo "size_limits: ${#sources[@]} files, none over $max_file lines, no function over $max_function"
fi
exit "$found"
