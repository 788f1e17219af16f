# Sourced first by the testbed tests that take PICCOLO_BIN_DIR WORKDIR: sets bin, work and
# tools (tools/testbed), the MPI launcher of tests/executor/mpirun.sh, an empty WORKDIR as the
# current folder, and fail MESSAGE (prints FAIL: MESSAGE, exit 1).
set -u
bin=$1 work=$2
tools=$(cd "$(dirname "$0")/../../tools/testbed" && pwd)
source "$(dirname "$0")/../executor/mpirun.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
