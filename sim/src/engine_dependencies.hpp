#pragma once
// What each task of a replay still waits for, and the READY events its dependencies' completions
// make (engine.cpp). A task waits for its `deps` to be delivered and its `sent_deps` to be sent;
// Schedule::joined_successors() lists, per completed task, the waiters to tell, and groups tasks
// with the same dependencies into runs served by one READY event (led by the run's first task).

#include <cstdint>
#include <vector>

#include "event_queue.hpp"
#include "piccolo/schedule.hpp"

namespace piccolo::detail {

class Dependencies {
  public:
    Dependencies(const Schedule& s, const Schedule::Successors& successors)
        : s_(s), successors_(successors) {}

    // Pushes a READY at time 0 for every run leader that waits for nothing, and starts counting
    // where some task waits for more than one. Where none does (a pipelined ring), a release
    // makes its successors ready at once and nothing is kept per waiter.
    void start(EventQueue& events) {
        bool joins = false;
        for (TaskId t = 0; t < s_.size(); ++t) {
            const std::uint32_t count = dependencies(t);
            joins = joins || count > 1;
            if (count == 0 && leads(t)) events.push({0, EventKind::ready, t});
        }
        if (!joins) return;
        pending_.resize(waiter_count());
        for (std::size_t w = 0; w < pending_.size(); ++w)
            pending_[w] = {0, dependencies(successors_.task_of(static_cast<std::uint32_t>(w)))};
    }

    // Task t's completion (or send) at `time` was a dependency of these: the last one makes a
    // successor ready then, and with it the rest of the run it leads. Out of line: inlined into
    // the reception's steps, it made a replay of 75,264 ranks slower (tools/bench/history.md).
    [[gnu::noinline]] void release(const Csr<TaskId>& successors, TaskId t, SimTime time,
                                   EventQueue& events) {
        if (successors.rows() == 0) return;
        if (pending_.empty()) {  // each successor waits for this task alone
            for (std::uint32_t waiter : successors.row(t))
                events.push({time, EventKind::ready, successors_.task_of(waiter)});
            return;
        }
        for (std::uint32_t waiter : successors.row(t)) {
            Pending& next = pending_[waiter];
            const SimTime at = next.ready_at > time ? next.ready_at : time;
            next.ready_at = at;
            if (--next.missing != 0) continue;
            events.push({at, EventKind::ready, successors_.task_of(waiter)});
        }
    }

    // One past the last task of the run that t leads or continues.
    [[nodiscard]] TaskId run_end(TaskId t) const {
        if (successors_.run.empty()) return t + 1;
        TaskId first = t;
        while (successors_.run[first] == 0) --first;  // a continued run: find its leader
        return first + successors_.run[first];
    }

  private:
    [[nodiscard]] bool leads(TaskId t) const {
        return successors_.run.empty() || successors_.run[t] > 0;
    }
    [[nodiscard]] std::uint32_t dependencies(TaskId t) const {
        return static_cast<std::uint32_t>(s_.deps.row(t).size() + s_.sent_deps_of(t).size());
    }
    // The joined lists' waiters, or every task where the lists name tasks; none where no task
    // waits for anything.
    [[nodiscard]] std::size_t waiter_count() const {
        if (!successors_.waiters.empty()) return successors_.waiters.size();
        return successors_.delivered.items.empty() && successors_.sent.items.empty() ? 0
                                                                                     : s_.size();
    }

    const Schedule& s_;
    const Schedule::Successors& successors_;
    // Per waiter (Schedule::Successors::waiters, else per task): what it still waits for; empty
    // where no task waits for more than one. Packed: 12 bytes, no more than two arrays.
    struct [[gnu::packed]] Pending {
        SimTime ready_at = 0;       // its latest dependency's time so far
        std::uint32_t missing = 0;  // dependencies not yet done
    };
    std::vector<Pending> pending_;
};

}  // namespace piccolo::detail
