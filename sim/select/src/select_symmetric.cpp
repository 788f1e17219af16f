#include "select_symmetric.hpp"

#include <fmt/format.h>

#include "piccolo/engine/symmetric.hpp"
#include "piccolo/select/select_text.hpp"

namespace piccolo::detail {

namespace {

// The check at one scale, apart from the size: a vector of p equal segments stands for every
// size the reduction covers.
SymmetryCheck check_at(GenerateRequest request, const Machine& machine, const RankLayout& layout,
                       const SimOptions& options) {
    request.bytes = static_cast<std::uint64_t>(request.ranks);
    return check_symmetry(request, machine, layout, options);
}

GenerateRequest quotient_request(GenerateRequest request) {
    request.bytes = static_cast<std::uint64_t>(request.ranks);  // resized before each replay
    request.payload = request.collective == Collective::allreduce;
    return request;
}

}  // namespace

SymmetryChoice choose_symmetry(const GenerateRequest& request, const Machine& machine,
                               std::span<const RankLayout* const> layouts,
                               const SimOptions& options) {
    SymmetryChoice choice;
    for (const RankLayout* layout : layouts) {
        SymmetryCheck check = check_at(request, machine, *layout, options);
        if (check.representatives == 0) return {0, std::move(check.reason)};
        if (choice.representatives == 0) choice = {check.representatives, std::move(check.reason)};
    }
    return choice;
}

bool symmetry_covers(const GenerateRequest& request, std::uint64_t bytes) {
    return request.collective != Collective::allreduce ||
           bytes % static_cast<std::uint64_t>(request.ranks) == 0;
}

std::string engine_choice(const GenerateRequest& request, bool has_radix, std::uint64_t tasks,
                          const SymmetryChoice& choice) {
    return fmt::format(
        "{} ({} tasks): {}{}",
        candidate_label(request.collective, request.algorithm, has_radix, request.k, request.ranks),
        tasks,
        choice.representatives > 0 ? "symmetry reduction, " : "full engine: ", choice.reason);
}

std::string uneven_note(Collective collective, Rank ranks) {
    return fmt::format(
        "{} at p = {}: ring and k-ring run only at vector sizes that are multiples of {} (p "
        "equal segments keep the symmetry that replays them, docs/symmetry.md; other sizes need "
        "their full DAG, over the 2^32 tasks a schedule can index)",
        to_string(collective), ranks, ranks);
}

TaskCounts quotient_counts(const TaskCounts& full, Rank ranks, Rank representatives) {
    const auto orbit = static_cast<std::uint64_t>(ranks / representatives);
    TaskCounts q = full;
    q.transfers /= orbit;
    q.computes /= orbit;
    q.dependency_ids /= orbit;
    q.shared_dependency_ids /= orbit;
    q.payload_ids /= orbit;
    q.widest_round /= orbit;
    return q;
}

QuotientReplay::QuotientReplay(const GenerateRequest& request, Rank representatives,
                               const Machine& machine, const SimOptions& options)
    : request_(quotient_request(request)),
      machine_(machine),
      options_(options),
      quotient_(generate_quotient(request_, representatives)),
      successors_(quotient_.schedule.joined_successors()) {}

void QuotientReplay::set_full(Schedule full) {
    full_ = std::move(full);
    full_successors_ = full_->joined_successors();
}

std::optional<QuotientReplay::Replay> QuotientReplay::run(const RankLayout& layout,
                                                          std::uint64_t bytes) {
    if (!symmetry_covers(request_, bytes)) {
        if (!full_) return std::nullopt;
        set_message_size(*full_, bytes);
        return Replay{simulate(*full_, full_successors_, machine_, layout, options_).makespan,
                      full_->size()};
    }
    const Rank c = check_at(request_, machine_, layout, options_).representatives;
    if (c != quotient_.representatives) {  // another scale of the same p
        quotient_ = generate_quotient(request_, c);
        successors_ = quotient_.schedule.joined_successors();
    }
    set_message_size(quotient_.schedule, bytes);
    return Replay{simulate_quotient(quotient_, successors_, machine_, layout, options_).makespan,
                  quotient_.schedule.size()};
}

}  // namespace piccolo::detail
