#pragma once
// A proven lower bound on the makespan simulate() predicts, for a fraction of a replay's cost:
// one pass over the tasks, no events (docs/bounds.md states each part and why it holds). The
// selector uses it to skip candidates that cannot be the best or the runner-up.

#include <limits>
#include <string>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/schedule.hpp"
#include "piccolo/topologies/machine.hpp"

namespace piccolo {

struct MakespanBound {
    double seconds = 0;
    // What sets it: "the dependency chain", "rank 3's send slots", "node 2's egress lanes", ...
    std::string limit;
    // The two parts on their own: the servers' (exact where the pass was not stopped early; 0
    // where one rank's own chain proved `enough` first and the pass did not run) and the
    // dependency chain's (0 where it was not computed).
    double servers = 0, chain = 0;
};

// simulate(schedule, machine, layout, options).makespan >= the result's seconds, for every
// schedule and machine. Once a part of the bound passes `enough`, the rest is not computed (the
// result is then still a bound, above `enough`). The dependency chain, the costlier part, is
// computed only where the servers' part is at least `chain_from` (else the result is the
// servers' part alone, a weaker bound). Where `enough` is finite, at least `chain_from` and the
// servers' part is a pass (no counts), one rank's own chain comes first, and where it is above
// `enough` it is the result (docs/bounds.md).
MakespanBound makespan_lower_bound(const Schedule& schedule, const Machine& machine,
                                   const RankLayout& layout, const SimOptions& options,
                                   double enough = std::numeric_limits<double>::infinity(),
                                   double chain_from = 0);

}  // namespace piccolo
