// The selector's defaults and the derived figures of a point
// (sim/select/include/piccolo/select/select.hpp).
#include <algorithm>

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

std::string_view size_meaning(Collective collective) {
    return collective == Collective::allgather ? "per-rank contribution" : "vector size";
}

}  // namespace piccolo
