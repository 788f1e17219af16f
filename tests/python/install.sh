#!/usr/bin/env bash
# `cmake --install` into a fresh prefix installs the Python package where python3 imports it,
# and the installed copy works without the build tree.
#   install.sh CMAKE BUILD_DIR WORKDIR PYTHON3 PYTHON_INSTALL_DIR
set -euo pipefail
cmake=$1 build=$2 work=$3 python=$4 dir=$5
rm -rf "$work" && mkdir -p "$work/elsewhere"
"$cmake" --install "$build" --prefix "$work/prefix" > "$work/install.log"
package=$work/prefix/$dir/piccolo
ls "$package"/_core*.so "$package/__init__.py" "$package/_rows.py" > /dev/null
cd "$work/elsewhere"
PYTHONPATH=$work/prefix/$dir "$python" -c '
import piccolo, sys
assert piccolo.__file__.startswith(sys.argv[1]), piccolo.__file__
s = piccolo.generate("allgather", "ring", p=4, size=8)
r = piccolo.simulate(s, "delta")
assert r.makespan > 0
print("installed package:", piccolo.__file__, "makespan", r.makespan)
' "$package"
