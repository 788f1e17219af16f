#!/usr/bin/env bash
# The docs engine on every case of the property tests (test_properties.cpp): the engine tests
# write each random schedule and machine they draw, then compare.py replays them from the docs
# alone and checks every rank's finish against piccolo sim.
#   property_cases.sh ENGINE_TESTS PICCOLO PYTHON3
set -u
engine_tests=$1 piccolo=$2 python=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
PICCOLO_PROPERTY_CASES=$dir "$engine_tests" -tc="random graphs*" >/dev/null || exit 1
"$python" "$(dirname "$0")/compare.py" --cases-dir "$dir" --piccolo "$piccolo"
