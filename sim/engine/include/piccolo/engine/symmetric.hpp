#pragma once
// Exact symmetry reduction (docs/symmetry.md): on a regular machine with block placement, the
// ring and k-ring schedules (and pairwise, scattered and bruck's Reduce_scatter and Alltoall)
// are mapped onto themselves by moving every rank by whole units of the machine's highest level
// below the system (nodes on a two-level machine), and the engine's replay commutes with those
// moves where no queue at the receiving side tells an orbit's ranks apart. Every rank then finishes its k-th task when its
// representative does, and a replay of the representatives' tasks alone (a quotient schedule,
// piccolo/schedules/quotient.hpp) gives the full replay's times.

#include <string>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/quotient.hpp"

namespace piccolo {

struct SymmetryCheck {
    Rank representatives = 0;  // 0: no reduction; `reason` says why
    std::string reason;        // what the orbits are, or why the symmetry does not hold
};

// How many representative ranks stand for the whole run of `request` on `layout`, if the
// symmetry holds exactly: block placement, whole units, no capacity shared by the whole system,
// no trace, an algorithm with a quotient generator whose schedule the moves map onto itself,
// and receive slots, processors and FIFO lanes that see its rounds alike on every rank of an
// orbit (round_entry() in piccolo/schedules/quotient.hpp).
SymmetryCheck check_symmetry(const GenerateRequest& request, const Machine& machine,
                             const RankLayout& layout, const SimOptions& options);

// Replays the quotient on the representatives and reports the full run: makespan and per-rank
// finish times exactly; counts, bytes and delays summed over the orbits. `layout` is the full
// run's; the quotient must come from generate_quotient or fold_schedule with a check's count.
SimResult simulate_quotient(const QuotientSchedule& quotient,
                            const Schedule::Successors& successors, const Machine& machine,
                            const RankLayout& layout, const SimOptions& options);

}  // namespace piccolo
