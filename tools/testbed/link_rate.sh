#!/usr/bin/env bash
# The rate one TCP stream reaches between two testbed nodes, each direction, as the receiver
# counts it over the last 2 s of a 2.5 s stream: link_rate.sh NS_A NS_B ADDR_A ADDR_B.
# Prints "NS_A -> NS_B: N Mbit/s" and the other direction, then both directions measured at once
# ("NS_A => NS_B: N Mbit/s (both ways at once)" and back).
set -euo pipefail
ns_a=$1 ns_b=$2 addr_a=$3 addr_b=$4
probe=$(dirname "$0")/tcp_probe.py
measure() {  # measure SENDER_NS RECEIVER_NS RECEIVER_ADDR [PORT]: the receiver's Mbit/s
    local out port=${4:-5201}
    out=$(mktemp)
    ip netns exec "$2" python3 "$probe" serve "$3" "$port" 0.5 > "$out" &
    local server=$!
    sleep 0.3
    ip netns exec "$1" python3 "$probe" send "$3" "$port" 2.5
    wait "$server"
    cat "$out"
    rm -f "$out"
}
echo "$ns_a -> $ns_b: $(measure "$ns_a" "$ns_b" "$addr_b") Mbit/s"
echo "$ns_b -> $ns_a: $(measure "$ns_b" "$ns_a" "$addr_a") Mbit/s"
# Both directions at once: each has its own token bucket, as a full-duplex link.
both=$(mktemp)
measure "$ns_a" "$ns_b" "$addr_b" > "$both" &
first=$!
back=$(measure "$ns_b" "$ns_a" "$addr_a" 5202)
wait "$first"
echo "$ns_a => $ns_b: $(cat "$both") Mbit/s (both ways at once)"
echo "$ns_b => $ns_a: $back Mbit/s (both ways at once)"
rm -f "$both"
