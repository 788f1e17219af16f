// simulate(): the engine instantiated with the models of the replay (transfer_engine.hpp runs
// it; sim/engine/README.md states the contract). A lane model and the overhead models of the
// machine's levels are template arguments: each instantiation's steps call them directly, and
// the lean one (FIFO lanes, offload overheads alone, no trace: most replays) has no branch of
// the other models in any step.
#include "piccolo/engine/engine.hpp"

#include <fmt/format.h>

#include "cpu_overheads.hpp"
#include "engine_levels.hpp"
#include "fair_lanes.hpp"
#include "fifo_lanes.hpp"
#include "level_overheads.hpp"
#include "offload_overheads.hpp"
#include "piccolo/core/error.hpp"
#include "transfer_engine.hpp"

namespace piccolo {

namespace {

using namespace detail;

using OffloadOnly = LevelOverheads<OffloadOverheads>;
using AnyOverheads = LevelOverheads<OffloadOverheads, CpuOverheads>;

template <class Lanes, class Overheads, bool Traces>
SimResult run(const Schedule& s, const Schedule::Successors& successors, const Machine& m,
              const RankLayout& layout, const SimOptions& o, std::span<const std::uint8_t> levels) {
    return Engine<Lanes, Overheads, Traces>(s, successors, m, layout, o, levels).run();
}

SimResult replay(const Schedule& s, const Schedule::Successors& successors, const Machine& m,
                 const RankLayout& layout, const SimOptions& o,
                 std::span<const std::uint8_t> levels) {
    if (o.contention && m.sharing == Sharing::fair)
        return run<FairLanes, AnyOverheads, true>(s, successors, m, layout, o, levels);
    if (o.record_trace || cpu_overheads(m, o))
        return run<FifoLanes, AnyOverheads, true>(s, successors, m, layout, o, levels);
    return run<FifoLanes, OffloadOnly, false>(s, successors, m, layout, o, levels);
}

}  // namespace

SimResult simulate(const Schedule& schedule, const Schedule::Successors& successors,
                   const Machine& machine, const RankLayout& layout, const SimOptions& options) {
    if (schedule.shape.ranks > layout.ranks())
        throw InputError(fmt::format("the schedule has {} ranks but the layout places only {}",
                                     schedule.shape.ranks, layout.ranks()));
    return replay(schedule, successors, machine, layout, options, {});
}

namespace detail {

SimResult simulate_with_levels(const Schedule& schedule, const Schedule::Successors& successors,
                               const Machine& machine, const RankLayout& layout,
                               const SimOptions& options, std::span<const std::uint8_t> levels) {
    return replay(schedule, successors, machine, layout, options, levels);
}

}  // namespace detail

SimResult simulate(const Schedule& schedule, const Machine& machine, const RankLayout& layout,
                   const SimOptions& options) {
    return simulate(schedule, schedule.joined_successors(), machine, layout, options);
}

}  // namespace piccolo
