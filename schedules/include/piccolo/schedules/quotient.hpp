#pragma once
// Quotient schedules: the tasks of a few representative ranks, standing for a schedule that a
// group of rank permutations maps onto itself (docs/symmetry.md): shifts by whole units, or for
// the pairwise Alltoall of a power of two, r -> r XOR (a multiple of c). Ranks r and r' are in one
// orbit when r mod c == r' mod c, for the c representatives 0..c-1; the quotient keeps the tasks
// whose source is a representative, in the order the full schedule lists them, with every
// destination folded to its representative and every dependency on another rank's task turned
// into one on that task's representative.

#include <cstdint>
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
    // Per task: its id in the full schedule (64 bits: at 75,264 ranks a full ring has more than
    // 2^32 tasks). Two full schedules with the same quotient differ where these differ (bruck's
    // Alltoall with k = p - 1 and k = p on one representative: one order of rank 0's sends, two
    // numberings of the others'); the selector's timing hash reads them.
    std::vector<std::uint64_t> full_id;
    Rank representatives = 0;

    [[nodiscard]] Rank orbit_size() const { return schedule.shape.ranks / representatives; }
};

// Empty when generate_quotient can build the quotient of `request` over c representatives; else
// why not, in a few words (for verbose output). Needs c to divide p and c < p. Built: Allgather
// and Allreduce by ring and k-ring; Reduce_scatter by ring, k-ring and pairwise; Alltoall by
// pairwise, scattered and bruck.
std::string quotient_unsupported(const GenerateRequest& request, Rank representatives);

// Where the transfers of one round come from, seen from a block of `block` consecutive ranks
// (ranks j block .. (j + 1) block - 1): it decides which queues of the replay may serve an
// orbit's ranks in different orders (docs/symmetry.md, "Queues at the receiving side").
enum class RoundEntry {
    // In every round, the transfers that enter a block from outside it all come from one block,
    // in the order of their senders' positions in it, which every move keeps.
    one_block,
    // Not one_block, but every round sends every rank's transfers the same distances,
    // r -> r + d for each d of the round, with sizes that depend on the round and d alone. The
    // transfers entering a block from outside then pair one for one, by (round, d, sender's
    // position), with those leaving any block, at the same price: a block's ingress sees the
    // egress pattern of a block, L later.
    shifted,
    // Some round brings a block transfers from two blocks and is no shift (k-ring with groups
    // that straddle blocks).
    several_blocks,
};
// For a request that generate_quotient builds (quotient_unsupported() empty for some c); block
// divides p.
RoundEntry round_entry(const GenerateRequest& request, Rank block);

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
