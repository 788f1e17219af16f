#!/usr/bin/env bash
# The GPU error paths of piccolo-profile-nccl and piccolo-run-nccl, as a campaign checks them:
# with a GPU visible, two ranks made to share GPU 0 must be refused before NCCL is called ("2
# ranks on HOST but only 1 GPU(s) visible there"); without one, a single process must be refused
# ("no CUDA device"). Either way: exit status 2 and exactly one line from the tool (without a
# GPU, one line on stderr at all). The tests of both tools run this script with --only.
#   nccl_paths.sh BIN_DIR RESULT_FILE [--only TOOL] LAUNCHER...
# Writes one line per tool to RESULT_FILE; exit status: the number of tools that misbehaved (a
# tool that was not built is reported and not counted, unless --only names it).
set -u
bin=$1 result=$2
shift 2
tools=(piccolo-profile-nccl piccolo-run-nccl) only=no
if [[ ${1:-} == --only ]]; then
    tools=("$2") only=yes
    shift 2
fi
launcher=("$@")
: > "$result"
gpu=no
command -v nvidia-smi > /dev/null && nvidia-smi -L 2> /dev/null | grep -q GPU && gpu=yes
bad=0
for tool in "${tools[@]}"; do
    if [[ ! -x $bin/$tool ]]; then
        echo "$tool: not built (no CUDA/NCCL where it was built)" >> "$result"
        [[ $only == yes ]] && bad=$((bad + 1))
        continue
    fi
    args=(-q)
    [[ $tool == piccolo-run-nccl ]] && args+=(-s 8)
    if [[ $gpu == yes ]]; then
        expected="but only 1 GPU(s) visible there" what="2 ranks on GPU 0"
        stderr=$(CUDA_VISIBLE_DEVICES=0 timeout 60 "${launcher[@]}" -x CUDA_VISIBLE_DEVICES -n 2 \
            "$bin/$tool" "${args[@]}" 2>&1 > /dev/null)
    else
        expected="no CUDA device" what="no GPU, 1 process"
        stderr=$(timeout 60 "$bin/$tool" "${args[@]}" 2>&1 > /dev/null)
    fi
    status=$?
    if [[ $gpu == yes ]]; then  # mpirun adds its own lines: count the tool's
        lines=$(printf '%s\n' "$stderr" | grep -c "^$tool: ")
    else
        lines=$(printf '%s' "$stderr" | grep -c '')
    fi
    if [[ $status -eq 2 && $lines -eq 1 && $stderr == *"$expected"* ]]; then
        echo "$tool ($what): ok, exit 2: $(printf '%s\n' "$stderr" | grep "^$tool: ")" >> "$result"
    else
        echo "$tool ($what): FAIL, exit $status, $lines line(s) from the tool: $stderr" >> "$result"
        bad=$((bad + 1))
    fi
done
cat "$result"
exit "$bad"
