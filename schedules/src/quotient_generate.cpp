// Quotients of the round Allgathers (quotient_rounds.hpp), generated for the representatives
// alone (quotient.hpp, docs/symmetry.md), and the entry point of every quotient generator. The
// task order is the full generators' order restricted to the representatives' tasks, which the
// tests check against fold_schedule() of the full schedules.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string_view>

#include "algorithms.hpp"
#include "builder.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/schedules/quotient.hpp"
#include "quotient_generate.hpp"
#include "quotient_rounds.hpp"

namespace piccolo {

namespace detail {

void QuotientAllgather::emit(ScheduleBuilder& builder, QuotientSchedule& q,
                             const std::function<void(int, Rank, RoundWait&)>& extra) const {
    const auto p = static_cast<std::uint64_t>(rounds_.ranks());
    RoundWait wait;
    std::vector<TaskId> deps;
    for (int i = 0; i < rounds_.rounds(); ++i) {
        for (Rank r = 0; r < c_; ++r) {
            const Rank to = rounds_.to(i, r);
            TaskId received = ScheduleBuilder::no_dep, own = ScheduleBuilder::no_dep;
            if (i > 0) {
                received = id(i - 1, rounds_.from(i - 1, r));
                own = id(i - 1, r);
            }
            wait.set(style_, {&received, 1}, {&own, 1});
            if (const int d = rounds_.data_round(i); d >= 0)
                wait.deps.push_back(id(d, rounds_.from(d, r)));
            if (extra) extra(i, r, wait);
            const std::uint32_t block = rounds_.block(i, r);
            builder.transfer(r, to % c_, {&block, 1}, wait.deps, wait.sent);
            q.destination.push_back(to);
            q.full_id.push_back(full_first_ + static_cast<std::uint64_t>(i) * p +
                                static_cast<std::uint64_t>(r));
        }
    }
}

}  // namespace detail

namespace {

// The algorithms with a quotient generator, per collective. Bcast and Reduce have none (rooted
// trees), nor rd, rm, prd, prm, rh and recexch: docs/symmetry.md says why.
bool has_quotient(Collective collective, std::string_view algorithm) {
    const bool rings = algorithm == "ring" || algorithm == "k-ring";
    switch (collective) {
        case Collective::allgather:
        case Collective::allreduce:
            return rings;
        case Collective::reduce_scatter:
            return rings || algorithm == "pairwise";
        case Collective::alltoall:
            return algorithm == "pairwise" || algorithm == "scattered" || algorithm == "bruck";
        default:
            return false;
    }
}

}  // namespace

std::string quotient_unsupported(const GenerateRequest& request, Rank c) {
    const Rank p = request.ranks;
    if (request.collective == Collective::bcast || request.collective == Collective::reduce)
        return fmt::format("no quotient generator for {}", to_string(request.collective));
    if (!has_quotient(request.collective, request.algorithm))
        return fmt::format("no quotient generator for {}", request.algorithm);
    if (c < 1 || c >= p || p % c != 0)
        return fmt::format("{} representatives do not split {} ranks into orbits", c, p);
    if (request.algorithm == "k-ring" && c % request.k != 0 && request.k % c != 0)
        return fmt::format("k-ring groups of {} ranks neither fill nor split units of {} ranks",
                           request.k, c);
    return {};
}

QuotientSchedule generate_quotient(const GenerateRequest& request, Rank c) {
    const AlgorithmInfo& info = find_algorithm(request.algorithm);
    if (const std::string why = quotient_unsupported(request, c); !why.empty())
        throw InputError(fmt::format("quotient schedule: {}", why));
    if (request.bytes == 0) throw InputError("--bytes: message size must be at least 1 byte");
    if (info.has_radix && (request.k < 2 || request.k > request.ranks ||
                           !info.accepts_radix(request.ranks, request.k)))
        throw InputError(fmt::format(
            "-k: {} with p = {} accepts k in {{{}}} (got k = {})", info.name, request.ranks,
            fmt::join(info.valid_radices(request.ranks), ", "), request.k));
    switch (request.collective) {
        case Collective::allgather:
            return detail::quotient_allgather(request, c);
        case Collective::allreduce:
            return detail::quotient_reversal(request, c);
        case Collective::reduce_scatter:
            return request.algorithm == "pairwise" ? detail::quotient_pairwise(request, c)
                                                   : detail::quotient_reversal(request, c);
        default:  // Alltoall: quotient_unsupported() let no other collective through
            if (request.algorithm == "pairwise") return detail::quotient_pairwise(request, c);
            if (request.algorithm == "scattered") return detail::quotient_scattered(request, c);
            return detail::quotient_bruck_alltoall(request, c);
    }
}

namespace detail {

QuotientSchedule quotient_allgather(const GenerateRequest& request, Rank c) {
    const Rank p = request.ranks;
    const int k = request.algorithm == "k-ring" ? request.k : 0;
    ScheduleBuilder builder(
        {Collective::allgather, p, request.bytes, static_cast<std::uint32_t>(p)}, request.algorithm,
        k, request.payload, request.style);
    const RoundAllgather rounds(request);
    const auto tasks = static_cast<std::size_t>(rounds.rounds()) * c;
    builder.reserve(tasks, 3 * tasks);
    QuotientSchedule q;
    q.destination.reserve(tasks);
    q.full_id.reserve(tasks);
    QuotientAllgather(rounds, c, 0, request.style, 0).emit(builder, q, {});
    q.schedule = std::move(builder).finish();
    q.representatives = c;
    return q;
}

}  // namespace detail

}  // namespace piccolo
