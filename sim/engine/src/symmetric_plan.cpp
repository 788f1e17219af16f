// When the symmetry of docs/symmetry.md holds, and over how many representatives.
#include <fmt/format.h>

#include "piccolo/engine/symmetric.hpp"

namespace piccolo {

namespace {

// Ranks in one unit of the highest level below the system, or 0 when units are uneven.
Rank top_unit_ranks(const Machine& machine, const RankLayout& layout) {
    std::int64_t size = layout.ranks() / layout.nodes();  // ranks per node
    for (std::size_t l = 1; l + 1 < machine.levels.size(); ++l) size *= machine.levels[l].fanout;
    if (size >= layout.ranks() || layout.ranks() % size != 0) return 0;
    return static_cast<Rank>(size);
}

SymmetryPlan none(std::string why) {
    return {0, std::move(why)};
}

}  // namespace

SymmetryPlan plan_symmetry(const GenerateRequest& request, const Machine& machine,
                           const RankLayout& layout, const SimOptions& options) {
    // A rooted tree gives each rank a role by its distance from the root: moving the ranks by
    // whole units does not map the schedule onto itself, so the full schedule is replayed.
    if (request.collective == Collective::bcast || request.collective == Collective::reduce)
        return none(
            fmt::format("a {} is rooted, not rank-symmetric: the root's subtree differs "
                        "from every other",
                        to_string(request.collective)));
    if (machine.placement.kind != PlacementKind::block)
        return none("placement is not block: units are not runs of consecutive ranks");
    if (options.record_trace) return none("a trace lists every task");
    if (machine.levels.size() < 2) return none("one level: the machine is a single unit");
    if (request.ranks != layout.ranks())
        return none("the schedule does not use every rank of the layout");
    if (request.collective == Collective::allreduce && request.bytes % request.ranks != 0)
        return none(
            fmt::format("the vector's {} bytes do not cut into {} equal segments: the "
                        "first ranks' segments are a byte longer",
                        request.bytes, request.ranks));
    const Level& system = machine.levels.back();
    if (options.contention && machine.sharing == Sharing::fair && system.capacity)
        return none("the system level's capacity is shared by every transfer");
    const Rank unit = top_unit_ranks(machine, layout);
    if (unit == 0)
        return none(fmt::format("{} ranks do not fill whole units of level '{}'", layout.ranks(),
                                machine.levels[machine.levels.size() - 2].name));
    // k-ring groups that straddle units (neither divides the other) make a unit send to two
    // units in one round; the moves then reorder transfers that share a lane (docs/symmetry.md).
    if (request.algorithm == "k-ring" && unit % request.k != 0 && request.k % unit != 0)
        return none(
            fmt::format("k-ring groups of {} ranks straddle units of {} ranks: a unit "
                        "sends to two units in one round",
                        request.k, unit));
    const Rank c = unit;
    if (std::string why = quotient_unsupported(request, c); !why.empty()) return none(why);
    return {c, fmt::format("{} representatives, {} ranks per orbit (moves by whole units of {} "
                           "ranks)",
                           c, request.ranks / c, c)};
}

}  // namespace piccolo
