// When the symmetry of docs/symmetry.md holds, and over how many representatives.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

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

SymmetryCheck none(std::string why) {
    return {0, std::move(why)};
}

// Ranks in one unit of each level below the system.
std::vector<Rank> unit_ranks(const Machine& machine, const RankLayout& layout) {
    std::vector<Rank> sizes{layout.ranks() / layout.nodes()};
    for (std::size_t l = 1; l + 1 < machine.levels.size(); ++l)
        sizes.push_back(sizes.back() * machine.levels[l].fanout);
    return sizes;
}

// Empty when the queues that serve a round's transfers at the receiving side (a rank's receive
// slots, processor and receive port; a unit's FIFO ingress lanes) serve every rank of an orbit
// alike; else why not (docs/symmetry.md, "Queues at the receiving side"). Fair sharing's
// constraints and lanes without a radix queue nothing: their shares and times do not depend
// on the order of their flows.
std::string receiving_queues(const GenerateRequest& request, const Machine& machine,
                             const RankLayout& layout, const SimOptions& options) {
    if (!options.contention) return {};  // no queue: receptions never wait, lanes are unlimited
    const bool cpu = std::any_of(machine.levels.begin(), machine.levels.end(), [](const Level& l) {
        return l.overhead == OverheadModel::cpu;
    });
    if ((machine.device_radix || cpu) && round_entry(request, 1) != RoundEntry::one_block)
        return fmt::format(
            "{}: a rank receives from several ranks in one round, and its {} serve them in the "
            "order of their senders, which the moves do not keep",
            request.algorithm, cpu ? "processor and receive port" : "receive slots");
    if (machine.sharing == Sharing::fair) return {};
    const std::vector<Rank> sizes = unit_ranks(machine, layout);
    const std::size_t top = sizes.size() - 1;
    std::size_t limited = 0;
    for (std::size_t l = 0; l < sizes.size(); ++l) limited += machine.levels[l].radix ? 1 : 0;
    for (std::size_t l = 0; l < sizes.size(); ++l) {
        if (!machine.levels[l].radix) continue;
        const RoundEntry entry = round_entry(request, sizes[l]);
        // Shift rounds through the lanes of the highest units alone: a unit's ingress sees, L
        // later, the pattern a unit's egress holds, so it never makes a transfer wait.
        if (entry == RoundEntry::one_block ||
            (entry == RoundEntry::shifted && l == top && limited == 1))
            continue;
        return fmt::format(
            "{}: a unit of level '{}' receives from several units in one round, and its FIFO "
            "lanes serve them in the order of their senders, which the moves do not keep",
            request.algorithm, machine.levels[l].name);
    }
    return {};
}

}  // namespace

SymmetryCheck check_symmetry(const GenerateRequest& request, const Machine& machine,
                             const RankLayout& layout, const SimOptions& options) {
    // A rooted tree gives each rank a role by its distance from the root: moving the ranks by
    // whole units does not map the schedule onto itself, so the full schedule is replayed.
    // (Rabenseifner's Reduce is rooted too; rh and recexch set their fold-in ranks apart.)
    if (request.collective == Collective::bcast || request.collective == Collective::reduce)
        return none(
            fmt::format("a {} is rooted, not rank-symmetric: the root's subtree differs "
                        "from every other",
                        to_string(request.collective)));
    if (machine.placement.kind != PlacementKind::block)
        return none("placement is not block: units are not stretches of consecutive ranks");
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
    if (std::string why = receiving_queues(request, machine, layout, options); !why.empty())
        return none(why);
    return {c, fmt::format("{} representatives, {} ranks per orbit (moves by whole units of {} "
                           "ranks)",
                           c, request.ranks / c, c)};
}

}  // namespace piccolo
