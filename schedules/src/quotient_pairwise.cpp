// The quotient of the pairwise schedules (pairwise.cpp) over c representatives: the full
// generator's steps, restricted to the representatives' tasks. Step i sends every rank r to
// r + i (Alltoall of a power of two: r XOR i), which commutes with the moves by whole units
// (XOR: with r -> r XOR (a multiple of c)), so the transfer that rank r receives in step i stands
// for the one its representative's orbit sends: the representative of the sender's orbit, at
// step i. Ids: step by step, the transfers of ranks 0..c-1, then (Reduce_scatter) their reduces.
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "quotient_generate.hpp"

namespace piccolo::detail {

namespace {

constexpr TaskId none = ScheduleBuilder::no_dep;

QuotientSchedule finish(ScheduleBuilder& builder, QuotientSchedule& q, Rank c) {
    q.schedule = std::move(builder).finish();
    q.representatives = c;
    return std::move(q);
}

void push(QuotientSchedule& q, Rank destination, std::uint64_t full_id) {
    q.destination.push_back(destination);
    q.full_id.push_back(full_id);
}

QuotientSchedule quotient_reduce_scatter(const GenerateRequest& request, Rank c) {
    const Rank p = request.ranks;
    ScheduleBuilder builder(
        {Collective::reduce_scatter, p, request.bytes, static_cast<std::uint32_t>(p)},
        request.algorithm, 0, request.payload, request.style);
    const auto steps = static_cast<std::size_t>(c) * (p - 1);
    builder.reserve(2 * steps, 5 * steps);
    QuotientSchedule q;
    q.destination.reserve(2 * steps);
    q.full_id.reserve(2 * steps);
    const auto n = static_cast<std::uint64_t>(p);  // step i's tasks start at 2 (i - 1) p
    const bool pipelined = request.style == Style::pipelined;
    std::vector<TaskId> reduced(c, none), sent(c, none), sends(c);
    RoundWait wait, after;
    for (Rank i = 1; i < p; ++i) {
        for (Rank r = 0; r < c; ++r) {
            const Rank to = (r + i) % p;
            const auto segment = static_cast<std::uint32_t>(to);
            if (!pipelined) wait.set(request.style, {&reduced[r], 1}, {&sent[r], 1});
            sends[r] = builder.transfer(r, to % c, {&segment, 1}, wait.deps, wait.sent);
            push(q, to, 2 * (i - 1) * n + r);
        }
        for (Rank r = 0; r < c; ++r) {
            // The receive from r - i: the representative of its sender's orbit, this step.
            const Rank from = (r - i % p + p) % p % c;
            const auto segment = static_cast<std::uint32_t>(r);
            after.set(pipelined ? Style::pipelined : request.style, {}, {&sends[r], 1});
            after.deps.insert(after.deps.begin(), {sends[from], reduced[r]});
            reduced[r] = builder.compute(TaskKind::reduce, r, request.bytes, {&segment, 1},
                                         after.deps, after.sent);
            push(q, r, 2 * (i - 1) * n + n + r);
        }
        sent.swap(sends);
    }
    return finish(builder, q, c);
}

QuotientSchedule quotient_alltoall(const GenerateRequest& request, Rank c) {
    const Rank p = request.ranks;
    ScheduleBuilder builder(
        {Collective::alltoall, p, request.bytes, pieces_of(Collective::alltoall, p)},
        request.algorithm, 0, request.payload, request.style);
    const auto steps = static_cast<std::size_t>(c) * (p - 1);
    builder.reserve(steps, 2 * steps);
    QuotientSchedule q;
    q.destination.reserve(steps);
    q.full_id.reserve(steps);
    const auto n = static_cast<std::uint64_t>(p);  // step i's transfers start at (i - 1) p
    const bool power_of_two = (p & (p - 1)) == 0;
    std::vector<TaskId> previous(c, none), current(c);  // per representative: its step's send
    RoundWait wait;
    for (Rank i = 1; i < p; ++i) {
        for (Rank r = 0; r < c; ++r) {
            const Rank to = power_of_two ? (r ^ i) : (r + i) % p;
            const auto block = static_cast<std::uint32_t>(r) * static_cast<std::uint32_t>(p) +
                               static_cast<std::uint32_t>(to);
            if (request.style != Style::pipelined) {
                // The previous step's receive, from r XOR (i - 1) or r - (i - 1): the send of
                // the representative of that sender's orbit.
                const Rank from = power_of_two ? (r ^ (i - 1)) : (r - (i - 1) + p) % p;
                wait.set(request.style, {&previous[from % c], 1}, {&previous[r], 1});
            }
            current[r] = builder.transfer(r, to % c, {&block, 1}, wait.deps, wait.sent);
            push(q, to, (i - 1) * n + r);
        }
        previous.swap(current);
    }
    return finish(builder, q, c);
}

}  // namespace

QuotientSchedule quotient_pairwise(const GenerateRequest& request, Rank c) {
    return request.collective == Collective::alltoall ? quotient_alltoall(request, c)
                                                      : quotient_reduce_scatter(request, c);
}

}  // namespace piccolo::detail
