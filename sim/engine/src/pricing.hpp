#pragma once
// Everything the engine needs to know about the cost of a task, resolved once before the replay:
// for transfers, per (level, size class) of the schedule; for computes, per (kind, size class).
// Nothing is interpolated or multiplied inside the event loop.

#include <cstdint>
#include <vector>

#include "piccolo/schedules/schedule.hpp"
#include "piccolo/topologies/machine.hpp"
#include "sim_time.hpp"

namespace piccolo::detail {

struct Price {
    SimTime L = 0, o_s = 0, o_r = 0, g = 0;
    SimTime wire = 0;  // (m - 1) G: the bytes' time on the wire at full speed
    SimTime hold = 0;  // max(g, wire): how long a lane is charged for the message
    bool rendezvous = false;
    OverheadModel overhead = OverheadModel::offload;
    double bytes_per_second = 0;  // at full speed, for internal capacities
};

class Pricing {
  public:
    // `contention` false: every level is priced with the offload overhead model (the cpu model's
    // shared processor is contention too).
    Pricing(const Schedule& schedule, const Machine& machine, bool contention);

    [[nodiscard]] const Price& at(std::size_t level, std::uint32_t size_class) const {
        return prices_[level * sizes_ + size_class];
    }
    [[nodiscard]] SimTime compute_cost(TaskKind kind, std::uint32_t size_class) const;
    // The longest single cost, in seconds: a latency, overhead, gap or wire time of a transfer
    // (a capacity below a message's own rate stretches it up to bytes / capacity) or a compute.
    [[nodiscard]] double longest_cost() const { return longest_cost_; }

  private:
    std::size_t sizes_ = 0;
    std::vector<Price> prices_;
    std::vector<SimTime> reduce_, permute_, copy_;  // per size class
    double longest_cost_ = 0;
};

}  // namespace piccolo::detail
