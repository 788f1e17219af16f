#pragma once
// Edits of a schedule that the verifier's tests make to break it on purpose.
#include <cstddef>
#include <utility>

#include "piccolo/schedules/schedule.hpp"

namespace piccolo::test {

// Rebuilds the dependency lists with `task`'s dependency number `which` removed.
inline Schedule without_dependency(Schedule s, TaskId task, std::size_t which) {
    Csr<TaskId> deps;
    for (TaskId t = 0; t < s.size(); ++t) {
        const auto row = s.deps.row(t);
        for (std::size_t i = 0; i < row.size(); ++i)
            if (t != task || i != which) deps.items.push_back(row[i]);
        deps.close_row();
    }
    s.deps = std::move(deps);
    return s;
}

}  // namespace piccolo::test
