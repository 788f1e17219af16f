// Allreduce = reduce-scatter + Allgather, where the reduce-scatter is the Allgather run backwards.
//
// In an Allgather whose transfers each carry one block, block s spreads from rank s along a tree.
// Reversing every transfer (a->b becomes b->a) and every dependency turns that tree into one that
// gathers segment s towards rank s: a rank first receives the partial sums of its subtree, folds
// them in with one `reduce`, then sends the result to its parent. Dependencies of the Allgather
// that carry no data (round synchronisation) are reversed as they are. Rank s ends with the full
// sum of segment s, which the Allgather then distributes unchanged.
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"

namespace piccolo::detail {

Schedule allreduce_by_reversal(const Schedule& allgather, const GenerateRequest& request) {
    const Rank p = request.ranks;
    const auto n = static_cast<TaskId>(allgather.size());
    const CollectiveShape shape{Collective::allreduce, p, request.bytes,
                                static_cast<std::uint32_t>(p)};
    ScheduleBuilder builder(shape, allgather.algorithm, allgather.k, request.payload);
    builder.reserve(3 * static_cast<std::size_t>(n) + p, 4 * allgather.deps.items.size() + 2 * n);

    const Csr<TaskId> successors = allgather.successors();
    auto block = [&](TaskId t) { return allgather.payload.row(t)[0]; };
    auto carries_on = [&](TaskId from, TaskId next) {  // does `next` forward what `from` brought?
        return allgather.src[next] == allgather.dst[from] && block(next) == block(from);
    };

    std::vector<TaskId> reversed(n, ScheduleBuilder::no_dep);
    std::vector<TaskId> data_deps, deps;
    for (TaskId t = n; t-- > 0;) {  // ids are topological, so successors come first here
        data_deps.clear();
        deps.clear();
        for (TaskId next : successors.row(t))
            (carries_on(t, next) ? data_deps : deps).push_back(reversed[next]);
        const std::uint32_t segment = block(t);
        const Rank holder = allgather.dst[t];
        if (!data_deps.empty())
            deps.push_back(builder.compute(TaskKind::reduce, holder, shape.piece_bytes(segment),
                                           {&segment, 1}, data_deps));
        reversed[t] = builder.transfer(holder, allgather.src[t], {&segment, 1}, deps);
    }

    // Each rank folds the partial sums of its own segment: the reversed first sends of its block.
    std::vector<std::vector<TaskId>> root_inputs(p);
    for (TaskId t = 0; t < n; ++t)
        if (block(t) == static_cast<std::uint32_t>(allgather.src[t]))
            root_inputs[allgather.src[t]].push_back(reversed[t]);
    std::vector<TaskId> segment_done(p);
    for (Rank r = 0; r < p; ++r) {
        const auto segment = static_cast<std::uint32_t>(r);
        segment_done[r] = builder.compute(TaskKind::reduce, r, shape.piece_bytes(segment),
                                          {&segment, 1}, root_inputs[r]);
    }

    // The Allgather of the reduced segments; a rank sends its own segment once it is complete.
    std::vector<TaskId> gathered(n);
    for (TaskId t = 0; t < n; ++t) {
        deps.clear();
        for (TaskId d : allgather.deps.row(t)) deps.push_back(gathered[d]);
        const std::uint32_t segment = block(t);
        if (segment == static_cast<std::uint32_t>(allgather.src[t]))
            deps.push_back(segment_done[allgather.src[t]]);
        gathered[t] = builder.transfer(allgather.src[t], allgather.dst[t], {&segment, 1}, deps);
    }
    return std::move(builder).finish();
}

}  // namespace piccolo::detail
