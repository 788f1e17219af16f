#!/usr/bin/env bash
# Installs the Debian bookworm packages piccolo builds and tests with. Idempotent: packages that
# are already installed are skipped, and apt is not touched at all when nothing is missing.
set -euo pipefail
packages=(
    cmake ninja-build g++ clang libclang-rt-14-dev pkg-config ccache
    libboost-graph-dev libpugixml-dev libfmt-dev libyaml-cpp-dev libtbb-dev
    doctest-dev libcli11-dev nlohmann-json3-dev
    libopenmpi-dev openmpi-bin mpich libmpich-dev
    python3 python3-matplotlib python3-yaml time chromium universal-ctags iproute2
    python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-pandas
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
    exit 0
fi
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
echo "setup: installing ${missing[*]}" >&2
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
