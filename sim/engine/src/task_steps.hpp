#pragma once
// Where PICCOLO_ASSERT is on (core/include/piccolo/core/assert.hpp), the order of each task's
// steps in a replay: a task is ready once, starts once after that (a send's start: its slot or
// processor granted; a compute's start) and completes once after its start (delivered,
// computed). A byte per task; where checks are off, an empty class and no memory.

#include <cstdint>
#include <vector>

#include "piccolo/core/assert.hpp"
#include "piccolo/schedules/schedule.hpp"

namespace piccolo::detail {

class TaskSteps {
  public:
#if PICCOLO_ASSERTS_ON
    explicit TaskSteps(std::size_t tasks) : step_(tasks, waiting) {}
    void ready(TaskId t) {
        advance(t, waiting, ready_);
    }
    void started(TaskId t) {
        advance(t, ready_, started_);
    }
    void completed(TaskId t) {
        advance(t, started_, completed_);
    }

  private:
    enum Step : std::uint8_t { waiting, ready_, started_, completed_ };
    void advance(TaskId t, Step from, Step to) {
        PICCOLO_ASSERT(step_[t] == from);  // a step twice, or before the one it follows
        step_[t] = to;
    }
    std::vector<Step> step_;
#else
    explicit TaskSteps(std::size_t) {}
    void ready(TaskId) {}
    void started(TaskId) {}
    void completed(TaskId) {}
#endif
};

}  // namespace piccolo::detail
