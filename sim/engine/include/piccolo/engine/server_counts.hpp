#pragma once
// The servers' part of the makespan lower bound (lower_bound.hpp) from counts taken once: per
// rank, how many tasks of each signature (kind, level, size class) it sends or runs and
// receives. Every busy time the pass over the tasks sums is then a sum over signatures, so a
// sweep bounds a schedule at each size in O(ranks x signatures) instead of a pass over its tasks.
// Valid at every size only where tasks that share a size class at one size share it at all
// (CollectiveShape::pieces_are_whole()). The sums are the pass's own, never stopped early: the same
// bound where the pass runs to the end, and no smaller where it stops.

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "piccolo/engine/lower_bound.hpp"

namespace piccolo::detail {

struct ServerCounts {
    struct Signature {
        TaskKind kind = TaskKind::transfer;
        std::uint8_t level = 0;  // transfers: the level that prices them
        TaskId example = 0;      // a task of the signature: its size class at the current size
    };
    std::vector<Signature> signatures;
    // [rank * signatures.size() + signature]: tasks whose source (a compute task's rank) is the
    // rank, and transfers whose destination it is.
    std::vector<std::uint32_t> sent, received;
};

// None where counting does not pay: more (rank, signature) entries than tasks / tasks_per_entry
// (at the default, the counts take at most 4 bytes per task).
std::optional<ServerCounts> count_server_loads(const Schedule& schedule, const Machine& machine,
                                               const RankLayout& layout,
                                               std::size_t tasks_per_entry = 2);

// makespan_lower_bound() with the servers' part from `counts` (of this schedule at any size).
MakespanBound makespan_lower_bound(const Schedule& schedule, const Machine& machine,
                                   const RankLayout& layout, const SimOptions& options,
                                   const ServerCounts& counts,
                                   double enough = std::numeric_limits<double>::infinity(),
                                   double chain_from = 0);

}  // namespace piccolo::detail
