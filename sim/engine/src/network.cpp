#include "network.hpp"

#include <algorithm>

namespace piccolo::detail {

Network::Network(const Machine& machine, const RankLayout& layout, std::size_t ranks,
                 bool contention)
    : ranks_(ranks), levels_(machine.levels.size()) {
    const std::size_t below = levels_ - 1;
    unit_.resize(below * ranks_);
    units_.assign(below, 0);
    radix_.assign(below, 0);
    for (std::size_t level = 0; level < below; ++level) {
        int count = 0;
        for (std::size_t r = 0; r < ranks_; ++r) {
            const int u = layout.unit_of(static_cast<int>(r), level);
            unit_[level * ranks_ + r] = u;
            count = std::max(count, u + 1);
        }
        units_[level] = count;
        const std::optional<int>& radix = machine.levels[level].radix;
        if (contention && radix) radix_[level] = *radix;
    }
    // Capacities bind only fair sharing's flows (configs/README.md).
    const bool capacities = contention && machine.sharing == Sharing::fair;
    constrained_.assign(levels_, false);
    bool lanes_below = false;
    for (std::size_t level = 0; level < levels_; ++level) {
        constrained_[level] =
            lanes_below || (capacities && machine.levels[level].capacity.has_value());
        if (level < below) lanes_below = lanes_below || radix_[level] > 0;
    }
}

}  // namespace piccolo::detail
