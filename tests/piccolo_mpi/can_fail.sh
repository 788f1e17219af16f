#!/usr/bin/env bash
# same_output.sh can fail: its reference `piccolo` is replaced by one that writes one byte more
# at the end of the MPICH tuning file, and the comparison must then fail on that file alone, at
# the one grid point it runs (2 ranks x 1 thread).
# Usage: can_fail.sh LIB PICCOLO PICCOLO_MPI LAUNCHER WORKDIR
set -uo pipefail
lib=$1 piccolo=$2 piccolo_mpi=$3 launcher=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work" || exit 1
altered=$work/piccolo-altered
cat > "$altered" <<SH
#!/usr/bin/env bash
"$piccolo" "\$@" || exit
for arg in "\$@"; do
    if [[ \$arg == */mpich.json ]]; then printf ' ' >> "\$arg"; fi
done
SH
chmod +x "$altered"
bash "$here/same_output.sh" "$lib" "$altered" "$piccolo_mpi" "$launcher" "$work/run" 2x1 \
    > "$work/log" 2>&1
status=$?
expected="FAIL: 2 rank(s) x 1 thread(s): mpich.json differs from piccolo's"
if [[ $status == 0 ]]; then
    echo "FAIL: same_output.sh passed with an altered reference"; cat "$work/log"; exit 1
fi
if [[ $(grep -c '^FAIL' "$work/log") != 1 ]] || ! grep -qxF "$expected" "$work/log"; then
    echo "FAIL: expected exactly the line '$expected'; got:"; cat "$work/log"; exit 1
fi
echo "same_output.sh fails on the altered file alone: $expected"
