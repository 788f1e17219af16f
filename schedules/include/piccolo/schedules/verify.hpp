#pragma once
// The schedule verifier: structural checks, then a proof that the data flow is right.
//
// Data-flow rule (schedules/README.md has the long form): a task at rank r may use a block or
// partial sum only if the task that put it on r (a receive or a reduce) is in the task's
// rank-local dependency closure: reachable backwards through dependencies on tasks that involve
// r (send from r, receive into r, compute on r). That closure is a subset of the true one, so an
// accepted schedule has no race under any timing.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "piccolo/schedules/schedule.hpp"

namespace piccolo {

struct Violation {
    static constexpr TaskId no_task = ~TaskId{0};
    TaskId task = no_task;  // the offending task, or no_task for a whole-schedule property
    std::string message;    // names the task by its external id
};

struct VerifyReport {
    std::optional<Violation> violation;  // the first one found
    bool data_flow_checked = false;      // false when the schedule carries no payload
    std::size_t transfers = 0;
    std::size_t computes = 0;
    std::uint64_t bytes_moved = 0;
    [[nodiscard]] bool ok() const { return !violation.has_value(); }
};

// Ranks in range, src != dst, sizes > 0, payload consistent with sizes, acyclic (Boost.Graph).
// On success fills `order` with a topological order of the tasks.
std::optional<Violation> verify_structure(const Schedule& schedule, std::vector<TaskId>& order);

// Structure, then (if the schedule has payload descriptors) the data-flow proof.
VerifyReport verify(const Schedule& schedule);

}  // namespace piccolo
