#pragma once
// A plan cut into waves, for transports that match messages by order rather than by tag (NCCL:
// the n-th ncclSend from a to b meets the n-th ncclRecv on b from a) and run on one in-order
// stream. A task's level is 0 without dependencies, else one more than its deepest dependency
// (delivered or sent). Every rank runs wave 0, 1, ... in turn: the computes of the level, the
// packing of its sends, all its transfers in one group (ordered by task id on both sides, so the
// n-th send of a pair is the n-th receive), then the unpacking of its receives. A task's
// dependencies all lie in earlier waves, so the waves keep every order the schedule asks for;
// what they add is that a wave waits for the whole previous wave (the nccl style's rounds).

#include <cstdint>
#include <span>
#include <vector>

#include "piccolo/executor/plan.hpp"
#include "piccolo/schedules/schedule.hpp"

namespace piccolo::exec {

// Level of every task, from a topological order (verify_structure's).
std::vector<std::uint32_t> task_levels(const Schedule& schedule, std::span<const TaskId> order);

struct Wave {
    std::vector<std::uint32_t> computes;   // op indices, in plan order
    std::vector<std::uint32_t> transfers;  // sends and receives, by task id
};

// The plan's ops by the level of their task; waves without any op of this rank stay empty, so
// that every rank has the same number of waves.
std::vector<Wave> plan_waves(const RankPlan& plan, std::span<const std::uint32_t> levels);

}  // namespace piccolo::exec
