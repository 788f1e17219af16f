// k-ring Allgather (Liu, Rhee, Wilkins, Dinda): ranks form p/k groups of k consecutive ranks.
// Phase 1, p/k - 1 inter-group rounds: rank r forwards to r + k the block it received last, so
// afterwards it holds its "column" (the blocks of every rank at its position in a group).
// Phase 2, (k - 1) p/k intra-group rounds: for each column item q in turn, a ring Allgather of
// that item inside the group (k - 1 rounds). Every round's send waits for the previous round's
// receive and, in the round-synchronous styles, the rank's previous send (Style); a send that
// starts a new item also waits for the phase-1 receive that delivered it (implied by the round
// chain in the synchronous styles, but it keeps the verifier's proof short). k must divide p.
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

Schedule k_ring_allgather(Rank p, int k, std::uint64_t bytes, bool payload, Style style) {
    ScheduleBuilder builder({Collective::allgather, p, bytes, static_cast<std::uint32_t>(p)},
                            "k-ring", k, payload, style);
    const Rank groups = p / k;
    const auto transfers = static_cast<std::size_t>(p) * (p - 1);
    builder.reserve(transfers, 2 * transfers + static_cast<std::size_t>(p) * groups);

    // delivered[q * p + r]: the phase-1 receive that brought rank r its column item q.
    std::vector<TaskId> delivered(static_cast<std::size_t>(groups) * p, ScheduleBuilder::no_dep);
    std::vector<TaskId> received(p, ScheduleBuilder::no_dep), next(p);
    std::vector<TaskId> sent(p, ScheduleBuilder::no_dep);  // each rank's previous send
    std::vector<std::uint32_t> block_received(p), block_next(p);
    RoundWait wait;
    auto block_of = [](Rank r) { return static_cast<std::uint32_t>(r); };

    for (Rank r = 0; r < p; ++r) block_received[r] = block_of(r);
    for (Rank round = 1; round < groups; ++round) {
        for (Rank r = 0; r < p; ++r) {
            const Rank to = (r + k) % p;
            wait.set(style, {&received[r], 1}, {&sent[r], 1});
            next[to] = sent[r] =
                builder.transfer(r, to, {&block_received[r], 1}, wait.deps, wait.sent);
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
                wait.set(style, {&received[r], 1}, {&sent[r], 1});
                wait.deps.push_back(data_dep);
                next[to] = sent[r] = builder.transfer(r, to, {&block, 1}, wait.deps, wait.sent);
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
        return k_ring_allgather(request.ranks, request.k, request.bytes, request.payload,
                                request.style);
    const Schedule allgather = k_ring_allgather(request.ranks, request.k, 1, true, request.style);
    return allreduce_by_reversal(allgather, request);
}

}  // namespace piccolo::detail
