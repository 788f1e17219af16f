#include "network.hpp"

#include <algorithm>

namespace piccolo::detail {

Network::Network(const Machine& machine, const RankLayout& layout, std::size_t ranks,
                 bool contention)
    : ranks_(ranks),
      levels_(machine.levels.size()),
      fair_(contention && machine.sharing == Sharing::fair),
      // A flow's constraints: egress and ingress lanes of each level below the system, and one
      // capacity.
      flows_(2 * (machine.levels.size() - 1) + 1) {
    const std::size_t below = levels_ - 1;
    unit_.resize(below * ranks_);
    radix_.assign(below, 0);
    egress_.resize(below);
    ingress_.resize(below);
    egress_base_.assign(below, 0);
    ingress_base_.assign(below, 0);
    std::vector<int> units(levels_, 1);  // units per level; the system is one
    for (std::size_t level = 0; level < below; ++level) {
        int count = 0;
        for (std::size_t r = 0; r < ranks_; ++r) {
            const int u = layout.unit_of(static_cast<int>(r), level);
            unit_[level * ranks_ + r] = u;
            count = std::max(count, u + 1);
        }
        units[level] = count;
        const std::optional<int>& radix = machine.levels[level].radix;
        if (!contention || !radix) continue;
        radix_[level] = *radix;
        if (fair_) {
            for (int u = 0; u < count; ++u) {  // egress and ingress of a unit: ids 2u, 2u + 1
                const std::uint32_t e = flows_.add_constraint(*radix);
                const std::uint32_t i = flows_.add_constraint(*radix);
                if (u == 0) egress_base_[level] = e, ingress_base_[level] = i;
            }
        } else {
            egress_[level].assign(static_cast<std::size_t>(count) * *radix, 0);
            ingress_[level].assign(egress_[level].size(), 0);
        }
    }
    has_capacity_.assign(levels_, false);
    capacity_base_.assign(levels_, 0);
    for (std::size_t level = 0; level < levels_; ++level) {
        const std::optional<double>& capacity = machine.levels[level].capacity;
        if (!fair_ || !capacity) continue;
        has_capacity_[level] = true;
        for (int u = 0; u < units[level]; ++u) {
            const std::uint32_t c = flows_.add_constraint(*capacity);
            if (u == 0) capacity_base_[level] = c;
        }
    }
    constrained_.assign(levels_, false);
    bool lanes_below = false;
    for (std::size_t level = 0; level < levels_; ++level) {
        constrained_[level] = lanes_below || has_capacity_[level] != 0;
        if (level < below) lanes_below = lanes_below || radix_[level] > 0;
    }
}

void Network::uses(Rank a, Rank b, std::size_t level, double bytes_per_second,
                   std::vector<FairShare::Use>& out) const {
    out.clear();
    for (std::size_t l = 0; l < level; ++l) {
        if (radix_[l] == 0) continue;
        out.push_back({egress_base_[l] + 2 * static_cast<std::uint32_t>(unit(l, a)), 1.0});
        out.push_back({ingress_base_[l] + 2 * static_cast<std::uint32_t>(unit(l, b)), 1.0});
    }
    if (has_capacity_[level] && bytes_per_second > 0) {
        const int u = level + 1 < levels_ ? unit(level, a) : 0;
        out.push_back({capacity_base_[level] + static_cast<std::uint32_t>(u), bytes_per_second});
    }
}

}  // namespace piccolo::detail
