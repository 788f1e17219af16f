// The quotient of the scattered Alltoall (scattered.cpp) over c representatives: its batches,
// restricted to the representatives' transfers. Batch n sends rank r to r - j for the batch's
// distances j, which commute with the moves by whole units, so a receive of rank r from r + j
// stands for the send of the representative of r + j's orbit at distance j. Ids: batch by batch,
// representative by representative, distance by distance, as the full generator numbers them.
#include <algorithm>
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "quotient_generate.hpp"

namespace piccolo::detail {

QuotientSchedule quotient_scattered(const GenerateRequest& request, Rank c) {
    const Rank p = request.ranks;
    const auto n = static_cast<std::uint32_t>(p);
    ScheduleBuilder builder({Collective::alltoall, p, request.bytes, n * n}, request.algorithm, 0,
                            request.payload, request.style);
    const auto transfers = static_cast<std::size_t>(c) * (p - 1);
    builder.reserve(transfers, 2 * transfers * std::min<std::size_t>(p, scattered_batch));
    QuotientSchedule q;
    q.destination.reserve(transfers);
    q.full_id.reserve(transfers);
    std::uint64_t full_first = 0;              // the batch's first id in the full schedule
    std::vector<TaskId> received;              // a representative's receives of the previous batch
    std::vector<std::vector<TaskId>> sent(c);  // per representative: its previous batch's sends
    RoundWait wait;
    TaskId previous_first = 0;                   // the previous batch's first id
    Rank previous_from = 0, previous_count = 0;  // its first distance and distances per rank
    for (Rank first = 0; first < p; first += scattered_batch) {
        const Rank last = std::min<Rank>(p, first + scattered_batch);
        const Rank from = std::max<Rank>(first, 1);
        const auto batch_first = static_cast<TaskId>(builder.size());
        for (Rank r = 0; r < c; ++r) {
            received.clear();
            if (first > 0)  // the send at distance j of the representative of r + j's orbit
                for (Rank j = previous_from; j < previous_from + previous_count; ++j)
                    received.push_back(previous_first +
                                       static_cast<TaskId>((r + j) % p % c) * previous_count +
                                       static_cast<TaskId>(j - previous_from));
            if (request.style != Style::pipelined) wait.set(request.style, received, sent[r]);
            sent[r].clear();
            for (Rank j = from; j < last; ++j) {
                const Rank to = (r - j + p) % p;
                const std::uint32_t block =
                    static_cast<std::uint32_t>(r) * n + static_cast<std::uint32_t>(to);
                sent[r].push_back(builder.transfer(r, to % c, {&block, 1}, wait.deps, wait.sent));
                q.destination.push_back(to);
                q.full_id.push_back(full_first + static_cast<std::uint64_t>(r) * (last - from) +
                                    static_cast<std::uint64_t>(j - from));
            }
        }
        full_first += static_cast<std::uint64_t>(p) * (last - from);
        previous_first = batch_first;
        previous_from = from;
        previous_count = last - from;
    }
    q.schedule = std::move(builder).finish();
    q.representatives = c;
    return q;
}

}  // namespace piccolo::detail
