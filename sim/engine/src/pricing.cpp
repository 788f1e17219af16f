#include "pricing.hpp"

#include <algorithm>

namespace piccolo::detail {

Pricing::Pricing(const Schedule& s, const Machine& machine, bool contention)
    : sizes_(s.size_values.size()) {
    prices_.resize(machine.levels.size() * sizes_);
    for (std::size_t level = 0; level < machine.levels.size(); ++level) {
        const Level& l = machine.levels[level];
        for (std::size_t c = 0; c < sizes_; ++c) {
            const std::uint64_t bytes = s.size_values[c];
            const LogGP p = l.loggp.at(static_cast<double>(bytes));
            Price& x = prices_[level * sizes_ + c];
            x.L = to_time(p.L);
            x.o_s = to_time(p.o_s);
            x.o_r = to_time(p.o_r);
            x.g = to_time(p.g);
            x.wire = per_byte_time(bytes - 1, p.G);
            x.hold = std::max(x.g, x.wire);
            x.rendezvous = l.rendezvous && bytes >= *l.rendezvous;
            x.overhead = contention ? l.overhead : OverheadModel::offload;
            x.bytes_per_second = x.hold > 0 ? static_cast<double>(bytes) / to_seconds(x.hold) : 0.0;
            const double stretched = l.capacity ? static_cast<double>(bytes) / *l.capacity : 0.0;
            for (double cost :
                 {p.L, p.o_s, p.o_r, p.g, static_cast<double>(bytes) * p.G, stretched})
                longest_cost_ = std::max(longest_cost_, cost);
        }
    }
    const ComputeCosts& costs = machine.compute;
    for (std::uint64_t bytes : s.size_values) {
        reduce_.push_back(per_byte_time(bytes, costs.reduce_per_byte));
        permute_.push_back(to_time(costs.permute_latency) +
                           per_byte_time(bytes, costs.permute_per_byte));
        copy_.push_back(per_byte_time(bytes, costs.copy_per_byte));
        const double b = static_cast<double>(bytes);
        for (double cost :
             {b * costs.reduce_per_byte, costs.permute_latency + b * costs.permute_per_byte,
              b * costs.copy_per_byte})
            longest_cost_ = std::max(longest_cost_, cost);
    }
}

SimTime Pricing::compute_cost(TaskKind kind, std::uint32_t size_class) const {
    switch (kind) {
        case TaskKind::reduce:
            return reduce_[size_class];
        case TaskKind::permute:
            return permute_[size_class];
        case TaskKind::copy:
            return copy_[size_class];
        case TaskKind::transfer:
            break;
    }
    return 0;
}

}  // namespace piccolo::detail
