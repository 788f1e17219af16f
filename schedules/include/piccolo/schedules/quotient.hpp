#pragma once
// Quotient schedules: the tasks of a few representative ranks, standing for a schedule that a
// group of rank permutations maps onto itself (docs/symmetry.md). Ranks r and r' are in one
// orbit when r mod c == r' mod c, for the c representatives 0..c-1; the quotient keeps the tasks
// whose source is a representative, in the order the full schedule lists them, with every
// destination folded to its representative and every dependency on another rank's task turned
// into one on that task's representative.

#include <string>
#include <vector>

#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule.hpp"

namespace piccolo {

struct QuotientSchedule {
    // The representatives' tasks: src and dst in [0, representatives); shape, algorithm, k,
    // style, size classes and payload are the full schedule's.
    Schedule schedule;
    // Per task: its destination in the full schedule, in [0, shape.ranks) (a compute's own rank).
    // It decides the level a transfer crosses, which folding does not keep.
    std::vector<Rank> destination;
    Rank representatives = 0;

    [[nodiscard]] Rank orbit_size() const { return schedule.shape.ranks / representatives; }
};

// Empty when generate_quotient can build the quotient of `request` over c representatives; else
// why not, in a few words (for verbose output). Needs c to divide p and c < p.
std::string quotient_unsupported(const GenerateRequest& request, Rank representatives);

// The quotient of generate(request) over c representatives without building the full schedule:
// its size is the full one's divided by p / c. Throws InputError where quotient_unsupported()
// says why not, or generate() would refuse the request.
QuotientSchedule generate_quotient(const GenerateRequest& request, Rank representatives);

// The quotient of a schedule that is already built, checking that it is invariant where the
// quotient needs it: the ranks of an orbit run the same number of tasks, and a task and its
// representative agree in kind, size, folded destination and folded dependencies. Throws
// InputError naming the first task that differs.
QuotientSchedule fold_schedule(const Schedule& full, Rank representatives);

}  // namespace piccolo
