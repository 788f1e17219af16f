// The replay of a quotient schedule on the representatives (docs/symmetry.md): the engine runs
// the representatives' tasks on a layout of the representatives' units alone, each transfer
// priced at the level its true destination is at, and the result is scaled back to the orbits.
#include <fmt/format.h>

#include "engine_levels.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/engine/symmetric.hpp"

namespace piccolo {

namespace {

// Counts and sums were taken over the representatives; each stands for `orbit` tasks.
void scale_to_orbits(SimResult& r, Rank orbit, Rank ranks) {
    const auto n = static_cast<std::uint64_t>(orbit);
    const auto x = static_cast<double>(orbit);
    r.transfers *= n;
    r.computes *= n;
    r.compute_time *= x;
    for (LevelStats& l : r.levels) {
        l.transfers *= n;
        l.bytes *= n;
        l.wire_time *= x;
    }
    for (QueueingStats& q : r.queueing) {
        q.delayed *= n;
        q.total_delay *= x;
    }
    const std::vector<double> representatives = std::move(r.rank_finish);
    r.rank_finish.resize(static_cast<std::size_t>(ranks));
    for (std::size_t rank = 0; rank < r.rank_finish.size(); ++rank)
        r.rank_finish[rank] = representatives[rank % representatives.size()];
}

}  // namespace

SimResult simulate_quotient(const QuotientSchedule& quotient,
                            const Schedule::Successors& successors, const Machine& machine,
                            const RankLayout& layout, const SimOptions& options) {
    const Schedule& s = quotient.schedule;
    const Rank c = quotient.representatives;
    const int ppn = layout.ranks() / layout.nodes();
    if (s.shape.ranks != layout.ranks() || c <= 0 || c % ppn != 0 || s.shape.ranks % c != 0)
        throw InputError(
            fmt::format("a quotient of {} ranks over {} representatives does not fit "
                        "{} nodes x {} ranks",
                        s.shape.ranks, c, layout.nodes(), ppn));
    // The representatives fill whole units: alone, they are laid out as in the full run.
    const RankLayout representatives(machine, c / ppn, ppn);
    std::vector<std::uint8_t> levels(s.size(), 0);
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::transfer)
            levels[t] =
                static_cast<std::uint8_t>(layout.common_level(s.src[t], quotient.destination[t]));
    SimResult result =
        detail::simulate_with_levels(s, successors, machine, representatives, options, levels);
    scale_to_orbits(result, quotient.orbit_size(), s.shape.ranks);
    return result;
}

}  // namespace piccolo
