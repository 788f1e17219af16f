#!/usr/bin/env bash
# `cmake --install` into a fresh prefix gives working programs: piccolo (run from elsewhere, so
# nothing is found through the build tree), the profilers, the executor and piccolo-mpi where
# built (piccolo-mpi of each MPI library run by its launcher on 2 ranks), the plot
# script and the docs.
#   install.sh CMAKE BUILD_DIR WORKDIR PYTHON3_OR_EMPTY
set -uo pipefail
cmake=$1 build=$2 work=$3 python=${4:-}
rm -rf "$work" && mkdir -p "$work/elsewhere" || exit 1
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
    { cat "$work/install.log"; echo "FAIL: cmake --install"; exit 1; }
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
cd "$work/elsewhere" || exit 1
version=$("$prefix/bin/piccolo" --version)
[[ $version == "piccolo 0.1.0" ]] || fail "piccolo --version: '$version'"
"$prefix/bin/piccolo" select --nodes 1 --sizes 8 --quiet --emit csv -o sel.csv ||
    fail "installed piccolo select"
[[ $(head -c 11 sel.csv) == "collective," ]] || fail "sel.csv: $(head -c 80 sel.csv)"
for program in piccolo-profile-mpi piccolo-profile-nccl piccolo-run-mpi piccolo-mpi \
    piccolo-mpi-openmpi piccolo-mpi-mpich; do
    if [[ -x $build/bin/$program ]]; then
        [[ -x $prefix/bin/$program ]] || fail "$program built but not installed"
        "$prefix/bin/$program" --help > /dev/null 2>&1 || fail "$prefix/bin/$program --help"
    fi
done
# The installed piccolo-mpi of each library, started by that library's launcher on 2 ranks,
# writes what the installed piccolo wrote.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # containers run as root
for launcher_lib in "mpirun.openmpi --oversubscribe|openmpi" "mpiexec.mpich|mpich"; do
    launcher=${launcher_lib%|*} lib=${launcher_lib#*|}
    [[ -x $build/bin/piccolo-mpi-$lib ]] && command -v "${launcher%% *}" > /dev/null || continue
    # shellcheck disable=SC2086  # the launcher's words
    timeout 120 $launcher -n 2 "$prefix/bin/piccolo-mpi-$lib" select --nodes 1 --sizes 8 \
        --quiet --emit csv -o "mpi-$lib.csv" > /dev/null 2>&1 ||
        fail "installed piccolo-mpi-$lib select on 2 ranks"
    cmp -s sel.csv "mpi-$lib.csv" || fail "installed piccolo-mpi-$lib: csv differs from piccolo's"
done
[[ -x $prefix/bin/piccolo-plot-selection ]] || fail "no piccolo-plot-selection"
if [[ -n $python ]]; then
    "$python" "$prefix/bin/piccolo-plot-selection" sel.csv -o sel.png > /dev/null &&
        [[ -s sel.png ]] || fail "piccolo-plot-selection sel.csv"
fi
[[ -f $prefix/share/doc/piccolo/README.md && -f $prefix/share/doc/piccolo/architecture.md ]] ||
    fail "docs not installed"
echo "install: $(find "$prefix" -type f | wc -l) files, $failed failures"
[[ $failed == 0 ]]
