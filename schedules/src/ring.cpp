// Ring Allgather: in step t (0-based) rank r forwards block (r - t) mod p to r + 1; after p - 1
// steps every rank holds every block. Each send waits for the receive that delivered its block.
// Ring Allreduce: the reversed ring (reduce-scatter) followed by the ring Allgather.
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"

namespace piccolo::detail {

namespace {

Schedule ring_allgather(Rank p, std::uint64_t bytes, bool payload, std::string name, int k) {
    ScheduleBuilder builder({Collective::allgather, p, bytes, static_cast<std::uint32_t>(p)},
                            std::move(name), k, payload);
    const auto transfers = static_cast<std::size_t>(p) * (p - 1);
    builder.reserve(transfers, transfers);
    std::vector<TaskId> received(p, ScheduleBuilder::no_dep), next(p);
    for (Rank step = 0; step + 1 < p; ++step) {
        for (Rank r = 0; r < p; ++r) {
            const std::uint32_t block = static_cast<std::uint32_t>((r - step + p) % p);
            const Rank to = (r + 1) % p;
            next[to] = builder.transfer(r, to, {&block, 1}, {received[r]});
        }
        received.swap(next);
    }
    return std::move(builder).finish();
}

}  // namespace

Schedule generate_ring(const GenerateRequest& request) {
    if (request.collective == Collective::allgather)
        return ring_allgather(request.ranks, request.bytes, request.payload, "ring", 0);
    const Schedule allgather = ring_allgather(request.ranks, 1, true, "ring", 0);
    return allreduce_by_reversal(allgather, request);
}

}  // namespace piccolo::detail
