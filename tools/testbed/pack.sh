#!/usr/bin/env bash
# Packs what the campaign (campaign.sh) needs on a machine without this one's packages: the
# piccolo binaries of BIN and the shared libraries they load that a bare Linux machine lacks
# (fmt, yaml-cpp, pugixml, oneTBB, hwloc, libevent, Open MPI's libmpi, ...), into DIR/bin and
# DIR/lib. CUDA's runtime and NCCL are left out (hundreds of MB; a GPU machine has its own).
# Open MPI's launcher and plugins travel separately (mpirun, orted and lib/openmpi); on arrival:
#   export LD_LIBRARY_PATH=DIR/lib:$LD_LIBRARY_PATH
#   tools/testbed/campaign.sh --bin DIR/bin OUT mpirun ...
#   pack.sh BIN DIR
set -euo pipefail
bin=${1:?usage: pack.sh BIN DIR} dir=${2:?usage: pack.sh BIN DIR}
tools=(piccolo piccolo-profile-mpi piccolo-run-mpi piccolo-profile-nccl piccolo-run-nccl)
mkdir -p "$dir/bin" "$dir/lib"
for tool in "${tools[@]}"; do
    [[ -x $bin/$tool ]] || { echo "pack: $bin/$tool: not built (skipped)" >&2; continue; }
    cp "$bin/$tool" "$dir/bin/"
    ldd "$bin/$tool" | awk '/=> \//{print $3}'
done | sort -u | grep -vE '/(libc|libm|libgcc_s|libstdc\+\+|libpthread|libdl|librt|libcudart|libnccl|libcuda)\.so' |
    while read -r lib; do cp -L "$lib" "$dir/lib/"; done
du -sh "$dir"
