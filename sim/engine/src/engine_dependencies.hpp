#pragma once
// What each task of a replay still waits for, and the READY events its dependencies' completions
// make (transfer_engine.hpp). A task waits for its `deps` to be delivered and its `sent_deps` to
// be sent; Schedule::joined_successors() lists, per completed task, the waiters to tell, and
// groups tasks with the same dependencies into cohorts served by one READY event (led by the
// cohort's first task).

#include <cstdint>
#include <vector>

#include "event_queue.hpp"
#include "partial_waiters.hpp"
#include "piccolo/core/assert.hpp"
#include "piccolo/schedules/schedule.hpp"

namespace piccolo::detail {

class Dependencies {
  public:
    Dependencies(const Schedule& s, const Schedule::Successors& successors)
        : s_(s), successors_(successors) {}

    // Pushes a READY at time 0 for every cohort leader that waits for nothing, and notes whether
    // some task waits for more than one. Where none does (a pipelined ring), a release makes its
    // successors ready at once.
    void start(EventQueue& events) {
        for (TaskId t = 0; t < s_.size(); ++t) {
            const std::uint32_t count = dependencies(t);
            joins_ = joins_ || count > 1;
            if (count == 0 && leads(t)) events.push({0, EventKind::ready, t});
        }
        if (joins_) partial_ = PartialWaiters(waiter_count());
    }

    // Task t's completion (or send) at `time` was a dependency of these: the last one makes a
    // successor ready then, and with it the rest of the cohort it leads. Out of line: inlined into
    // the reception's steps, it made a replay of 75,264 ranks slower (tools/bench/history.md).
    [[gnu::noinline]] void release(const PackedRows& successors, TaskId t, SimTime time,
                                   EventQueue& events) {
        if (successors.empty()) return;
        for (std::uint32_t waiter : successors.row(t)) {
            const TaskId task = successors_.task_of(waiter);
            SimTime at = time;
            if (joins_ && !wait_for_rest(waiter, task, at)) continue;
            events.push({at, EventKind::ready, task});
        }
    }

    // One past the last task of the cohort that t leads or continues.
    [[nodiscard]] TaskId cohort_end(TaskId t) const {
        if (successors_.cohort.empty()) return t + 1;
        TaskId first = t;
        while (successors_.cohort[first] == 0) --first;  // a continued cohort: find its leader
        return first + successors_.cohort[first];
    }

  private:
    // One of the waiter's dependencies is done at `time`: false while others are missing; else
    // true with `time` raised to the latest of them (they are done in event order, not in time
    // order: a delivery is known when its reception starts).
    bool wait_for_rest(std::uint32_t waiter, TaskId task, SimTime& time) {
        PartialWaiters::Entry* entry = partial_.find(waiter);
        if (!entry) {
            const std::uint32_t count = dependencies(task);
            if (count == 1) return true;
            partial_.add(waiter, time, count - 1);
            return false;
        }
        PICCOLO_ASSERT(entry->missing > 0);  // a dependency done once
        if (entry->ready_at > time) time = entry->ready_at;
        entry->ready_at = time;
        if (--entry->missing != 0) return false;
        partial_.erase(*entry);
        return true;
    }

    [[nodiscard]] bool leads(TaskId t) const {
        return successors_.cohort.empty() || successors_.cohort[t] > 0;
    }
    // The joined lists' waiters, else every task.
    [[nodiscard]] std::size_t waiter_count() const {
        return successors_.waiters.empty() ? s_.size() : successors_.waiters.size();
    }
    [[nodiscard]] std::uint32_t dependencies(TaskId t) const {
        return static_cast<std::uint32_t>(s_.deps.row(t).size() + s_.sent_deps_of(t).size());
    }
    const Schedule& s_;
    const Schedule::Successors& successors_;
    bool joins_ = false;         // some task waits for more than one dependency
    PartialWaiters partial_{0};  // waiters (Successors::waiters, else tasks) under way
};

}  // namespace piccolo::detail
