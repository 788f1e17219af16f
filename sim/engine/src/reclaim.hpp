#pragma once
// Reclaim: what a reduction pays, beyond its per-byte cost, when it writes into data its rank has
// just sent. Over shared memory the receiver's core reads the sender's buffer itself (a single
// copy), which leaves the buffer's cache lines in that core's cache; the reduction's first write
// must take each line back. On a host whose cores sit far apart this costs more than the
// reduction (sim/engine/README.md, "Reclaim"); Level::reclaim_per_byte prices it per level of
// the send, as the profiler's reclaim probe measured it.
//
// Which reductions pay: a reduce task that waits directly (deps or sent_deps) for a transfer its
// own rank sent, whose payload shares pieces with the reduction's: it writes those pieces first
// after the peer read them (recursive doubling's Allreduce: every round). A reduction into pieces
// the rank never sent (a ring's or recursive halving's) pays nothing, nor does a later reduction
// into the same pieces (the first took the lines back). Without payload nothing is known: none
// pays.

#include <cstddef>
#include <functional>
#include <vector>

#include "piccolo/schedules/schedule.hpp"
#include "piccolo/topologies/machine.hpp"
#include "sim_time.hpp"

namespace piccolo::detail {

// Per task: the reclaim time a compute task adds to its cost; empty when no task pays (no level
// has a reclaim cost, or the schedule has no payload). `level_of(t)`: the level pricing transfer
// t. Of several sends a reduction waits for, the dearest counts: one write takes a line back from
// every cache that holds it.
std::vector<SimTime> reclaim_times(const Schedule& s, const Machine& machine,
                                   const std::function<std::size_t(TaskId)>& level_of);

}  // namespace piccolo::detail
