#!/usr/bin/env bash
# An emulated cluster on one host: one Linux network namespace per node, each node's ranks
# leaving through one veth to a bridge (the switch) in a namespace of its own, each link shaped
# to a set rate in both directions by a token bucket (tc tbf), and Open MPI over TCP between
# the namespaces. Everything it creates is removed on every way out (normal end, error, Ctrl-C,
# SIGTERM). See docs/accuracy.md.
#
#   testbed.sh [--nodes N] [--ppn P] [--rate RATE] [--name NAME] [--oversubscribe] mpi PROGRAM [ARGS...]
#       runs PROGRAM as an MPI job of N x P ranks, P in each node's namespace (ranks 0..P-1 on
#       the first node, and so on: the profiler's and the executor's --node-size P)
#   testbed.sh [...] shell COMMANDS
#       runs bash -c COMMANDS in the switch namespace; "$TESTBED_MPIRUN" PROGRAM [ARGS...] inside
#       it starts an MPI job as `mpi` does, so one testbed serves several jobs
#   testbed.sh [...] check
#       sets up, measures each direction of the first link (TCP, 2 s) and prints the rate
#
# RATE is tc's syntax (e.g. 1gbit, 200mbit); without --rate the links are not shaped. Exit status:
# the command's, or 2 with one line on stderr for a request it refuses (not root, a rate tc
# refuses, more ranks than cores without --oversubscribe, a name in use).
set -euo pipefail

nodes=2 ppn=1 rate="" name=pcb oversubscribe=no
usage="usage: testbed.sh [--nodes N] [--ppn P] [--rate RATE] [--name NAME] [--oversubscribe] (mpi PROGRAM [ARGS...] | shell COMMANDS | check)"
refuse() {
    echo "testbed: $*" >&2
    exit 2
}
positive() {  # positive FLAG VALUE MAX
    [[ $2 =~ ^[0-9]+$ ]] && (($2 >= 1 && $2 <= $3)) || refuse "$1 '$2': must be an integer in 1..$3"
}
while (($# > 0)); do
    case $1 in
        --nodes) positive --nodes "${2:-}" 200 && nodes=$2 && shift 2 ;;
        --ppn) positive --ppn "${2:-}" 64 && ppn=$2 && shift 2 ;;
        --rate) rate=${2:-} && shift 2 ;;
        --name) [[ ${2:-} =~ ^[a-z][a-z0-9]{0,5}$ ]] ||
            refuse "--name '${2:-}': 1 to 6 lower-case letters and digits, a letter first"
            name=$2 && shift 2 ;;
        --oversubscribe) oversubscribe=yes && shift ;;
        mpi | shell | check) break ;;
        *) refuse "unknown argument '$1' ($usage)" ;;
    esac
