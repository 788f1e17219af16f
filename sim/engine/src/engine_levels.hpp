#pragma once
// An engine entry point for replays whose transfers are priced at levels the caller fixes, not at
// the lowest common level of their two ranks: a quotient schedule (symmetric_sim.cpp) folds a
// destination into the representative ranks, but the transfer still crosses the level its true
// destination is at.

#include <cstdint>
#include <span>

#include "piccolo/engine/engine.hpp"

namespace piccolo::detail {

// `levels`: one entry per task (computes' entries are unused). The caller guarantees that every
// rank of the schedule's tasks is below layout.ranks() (the schedule's shape may name more).
SimResult simulate_with_levels(const Schedule& schedule, const Schedule::Successors& successors,
                               const Machine& machine, const RankLayout& layout,
                               const SimOptions& options, std::span<const std::uint8_t> levels);

}  // namespace piccolo::detail
