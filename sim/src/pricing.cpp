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
        }
    }
    for (const Level& l : machine.levels)
        if (l.capacity) slowest_capacity_ = std::min(slowest_capacity_, *l.capacity);
    const ComputeCosts& costs = machine.compute;
    for (std::uint64_t bytes : s.size_values) {
        reduce_.push_back(per_byte_time(bytes, costs.reduce_per_byte));
        permute_.push_back(to_time(costs.permute_latency) +
                           per_byte_time(bytes, costs.permute_per_byte));
        copy_.push_back(per_byte_time(bytes, costs.copy_per_byte));
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

double Pricing::serial_bound(const Schedule& s) const {
    // The costliest transfer of each size at any level, times the tasks of that size.
    std::vector<double> worst(sizes_, 0);
    for (std::size_t i = 0; i < prices_.size(); ++i) {
        const Price& x = prices_[i];
        // A capacity below a message's own rate stretches it beyond its wire time.
        const double bytes = static_cast<double>(s.size_values[i % sizes_]);
        const double cost = to_seconds(x.o_s) + to_seconds(x.o_r) + to_seconds(x.L) +
                            to_seconds(x.g) + 2 * to_seconds(x.hold) + bytes / slowest_capacity_;
        worst[i % sizes_] = std::max(worst[i % sizes_], cost);
    }
    double total = 0;
    for (TaskId t = 0; t < s.size(); ++t) {
        const std::uint32_t c = s.size_class[t];
        total +=
            s.kind[t] == TaskKind::transfer ? worst[c] : to_seconds(compute_cost(s.kind[t], c));
    }
    return total;
}

}  // namespace piccolo::detail
