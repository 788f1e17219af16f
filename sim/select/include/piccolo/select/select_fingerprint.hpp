#pragma once
// Which candidate schedules are the same to the engine. The sweep generates one DAG per
// dag_identity() (task_count.hpp), which already merges the k that factor into the same rounds;
// DAGs of different identities can still coincide (ring and k-ring with k = p, rm and prm Allreduce
// with a single round, ring and rd for p = 2). Those are found after simulation by this hash of
// everything the engine reads, so that no DAG has to stay in memory to be compared with later
// ones.

#include <cstdint>
#include <span>

#include "piccolo/schedules/schedule.hpp"

namespace piccolo::detail {

struct TimingHash {
    std::uint64_t first = 0, second = 0;  // two independent 64-bit hashes
    friend bool operator==(const TimingHash&, const TimingHash&) = default;
};

// Equal for schedules that time identically at every message size: kind, src, dst, deps,
// sent_deps and task sizes, and (only when `resize_by_payload`, i.e. Allreduce, whose segment
// sizes are not proportional to the vector) the payload rows too. Algorithm name and k are
// ignored. Two different DAGs share a hash with a probability near 2^-128. A quotient schedule
// (piccolo/schedules/quotient.hpp) passes its true destinations, which its folded dst rows do not
// keep, and its tasks' ids in the full schedule, which tell apart full schedules that number the
// other ranks' tasks differently (two full schedules merge where they are equal, so their
// quotients must merge exactly then too).
TimingHash timing_hash(const Schedule& schedule, bool resize_by_payload,
                       std::span<const Rank> true_destinations = {},
                       std::span<const std::uint64_t> full_ids = {});

}  // namespace piccolo::detail
