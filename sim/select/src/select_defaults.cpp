// The selector's defaults and the derived figures of a point
// (sim/select/include/piccolo/select/select.hpp).
#include <algorithm>

#include "piccolo/core/error.hpp"
#include "piccolo/core/text.hpp"

#include "piccolo/schedules/generate.hpp"
#include "piccolo/select/select.hpp"

namespace piccolo {

std::vector<std::uint64_t> default_select_sizes() {
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t bytes = 8; bytes <= (64ULL << 20); bytes *= 2) sizes.push_back(bytes);
    return sizes;
}

std::vector<Scale> default_select_scales(const Machine& machine) {
    // A machine of bounded size (last level with a fanout) holds the product of the fanouts
    // above the node level; the laptop preset is one node.
    long long capacity = 64;
    if (!machine.levels.empty() && machine.levels.back().fanout > 0) {
        long long nodes = 1;
        for (std::size_t l = 1; l < machine.levels.size() && nodes <= 64; ++l)
            nodes *= std::max(1, machine.levels[l].fanout);
        capacity = std::min(capacity, nodes);
    }
    std::vector<Scale> scales;
    const int ppn = machine.devices_per_node();
    for (int nodes = 1; nodes <= capacity; nodes *= 2) scales.push_back({nodes, ppn});
    return scales;
}

double PointSelection::speedup() const {
    const AlgorithmOutcome* b = best_outcome();
    return b && b->time > 0 ? baseline_time / b->time : 0.0;
}

double PointSelection::margin() const {
    const AlgorithmOutcome* b = best_outcome();
    return b && runner_up && b->time > 0 ? (runner_up->time - b->time) / b->time : 0.0;
}

std::string_view selection_size_meaning(Collective collective) {
    const bool rooted = collective == Collective::bcast || collective == Collective::reduce;
    return rooted ? "buffer size at root 0" : size_meaning(collective);  // select_root
}

std::span<const char* const> baseline_algorithms_of(Collective collective) {
    static constexpr const char* tree[] = {"binomial"};
    static constexpr const char* pairwise[] = {"pairwise"};
    switch (collective) {
        case Collective::allgather:
        case Collective::allreduce:
            return baseline_algorithms;
        case Collective::bcast:
        case Collective::reduce:
            return tree;
        case Collective::reduce_scatter:
        case Collective::alltoall:
            return pairwise;
    }
    return baseline_algorithms;
}

std::vector<Collective> parse_select_collectives(const std::vector<std::string>& names) {
    std::vector<Collective> out;
    for (const std::string& name : names) {
        if (name.empty()) continue;
        if (name == "all") {
            out.insert(out.end(), std::begin(all_collectives), std::end(all_collectives));
            continue;
        }
        const auto known = std::find_if(std::begin(all_collectives), std::end(all_collectives),
                                        [&](Collective c) { return to_string(c) == name; });
        if (known == std::end(all_collectives))
            throw InputError(
                "-c/--collective: unknown collective '" + excerpt(name) +
                "' (expected allgather, allreduce, bcast, reduce, reduce_scatter, alltoall or all)");
        out.push_back(*known);
    }
    return out;
}

}  // namespace piccolo
