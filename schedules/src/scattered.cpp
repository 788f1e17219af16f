// Scattered Alltoall (MPICH's MPIR_Alltoall_intra_scattered, MPICH v4.1.2,
// src/mpi/coll/alltoall/alltoall_intra_scattered.c): rank r posts its receives and sends in
// batches of b = 32 partners (MPIR_CVAR_ALLTOALL_THROTTLE, MPICH's default) and waits for each
// batch (MPI_Waitall) before the next. Batch n covers the distances j = 32 n .. 32 n + 31 below
// p: r sends block (r, r - j) to r - j and receives from r + j. MPICH's batch 0 includes j = 0,
// a message to itself; its block is in place here, so no task, and batch 0 has 31 transfers per
// rank (p - 1 when p <= 32).
//
// Every send reads the rank's original data. mpi: a batch waits for the previous batch's receives
// delivered and sends sent (MPI_Waitall); nccl: both delivered; pipelined: nothing.
#include <algorithm>
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"

namespace piccolo::detail {

Schedule generate_scattered(const GenerateRequest& request) {
    const Rank p = request.ranks;
    const auto n = static_cast<std::uint32_t>(p);
    ScheduleBuilder builder({Collective::alltoall, p, request.bytes, n * n}, request.algorithm, 0,
                            request.payload, request.style);
    const auto transfers = static_cast<std::size_t>(p) * (p - 1);
    builder.reserve(transfers, 2 * transfers * std::min<std::size_t>(p, scattered_batch));
    std::vector<std::vector<TaskId>> received(p), sent(p), next_received(p), next_sent(p);
    RoundWait wait;
    for (Rank first = 0; first < p; first += scattered_batch) {
        const Rank last = std::min<Rank>(p, first + scattered_batch);
        for (Rank r = 0; r < p; ++r) {
            if (request.style != Style::pipelined)
                wait.set(request.style, received[r], sent[r]);
            for (Rank j = std::max<Rank>(first, 1); j < last; ++j) {
                const Rank to = (r - j + p) % p;
                const std::uint32_t block = static_cast<std::uint32_t>(r) * n +
                                            static_cast<std::uint32_t>(to);
                const TaskId t = builder.transfer(r, to, {&block, 1}, wait.deps, wait.sent);
                next_sent[r].push_back(t);
                next_received[to].push_back(t);
            }
        }
        received.swap(next_received);
        sent.swap(next_sent);
        for (Rank r = 0; r < p; ++r) {
            next_received[r].clear();
            next_sent[r].clear();
        }
    }
    return std::move(builder).finish();
}

}  // namespace piccolo::detail
