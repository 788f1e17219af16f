#pragma once
// How far back a schedule's dependencies reach in id order: the bound's chain (lower_bound.cpp)
// keeps a task's earliest completion only as long as a later task can still name it.

#include <algorithm>
#include <optional>
#include <span>

#include "piccolo/schedules/schedule.hpp"

namespace piccolo::detail {

// The largest t - d over every dependency d of every task t, or nothing when one does not point
// back (d >= t: the file lists tasks in another order than their dependencies).
inline std::optional<TaskId> dependency_reach(const Schedule& s) {
    TaskId reach = 0;
    for (TaskId t = 0; t < s.size(); ++t)
        for (const std::span<const TaskId> row : {s.deps.row(t), s.sent_deps_of(t)})
            for (TaskId d : row) {
                if (d >= t) return std::nullopt;
                reach = std::max(reach, t - d);
            }
    return reach;
}

}  // namespace piccolo::detail
