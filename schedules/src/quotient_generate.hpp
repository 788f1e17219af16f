#pragma once
// Internal pieces of the quotient generators (quotient_generate.cpp, quotient_reversal.cpp) and
// their entry points, one file per algorithm.

#include <functional>
#include <vector>

#include "builder.hpp"
#include "piccolo/schedules/quotient.hpp"
#include "quotient_rounds.hpp"

namespace piccolo::detail {

// The representatives' transfers of a round Allgather, appended round by round in the full
// generators' order; transfer (i, r) gets quotient id first + i * c + (r mod c), the id of the
// representative of every (i, r') with r' = r mod c, and in the full schedule the id
// full_first + i * p + r.
class QuotientAllgather {
  public:
    QuotientAllgather(const RoundAllgather& rounds, Rank c, TaskId first, Style style,
                      std::uint64_t full_first)
        : rounds_(rounds), c_(c), first_(first), style_(style), full_first_(full_first) {}

    [[nodiscard]] TaskId id(int round, Rank r) const {
        return first_ + static_cast<TaskId>(round) * static_cast<TaskId>(c_) +
               static_cast<TaskId>(r % c_);
    }
    // `extra` may add dependencies to transfer (i, r) before it is appended.
    void emit(ScheduleBuilder& builder, QuotientSchedule& q,
              const std::function<void(int, Rank, RoundWait&)>& extra) const;

  private:
    const RoundAllgather& rounds_;
    Rank c_;
    TaskId first_;
    Style style_;
    std::uint64_t full_first_;
};

QuotientSchedule quotient_allgather(const GenerateRequest& request, Rank c);
// quotient_reversal.cpp: the Allreduce and the Reduce_scatter of ring and k-ring.
QuotientSchedule quotient_reversal(const GenerateRequest& request, Rank c);
// quotient_pairwise.cpp: Reduce_scatter and Alltoall.
QuotientSchedule quotient_pairwise(const GenerateRequest& request, Rank c);
// quotient_scattered.cpp, quotient_bruck_alltoall.cpp: Alltoall.
QuotientSchedule quotient_scattered(const GenerateRequest& request, Rank c);
QuotientSchedule quotient_bruck_alltoall(const GenerateRequest& request, Rank c);

}  // namespace piccolo::detail
