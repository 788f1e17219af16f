#include "run_record.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "piccolo/core/error.hpp"

namespace piccolo::detail {

RunRecord::RunRecord(const Machine& m, std::size_t ranks, std::size_t tasks, bool trace)
    : rank_finish_(ranks, 0), wire_time_(m.levels.size()) {
    for (const Level& level : m.levels) result_.levels.push_back({level.name});
    result_.queueing = {{"device send slots"}, {"device receive slots"}};
    for (std::size_t level = 0; level + 1 < m.levels.size(); ++level) {
        result_.queueing.push_back({m.levels[level].name + " egress lanes"});
        result_.queueing.push_back({m.levels[level].name + " ingress lanes"});
    }
    for (const char* point : {"processor", "send port", "receive port", "fair sharing"})
        result_.queueing.push_back({point});
    total_delay_.resize(result_.queueing.size());
    max_delay_.assign(result_.queueing.size(), 0);
    if (trace) trace_.resize(tasks);
}

void RunRecord::computed(TaskId t, Rank rank, SimTime ready, SimTime start, SimTime end) {
    ++result_.computes;
    compute_time_.add(end - start);
    SimTime& finish = rank_finish_[static_cast<std::size_t>(rank)];
    finish = std::max(finish, end);
    makespan_ = std::max(makespan_, end);
    if (tracing())
        result_.compute_trace.push_back({t, to_seconds(ready), to_seconds(start), to_seconds(end)});
}

void RunRecord::add_wait(std::size_t point, SimTime delay) {
    ++result_.queueing[point].delayed;
    total_delay_[point].add(delay);
    max_delay_[point] = std::max(max_delay_[point], delay);  // in seconds once, at the end
}

SimResult RunRecord::finish(const Schedule& s) && {
    const std::size_t completed = result_.transfers + result_.computes;
    if (completed != s.size())
        throw InputError(
            fmt::format("schedule never finishes: {} of {} tasks wait on a "
                        "dependency cycle (run piccolo verify)",
                        s.size() - completed, s.size()));
    result_.makespan = to_seconds(makespan_);
    result_.compute_time = compute_time_.seconds();
    for (SimTime f : rank_finish_) result_.rank_finish.push_back(to_seconds(f));
    for (std::size_t level = 0; level < wire_time_.size(); ++level)
        result_.levels[level].wire_time = wire_time_[level].seconds();
    for (std::size_t point = 0; point < total_delay_.size(); ++point) {
        result_.queueing[point].total_delay = total_delay_[point].seconds();
        result_.queueing[point].max_delay = to_seconds(max_delay_[point]);
    }
    if (tracing())
        for (TaskId t = 0; t < s.size(); ++t)
            if (s.kind[t] == TaskKind::transfer) result_.transfer_trace.push_back(trace_[t]);
    return std::move(result_);
}

}  // namespace piccolo::detail
