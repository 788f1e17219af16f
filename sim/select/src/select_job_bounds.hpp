#pragma once
// What one job of the sweep (select.cpp) carries from one bound of its job to the next.

#include <cstddef>
#include <optional>

#include "piccolo/engine/server_counts.hpp"
#include "piccolo/schedules/schedule.hpp"

namespace piccolo::detail {

// What a job's bounds at its smaller sizes of one scale showed: once the dependency chain came
// out no larger than the servers' part, its larger sizes skip the chain (docs/bounds.md). On
// the generated collectives the servers' part grows faster with the size: a server carries
// every message of its owner, a chain one message per step. Skipping only weakens a bound.
class ChainHint {
  public:
    [[nodiscard]] bool skips(std::size_t scale) const { return scale_ == scale; }
    void chain_below(std::size_t scale) { scale_ = scale; }

  private:
    std::optional<std::size_t> scale_;
};

// The job's server counts (server_counts.hpp) at the scale it is bounded at, taken at its
// first bound there: the servers' part at every later size then costs no pass over its tasks.
// None for an Allreduce cut into segments (CollectiveShape::pieces_are_whole), or where
// counting does not pay.
class CountsByScale {
  public:
    const ServerCounts* at(const Schedule& schedule, const Machine& machine,
                           const RankLayout& layout, std::size_t scale) {
        if (!schedule.shape.pieces_are_whole()) return nullptr;
        if (scale_ != scale) {
            counts_ = count_server_loads(schedule, machine, layout);
            scale_ = scale;
        }
        return counts_ ? &*counts_ : nullptr;
    }

  private:
    std::optional<std::size_t> scale_;
    std::optional<ServerCounts> counts_;
};

}  // namespace piccolo::detail
