#!/usr/bin/env bash
# A tuning file piccolo writes for one collective is complete: under the file of
# `piccolo select -c C` alone, for each of the six collectives C, collectives_check runs all six
# and Barrier correctly. MPICH reads the file instead of its built-in tree and asserts on a
# collective the file lacks (sim/emit/src/mpich_defaults.cpp says where), so the file carries
# MPICH's own rules (its generic.json) for everything it does not tune, Allgather and Allreduce
# included; Open MPI keeps its fixed decision for a collective the rules file leaves out.
#
#   complete.sh mpich|openmpi PICCOLO COLLECTIVES_CHECK LAUNCHER WORKDIR
set -uo pipefail
lib=$1 piccolo=$2 check=$3 launcher=$4 work=$5
ranks=3
source "$(dirname "$0")/library.sh"  # kind, file, name, run
mkdir -p "$work" && cd "$work" || exit 1

fail() { echo "FAIL: $*" >&2; exit 1; }

# Allreduce of 64 KiB: MPICH's own tree runs reduce_scatter_allgather (count >= pof2).
sizes=(--allgather 65536 --allreduce 65536 --bcast 65536 --reduce 4 --reduce_scatter 4
       --alltoall 65536)
for c in allgather allreduce bcast reduce reduce_scatter alltoall; do
    "$piccolo" select -c $c --nodes 1 --ppn $ranks --sizes 4,64KiB --emit "$kind" -o "$c.$file" \
        --quiet 2> "$c.notes" || fail "piccolo select -c $c: $(cat "$c.notes")"
    run "$c.$file" "${sizes[@]}" > "$c.out" 2>&1 ||
        fail "$name with the $kind file of -c $c alone: the collectives failed: $(tail -5 "$c.out")"
    echo "$name loaded the $kind file of -c $c alone; Allgather, Allreduce, Bcast, Reduce," \
        "Reduce_scatter_block, Alltoall, Barrier on $ranks ranks: correct"
done
echo "PASS"