done
(($# > 0)) || refuse "no command ($usage)"
mode=$1
shift
case $mode in
    mpi) (($# > 0)) || refuse "mpi: no program ($usage)" ;;
    shell) (($# == 1)) || refuse "shell: one argument, the commands ($usage)" ;;
    check) (($# == 0)) || refuse "check takes no arguments" ;;
esac

[[ $(id -u) -eq 0 ]] || refuse "needs root to create network namespaces (CAP_NET_ADMIN, CAP_SYS_ADMIN); run it as root"
for tool in ip tc mpirun.openmpi; do
    command -v "$tool" > /dev/null || refuse "$tool not found (tools/setup.sh installs it)"
done
cores=$(nproc)
if ((nodes * ppn > cores)) && [[ $oversubscribe == no ]]; then
    refuse "$nodes nodes x $ppn ranks need $((nodes * ppn)) cores and this host has $cores (ranks sharing cores time each other's turns, not the network; pass --oversubscribe to run anyway)"
fi

switch=${name}sw bridge=${name}br
node_ns() { echo "${name}n$1"; }
work=$(mktemp -d "/tmp/testbed-$name.XXXXXX")
created=()
teardown() {
    local ns
    for ns in "${created[@]}"; do ip netns del "$ns" 2> /dev/null || true; done
    rm -rf "$work"
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

for ns in "$switch" $(for ((i = 0; i < nodes; i++)); do node_ns "$i"; done); do
    if ip netns list | grep -qw "^$ns"; then
        refuse "network namespace $ns exists already (another testbed named '$name'? pass --name)"
    fi
    ip netns add "$ns" 2> "$work/err" || refuse "cannot create network namespace $ns: $(head -n 1 "$work/err")"
    created+=("$ns")
    ip -n "$ns" link set lo up
done

# tbf needs a bucket of at least one packet as the kernel hands it over: veths pass segments of
# up to 64 KiB (GSO), which a smaller bucket never admits whole, and the link then runs far below
# its rate. Segments are capped at 16 KiB; the bucket holds 32 KiB (TESTBED_BURST bytes), no
# more: what it saves while the link is idle, the next message crosses at memory speed, and an
# isolated message would then cross faster than a train (docs/accuracy.md, "The shaper").
shape() {  # shape NAMESPACE DEVICE
    ip -n "$1" link set dev "$2" gso_max_size 16384
    tc -n "$1" qdisc add dev "$2" root tbf rate "$rate" burst "${TESTBED_BURST:-32768}" \
        latency 100ms 2> "$work/err" || refuse "--rate '$rate': tc refuses it: $(head -n 1 "$work/err")"
}

ip -n "$switch" link add "$bridge" type bridge
ip -n "$switch" addr add 10.77.0.254/24 dev "$bridge"
ip -n "$switch" link set "$bridge" up
for ((i = 0; i < nodes; i++)); do
    ns=$(node_ns "$i")
    ip -n "$switch" link add "${name}v$i" type veth peer name pcnet netns "$ns"
    ip -n "$switch" link set "${name}v$i" master "$bridge" up
    ip -n "$ns" addr add "10.77.0.$((i + 1))/24" dev pcnet
    ip -n "$ns" link set pcnet up
    if [[ -n $rate ]]; then
        shape "$ns" pcnet              # node -> switch
        shape "$switch" "${name}v$i"   # switch -> node
    fi
done

# The MPI launchers: one MPMD block per node, then the library's settings and its launcher.
launcher() {  # launcher FILE SETTINGS COMMAND
    cat > "$1" << EOF
#!/usr/bin/env bash
blocks=()
for ((i = 0; i < $nodes; i++)); do
    ((i == 0)) || blocks+=(:)
    blocks+=(-n $ppn ip netns exec ${name}n\$i "\$@")
done
$2
exec $3 "\${blocks[@]}"
EOF
    chmod +x "$1"
}
# Open MPI: the PMIx server of mpirun (in the switch namespace) listens on the bridge, and only
# self and tcp are allowed: with shared memory every pair of ranks on this host would bypass the
# network.
launcher "$work/mpirun" "export PMIX_MCA_ptl_tcp_if_include=$bridge OMPI_MCA_btl=self,tcp \
OMPI_MCA_btl_tcp_if_include=pcnet OMPI_MCA_oob_tcp_if_include=$bridge" \
    "mpirun.openmpi --allow-run-as-root --oversubscribe --bind-to none"
# MPICH (Debian's is ch4:ucx): every rank treated as on another node (MPIR_CVAR_NOLOCAL: no
# shared-memory path between the ranks of this host) and UCX held to TCP over the node's link.
launcher "$work/mpiexec" "export MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self UCX_NET_DEVICES=pcnet" \
    mpiexec.mpich

case $mode in
    mpi) ip netns exec "$switch" "$work/mpirun" "$@" ;;
    shell) TESTBED_MPIRUN=$work/mpirun TESTBED_MPIEXEC=$work/mpiexec TESTBED_NODES=$nodes TESTBED_PPN=$ppn \
        ip netns exec "$switch" bash -c "$1" ;;
    check) bash "$(dirname "$0")/link_rate.sh" "$(node_ns 0)" "$(node_ns 1)" 10.77.0.1 10.77.0.2 ;;
esac
