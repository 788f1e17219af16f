#include "fair_lanes.hpp"

namespace piccolo::detail {

// A flow's constraints: egress and ingress lanes of each level below the system, and one
// capacity. Constraint ids are handed out level by level, a unit's egress and ingress together.
FairLanes::FairLanes(const Network& network, const Machine& machine)
    : network_(network), flows_(2 * (network.levels() - 1) + 1) {
    const std::size_t levels = network.levels(), below = levels - 1;
    egress_base_.assign(below, 0);
    ingress_base_.assign(below, 0);
    for (std::size_t level = 0; level < below; ++level) {
        if (network.radix(level) == 0) continue;
        for (int u = 0; u < network.units(level); ++u) {  // egress and ingress: ids 2u, 2u + 1
            const std::uint32_t e = flows_.add_constraint(network.radix(level));
            const std::uint32_t i = flows_.add_constraint(network.radix(level));
            if (u == 0) egress_base_[level] = e, ingress_base_[level] = i;
        }
    }
    has_capacity_.assign(levels, false);
    capacity_base_.assign(levels, 0);
    for (std::size_t level = 0; level < levels; ++level) {
        const std::optional<double>& capacity = machine.levels[level].capacity;
        if (!capacity) continue;
        has_capacity_[level] = true;
        const int units = level < below ? network.units(level) : 1;  // the system is one
        for (int u = 0; u < units; ++u) {
            const std::uint32_t c = flows_.add_constraint(*capacity);
            if (u == 0) capacity_base_[level] = c;
        }
    }
}

void FairLanes::uses(Rank a, Rank b, std::size_t level, double bytes_per_second) {
    uses_.clear();
    for (std::size_t l = 0; l < level; ++l) {
        if (network_.radix(l) == 0) continue;
        uses_.push_back(
            {egress_base_[l] + 2 * static_cast<std::uint32_t>(network_.unit(l, a)), 1.0});
        uses_.push_back(
            {ingress_base_[l] + 2 * static_cast<std::uint32_t>(network_.unit(l, b)), 1.0});
    }
    if (has_capacity_[level] && bytes_per_second > 0) {
        const int u = level + 1 < network_.levels() ? network_.unit(level, a) : 0;
        uses_.push_back({capacity_base_[level] + static_cast<std::uint32_t>(u), bytes_per_second});
    }
}

}  // namespace piccolo::detail
