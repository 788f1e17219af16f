// Ring Allgather: in step t (0-based) rank r forwards block (r - t) mod p to r + 1; after p - 1
// steps every rank holds every block. Each send waits for the receive that delivered its block
// and, in the round-synchronous styles, for the rank's previous send (Style).
// Ring Allreduce: the reversed ring (reduce-scatter) followed by the ring Allgather.
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"

namespace piccolo::detail {

namespace {

Schedule ring_allgather(Rank p, std::uint64_t bytes, bool payload, Style style) {
    ScheduleBuilder builder({Collective::allgather, p, bytes, static_cast<std::uint32_t>(p)},
                            "ring", 0, payload, style);
    const auto transfers = static_cast<std::size_t>(p) * (p - 1);
    builder.reserve(transfers, 2 * transfers);
    // Per rank: the receive of the previous step and its own previous send.
    std::vector<TaskId> received(p, ScheduleBuilder::no_dep), next(p);
    std::vector<TaskId> sent(p, ScheduleBuilder::no_dep);
    RoundWait wait;
    for (Rank step = 0; step + 1 < p; ++step) {
        for (Rank r = 0; r < p; ++r) {
            const std::uint32_t block = static_cast<std::uint32_t>((r - step + p) % p);
            const Rank to = (r + 1) % p;
            wait.set(style, {&received[r], 1}, {&sent[r], 1});
            next[to] = sent[r] = builder.transfer(r, to, {&block, 1}, wait.deps, wait.sent);
        }
        received.swap(next);
    }
    return std::move(builder).finish();
}

}  // namespace

Schedule generate_ring(const GenerateRequest& request) {
    if (request.collective == Collective::allgather)
        return ring_allgather(request.ranks, request.bytes, request.payload, request.style);
    const Schedule allgather = ring_allgather(request.ranks, 1, true, request.style);
    return allreduce_by_reversal(allgather, request);
}

}  // namespace piccolo::detail
