// Reduce over a k-nomial tree (knomial_tree.hpp), radix k: Bcast's tree run backwards. k = 2 is
// MPICH's MPIR_Reduce_intra_binomial (src/mpi/coll/reduce/reduce_intra_binomial.c, MPICH
// v4.1.2): in round i (mask 2^i) a rank whose bits below i are zero receives from rank + 2^i and
// reduces, and a rank whose lowest set bit is i sends its partial result to rank - 2^i and is
// done. For any k (MPICH's knomial reduce tree): in round i = 0..n-1 (spacing s = k^i) every
// rank x that is a multiple of k s receives from x + j s for j = 1..k-1, x + j s < p, reducing
// each child's vector into its own as it arrives, in order of j (one `reduce` of the whole
// buffer per child, as MPICH's MPIR_Reduce_local per received message).
//
// A rank sends once, after its last reduce; no send waits for another send of its rank, so the
// three styles (which differ only in that) build the same DAG.
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "knomial_tree.hpp"
#include "piccolo/schedules/task_count.hpp"

namespace piccolo::detail {

Schedule generate_reduce_knomial(const GenerateRequest& request) {
    const Rank p = request.ranks;
    const int k = request.k;
    ScheduleBuilder builder({Collective::reduce, p, request.bytes, 1, request.root},
                            request.algorithm, k, request.payload, request.style);
    const TaskCounts counts = count_tasks(request);
    builder.reserve(counts.tasks(), counts.dependency_ids);
    constexpr std::uint32_t whole[] = {0};
    // Per relative rank: its last reduce, which holds its partial result (none yet: a leaf).
    std::vector<TaskId> last(static_cast<std::size_t>(p), ScheduleBuilder::no_dep);
    const int levels = knomial_levels(p, k);
    for (int round = 0; round < levels; ++round) {
        const std::int64_t spacing = knomial_spacing(k, round);
        for (std::int64_t x = 0; x + spacing < p; x += spacing * k) {
            const Rank parent = absolute_rank(x, request.root, p);
            for (std::int64_t j = 1; j < k && x + j * spacing < p; ++j) {
                const std::int64_t child = x + j * spacing;
                const TaskId partial = last[static_cast<std::size_t>(child)];
                const TaskId sent = builder.transfer(absolute_rank(child, request.root, p), parent,
                                                     whole, {partial});
                TaskId& mine = last[static_cast<std::size_t>(x)];
                mine = builder.compute(TaskKind::reduce, parent, request.bytes, whole,
                                       std::vector<TaskId>{sent, mine});
            }
        }
    }
    return std::move(builder).finish();
}

}  // namespace piccolo::detail
