// Pairwise exchange, p - 1 steps of one MPI_Sendrecv each, for two collectives:
//
// Reduce_scatter (MPICH's MPIR_Reduce_scatter_block_intra_pairwise, MPICH v4.1.2,
// src/mpi/coll/reduce_scatter_block/reduce_scatter_block_intra_pairwise.c): in step i = 1..p-1
// rank r sends its own contribution to segment r + i to rank r + i, receives rank r - i's
// contribution to segment r, and reduces it into its result. MPICH first copies its own
// contribution into the result buffer; here that is where the partial sum starts, so no task.
//
// Alltoall (MPICH's MPIR_Alltoall_intra_pairwise, same release,
// src/mpi/coll/alltoall/alltoall_intra_pairwise.c): in step i rank r sends block (r, d) to
// d = r XOR i when p is a power of two, else to d = r + i, and receives from r XOR i, or r - i.
// MPICH first copies the block a rank keeps; it is in place here, so no task.
//
// Every send reads the rank's original data, so no send waits for data: in the
// round-synchronous styles a step waits for the previous one as MPI_Sendrecv does (receive
// delivered, or for Reduce_scatter the reduce that consumed it; own send sent under mpi,
// delivered under nccl); pipelined, the sends wait for nothing. A reduce waits for the receive it
// folds in, the previous reduce (it updates the result in place) and, in the round-synchronous
// styles, the step's own send.
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"

namespace piccolo::detail {

namespace {

constexpr TaskId none = ScheduleBuilder::no_dep;

Schedule reduce_scatter(const GenerateRequest& request) {
    const Rank p = request.ranks;
    const auto pieces = static_cast<std::uint32_t>(p);
    ScheduleBuilder builder({Collective::reduce_scatter, p, request.bytes, pieces},
                            request.algorithm, 0, request.payload, request.style);
    const auto steps = static_cast<std::size_t>(p) * (p - 1);
    builder.reserve(2 * steps, 5 * steps);
    const bool pipelined = request.style == Style::pipelined;
    std::vector<TaskId> reduced(p, none), sent(p, none), sends(p);
    RoundWait wait, after;
    for (Rank i = 1; i < p; ++i) {
        for (Rank r = 0; r < p; ++r) {
            const Rank to = (r + i) % p;
            const auto segment = static_cast<std::uint32_t>(to);
            if (!pipelined) wait.set(request.style, {&reduced[r], 1}, {&sent[r], 1});
            sends[r] = builder.transfer(r, to, {&segment, 1}, wait.deps, wait.sent);
        }
        for (Rank r = 0; r < p; ++r) {
            const Rank from = (r - i + p) % p;
            const auto segment = static_cast<std::uint32_t>(r);
            after.set(pipelined ? Style::pipelined : request.style, {}, {&sends[r], 1});
            after.deps.insert(after.deps.begin(), {sends[from], reduced[r]});
            reduced[r] = builder.compute(TaskKind::reduce, r, request.bytes, {&segment, 1},
                                         after.deps, after.sent);
        }
        sent.swap(sends);
    }
    return std::move(builder).finish();
}

Schedule alltoall(const GenerateRequest& request) {
    const Rank p = request.ranks;
    ScheduleBuilder builder(
        {Collective::alltoall, p, request.bytes, pieces_of(Collective::alltoall, p)},
        request.algorithm, 0, request.payload, request.style);
    const auto steps = static_cast<std::size_t>(p) * (p - 1);
    builder.reserve(steps, 2 * steps);
    const bool power_of_two = (p & (p - 1)) == 0;
    std::vector<TaskId> received(p, none), next(p), sent(p, none);
    RoundWait wait;
    for (Rank i = 1; i < p; ++i) {
        for (Rank r = 0; r < p; ++r) {
            const Rank to = power_of_two ? (r ^ i) : (r + i) % p;
            const auto block = static_cast<std::uint32_t>(r) * static_cast<std::uint32_t>(p) +
                               static_cast<std::uint32_t>(to);
            if (request.style != Style::pipelined)
                wait.set(request.style, {&received[r], 1}, {&sent[r], 1});
            next[to] = sent[r] = builder.transfer(r, to, {&block, 1}, wait.deps, wait.sent);
        }
        received.swap(next);
    }
    return std::move(builder).finish();
}

}  // namespace

Schedule generate_pairwise(const GenerateRequest& request) {
    return request.collective == Collective::alltoall ? alltoall(request)
                                                      : reduce_scatter(request);
}

}  // namespace piccolo::detail
