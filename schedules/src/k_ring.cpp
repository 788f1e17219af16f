// k-ring Allgather (Liu, Rhee, Wilkins, Dinda): ranks form p/k groups of k consecutive ranks.
// Phase 1, p/k - 1 inter-group rounds: rank r forwards to r + k the block it received last, so
// afterwards it holds its "column" (the blocks of every rank at its position in a group).
// Phase 2, (k - 1) p/k intra-group rounds: for each column item q in turn, a ring Allgather of
// that item inside the group (k - 1 rounds). Every round's send waits for the previous round's
// receive (the round structure of the closed form); a send that starts a new item also waits
// for the phase-1 receive that delivered it. k must divide p (refused otherwise).
// k-ring Allreduce: its reversal (reduce-scatter) followed by the k-ring Allgather.
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"

namespace piccolo::detail {

std::vector<int> k_ring_radices(Rank p) {
    std::vector<int> radices;
    for (int k = 2; k <= p; ++k)
        if (p % k == 0) radices.push_back(k);
    return radices;
}

namespace {

Schedule k_ring_allgather(Rank p, int k, std::uint64_t bytes, bool payload) {
    ScheduleBuilder builder({Collective::allgather, p, bytes, static_cast<std::uint32_t>(p)},
                            "k-ring", k, payload);
    const Rank groups = p / k;
    const auto transfers = static_cast<std::size_t>(p) * (p - 1);
    builder.reserve(transfers, transfers + static_cast<std::size_t>(p) * groups);

    // delivered[q * p + r]: the phase-1 receive that brought rank r its column item q.
    std::vector<TaskId> delivered(static_cast<std::size_t>(groups) * p, ScheduleBuilder::no_dep);
    std::vector<TaskId> received(p, ScheduleBuilder::no_dep), next(p);
    std::vector<std::uint32_t> block_received(p), block_next(p);
    auto block_of = [p](Rank r) { return static_cast<std::uint32_t>(r); };

    for (Rank r = 0; r < p; ++r) block_received[r] = block_of(r);
    for (Rank round = 1; round < groups; ++round) {
        for (Rank r = 0; r < p; ++r) {
            const Rank to = (r + k) % p;
            next[to] = builder.transfer(r, to, {&block_received[r], 1}, {received[r]});
            block_next[to] = block_received[r];
            delivered[static_cast<std::size_t>(round) * p + to] = next[to];
        }
        received.swap(next);
        block_received.swap(block_next);
    }

    for (Rank item = 0; item < groups; ++item) {
        for (int step = 1; step < k; ++step) {
            for (Rank r = 0; r < p; ++r) {
                const Rank group_base = r - r % k;
                const Rank to = group_base + (r % k + 1) % k;
                std::uint32_t block = block_received[r];
                TaskId data_dep = ScheduleBuilder::no_dep;
                if (step == 1) {
                    // Item q of r's column: the block of the rank q groups before r.
                    block = block_of((r - item * k % p + p) % p);
                    data_dep = delivered[static_cast<std::size_t>(item) * p + r];
                    if (data_dep == received[r]) data_dep = ScheduleBuilder::no_dep;
                }
                next[to] = builder.transfer(r, to, {&block, 1}, {received[r], data_dep});
                block_next[to] = block;
            }
            received.swap(next);
            block_received.swap(block_next);
        }
    }
    return std::move(builder).finish();
}

}  // namespace

Schedule generate_k_ring(const GenerateRequest& request) {
    if (request.collective == Collective::allgather)
        return k_ring_allgather(request.ranks, request.k, request.bytes, request.payload);
    const Schedule allgather = k_ring_allgather(request.ranks, request.k, 1, true);
    return allreduce_by_reversal(allgather, request);
}

}  // namespace piccolo::detail
