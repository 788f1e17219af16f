#pragma once
// Internal pieces of the quotient generators (quotient_generate.cpp, quotient_reversal.cpp).

#include <functional>
#include <vector>

#include "builder.hpp"
#include "piccolo/schedules/quotient.hpp"
#include "quotient_rounds.hpp"

namespace piccolo::detail {

// The representatives' transfers of a round Allgather, appended round by round in the full
// generators' order; transfer (i, r) gets quotient id first + i * c + (r mod c), the id of the
// representative of every (i, r') with r' = r mod c.
class QuotientAllgather {
  public:
    QuotientAllgather(const RoundAllgather& rounds, Rank c, TaskId first, Style style)
        : rounds_(rounds), c_(c), first_(first), style_(style) {}

    [[nodiscard]] TaskId id(int round, Rank r) const {
        return first_ + static_cast<TaskId>(round) * static_cast<TaskId>(c_) +
               static_cast<TaskId>(r % c_);
    }
    // `extra` may add dependencies to transfer (i, r) before it is appended.
    void emit(ScheduleBuilder& builder, std::vector<Rank>& destination,
              const std::function<void(int, Rank, RoundWait&)>& extra) const;

  private:
    const RoundAllgather& rounds_;
    Rank c_;
    TaskId first_;
    Style style_;
};

QuotientSchedule quotient_allgather(const GenerateRequest& request, Rank c);
QuotientSchedule quotient_allreduce(const GenerateRequest& request, Rank c);

}  // namespace piccolo::detail
