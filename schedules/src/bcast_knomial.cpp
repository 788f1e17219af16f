// Bcast over a k-nomial tree (knomial_tree.hpp), radix k; k = 2 is the binomial tree of MPICH's
// MPIR_Bcast_intra_binomial (src/mpi/coll/bcast/bcast_intra_binomial.c, MPICH v4.1.2), and the
// tree of MPIR_Bcast_intra_tree with tree type knomial_2 for any k (MPICH v4.1.2,
// src/mpi/coll/algorithms/treealgo/treeutil.c, MPII_Treeutil_tree_knomial_2_init: a rank's parent
// clears its lowest nonzero base-k digit; knomial_1 numbers the subtrees contiguously instead).
// The whole buffer is one segment: a rank forwards it only after it has all of it.
//
// Levels run farthest first, as MPICH's binomial sends (mask from high to low): in round
// i = 0..n-1 (spacing s = k^(n-1-i)) every rank x that holds the buffer (x a multiple of k s)
// sends it to x + j s for j = 1..k-1, x + j s < p. A rank thus receives once, in the round of
// its lowest nonzero digit, and then sends in every later round that has a child below p.
//
// Dependencies (Style): a rank's first round waits for its receive (the data); a later round's
// sends wait for the rank's previous round's sends as the style says (and so, through them, for
// the receive): sent (mpi: MPICH's binomial
// sends one after the other, MPIC_Send), delivered (nccl: one grouped call per round), or not at
// all (pipelined: MPICH's MPIR_Bcast_intra_tree posts an MPIC_Isend to every child at once;
// every send then waits for the receive itself).
#include <span>
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "knomial_tree.hpp"
#include "piccolo/schedules/task_count.hpp"

namespace piccolo::detail {

Schedule generate_bcast_knomial(const GenerateRequest& request) {
    const Rank p = request.ranks;
    const int k = request.k;
    ScheduleBuilder builder({Collective::bcast, p, request.bytes, 1, request.root},
                            request.algorithm, k, request.payload, request.style);
    const TaskCounts counts = count_tasks(request);
    builder.reserve(counts.tasks(), counts.dependency_ids);
    constexpr std::uint32_t whole[] = {0};
    std::vector<std::vector<TaskId>> received(static_cast<std::size_t>(p));
    std::vector<std::vector<TaskId>> previous_sends(static_cast<std::size_t>(p));
    RoundWait wait;
    const int levels = knomial_levels(p, k);
    for (int round = 0; round < levels; ++round) {
        const std::int64_t spacing = knomial_spacing(k, levels - 1 - round);
        for (std::int64_t x = 0; x + spacing < p; x += spacing * k) {
            const auto from = static_cast<std::size_t>(x);
            std::vector<TaskId> sends;
            // Round-synchronous, a later round's wait for the previous round's sends already
            // follows the receive: listing it again would be a dependency nothing needs.
            const bool first = previous_sends[from].empty() || request.style == Style::pipelined;
            wait.set(request.style,
                     first ? std::span<const TaskId>(received[from]) : std::span<const TaskId>(),
                     previous_sends[from]);
            for (std::int64_t j = 1; j < k && x + j * spacing < p; ++j) {
                const std::int64_t child = x + j * spacing;
                const TaskId t = builder.transfer(absolute_rank(x, request.root, p),
                                                  absolute_rank(child, request.root, p), whole,
                                                  wait.deps, wait.sent);
                received[static_cast<std::size_t>(child)].push_back(t);
                sends.push_back(t);
            }
            previous_sends[from] = std::move(sends);
        }
    }
    return std::move(builder).finish();
}

}  // namespace piccolo::detail
