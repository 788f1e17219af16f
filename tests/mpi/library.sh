# The MPI library a script of tests/mpi runs (sourced, with lib=mpich|openmpi and launcher set):
# sets kind (piccolo's --emit kind), file (the tuning file's name), name ("MPICH 4.0.2") and
#   run TUNING_FILE ARGS...   ($check with ARGS on $ranks ranks, the library loading the file)
# MPICH: MPIR_CVAR_COLLECTIVE_FALLBACK=error is set (obeyed.sh says what it does and does not do).
# Open MPI refuses to run as root without its two variables (containers run as root).
if [[ $lib == mpich ]]; then
    kind=mpich-json file=tuning.json
    export MPIR_CVAR_COLLECTIVE_FALLBACK=error
    run() { MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=$1 timeout 120 "$launcher" -n $ranks "$check" "${@:2}"; }
    version=$(mpichversion 2>/dev/null | sed -n 's/^MPICH Version:[[:space:]]*//p')
    name="MPICH $version"
else
    kind=openmpi-rules file=rules.txt
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    run() {
        timeout 120 "$launcher" --oversubscribe -n $ranks --mca coll_tuned_use_dynamic_rules 1 \
            --mca coll_tuned_dynamic_rules_filename "$1" "$check" "${@:2}"
    }
    version=$("$launcher" --version 2>&1 | sed -n 's/^.*(Open[A-Za-z ]*) //p')
    name="Open MPI $version"
fi
