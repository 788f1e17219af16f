#include "piccolo/executor/waves.hpp"

#include <algorithm>

namespace piccolo::exec {

std::vector<std::uint32_t> task_levels(const Schedule& schedule, std::span<const TaskId> order) {
    std::vector<std::uint32_t> level(schedule.size(), 0);
    for (TaskId t : order) {
        std::uint32_t deepest = 0;
        bool any = false;
        for (TaskId d : schedule.deps.row(t)) deepest = std::max(deepest, level[d]), any = true;
        for (TaskId d : schedule.sent_deps_of(t)) deepest = std::max(deepest, level[d]), any = true;
        level[t] = any ? deepest + 1 : 0;
    }
    return level;
}

std::vector<Wave> plan_waves(const RankPlan& plan, std::span<const std::uint32_t> levels) {
    const std::uint32_t count =
        levels.empty() ? 0 : *std::max_element(levels.begin(), levels.end()) + 1;
    std::vector<Wave> waves(count);
    for (std::uint32_t i = 0; i < plan.ops.size(); ++i) {
        const LocalOp& op = plan.ops[i];
        Wave& wave = waves[levels[op.task]];
        (op.kind == OpKind::compute ? wave.computes : wave.transfers).push_back(i);
    }
    for (Wave& wave : waves)
        std::stable_sort(
            wave.transfers.begin(), wave.transfers.end(),
            [&](std::uint32_t a, std::uint32_t b) { return plan.ops[a].task < plan.ops[b].task; });
    return waves;
}

}  // namespace piccolo::exec
