// Quotients of the round Allgathers (quotient_rounds.hpp) and of their Allreduces, generated
// for the representatives alone (quotient.hpp, docs/symmetry.md). The task order is the full
// generators' order restricted to the representatives' tasks, which the tests check against
// fold_schedule() of the full schedules.
#include <fmt/format.h>

#include "algorithms.hpp"
#include "builder.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/schedules/quotient.hpp"
#include "quotient_generate.hpp"
#include "quotient_rounds.hpp"

namespace piccolo {

namespace detail {

void QuotientAllgather::emit(ScheduleBuilder& builder, std::vector<Rank>& destination,
                             const std::function<void(int, Rank, RoundWait&)>& extra) const {
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
            destination.push_back(to);
        }
    }
}

}  // namespace detail

std::string quotient_unsupported(const GenerateRequest& request, Rank c) {
    const Rank p = request.ranks;
    // Reduce_scatter and Alltoall have no quotient (yet), the rooted collectives none at all:
    // schedules/README.md says why.
    if (request.collective != Collective::allgather && request.collective != Collective::allreduce)
        return fmt::format("no quotient generator for {}", to_string(request.collective));
    if (request.algorithm != "ring" && request.algorithm != "k-ring")
        return fmt::format("no quotient generator for {}", request.algorithm);
    if (c < 1 || c >= p || p % c != 0)
        return fmt::format("{} representatives do not split {} ranks into orbits", c, p);
    if (request.algorithm == "k-ring" && c % request.k != 0 && request.k % c != 0)
        return fmt::format("k-ring groups of {} ranks neither fill nor split units of {} ranks",
                           request.k, c);
    return {};
}

QuotientSchedule generate_quotient(const GenerateRequest& request, Rank c) {
    (void)find_algorithm(request.algorithm);
    if (const std::string why = quotient_unsupported(request, c); !why.empty())
        throw InputError(fmt::format("quotient schedule: {}", why));
    if (request.algorithm == "k-ring" && (request.k < 2 || request.ranks % request.k != 0))
        throw InputError(fmt::format("-k: k-ring needs k to divide p = {} (got k = {})",
                                     request.ranks, request.k));
    if (request.collective == Collective::allreduce) return detail::quotient_allreduce(request, c);
    return detail::quotient_allgather(request, c);
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
    QuotientAllgather(rounds, c, 0, request.style).emit(builder, q.destination, {});
    q.schedule = std::move(builder).finish();
    q.representatives = c;
    return q;
}

}  // namespace detail

}  // namespace piccolo
