// Bruck's Allgather with radix k (its Alltoall: bruck_alltoall.cpp): J. Bruck, C.-T. Ho,
// S. Kipnis, E. Upfal, D. Weathersby, "Efficient algorithms for all-to-all communications in
// multiprocessor systems", IEEE TPDS 8(11), 1997, generalised to radix k as MPICH's
// MPIR_Allgather_intra_k_brucks (src/mpi/coll/allgather/allgather_intra_k_brucks.c, MPICH
// v4.1.2), which this file follows phase for phase, partner for partner and block count for
// block count.
//
// Rank r keeps its buffer rotated: offset o holds block (r + o) mod p. Phase i (delta = k^i,
// i = 0..n-1, n = the number of base-k digits of p - 1) has a partner j = 1..k-1 for every
// j delta < p: rank r receives the first min(delta, p - j delta) blocks of rank r + j delta's
// buffer into its offsets j delta.., and sends as many of its own first blocks to r - j delta.
// Before the last phase every message is delta blocks; in the last phase (p not a power of k)
// only the blocks that remain. A final local rotation (a `permute` of the p blocks, costed as
// prm's) puts the blocks in rank order. Rank 0's buffer already is in order: MPICH copies
// nothing there, so rank 0 has no permute.
//
// Dependencies (Style): round-synchronous styles wait for the previous phase's receives and the
// rank's own sends (sent: mpi, MPICH's MPIC_Waitall; delivered: nccl). Pipelined, a send waits
// for the receives that delivered the blocks it forwards (those at offsets below its count). The
// permute rewrites the buffer, so it waits for every receive and for the sends that read the
// buffer (delivered under nccl, sent otherwise), as prm's.
#include <algorithm>
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "piccolo/schedules/task_count.hpp"

namespace piccolo::detail {

std::vector<std::vector<Rank>> bruck_phases(Rank p, int k) {
    std::vector<std::vector<Rank>> phases;
    for (std::int64_t delta = 1; delta < p; delta *= k) {
        std::vector<Rank> counts;
        for (std::int64_t j = 1; j < k && j * delta < p; ++j)
            counts.push_back(static_cast<Rank>(std::min(delta, p - j * delta)));
        phases.push_back(std::move(counts));
    }
    return phases;
}

namespace {

// A receive and the buffer offset its blocks land at (pipelined sends wait for the ones below
// their count).
struct Landed {
    TaskId task;
    std::int64_t offset;
};

class Bruck {
  public:
    explicit Bruck(const GenerateRequest& request)
        : request_(request),
          p_(request.ranks),
          builder_({Collective::allgather, p_, request.bytes, static_cast<std::uint32_t>(p_)},
                   request.algorithm, request.k, request.payload, request.style),
          receives_(p_),
          sends_(p_),
          history_(p_),
          sent_history_(p_) {}

    Schedule run() {
        // Exact counts (task_count.cpp follows this file), so arrays are allocated once.
        const TaskCounts counts = count_tasks(request_);
        builder_.reserve(counts.tasks(), counts.dependency_ids);
        std::int64_t delta = 1;
        for (const std::vector<Rank>& blocks : bruck_phases(p_, request_.k)) {
            phase(blocks, delta);
            delta *= request_.k;
        }
        permute();
        return std::move(builder_).finish();
    }

  private:
    [[nodiscard]] bool pipelined() const { return request_.style == Style::pipelined; }

    void phase(const std::vector<Rank>& counts, std::int64_t delta) {
        std::vector<std::vector<TaskId>> receives(p_), sends(p_);
        RoundWait wait;
        std::vector<std::uint32_t> blocks;
        for (Rank r = 0; r < p_; ++r) {
            for (std::size_t j = 1; j <= counts.size(); ++j) {
                const Rank count = counts[j - 1];
                const std::int64_t distance = static_cast<std::int64_t>(j) * delta;  // < p
                const auto to = static_cast<Rank>((r + p_ - distance) % p_);
                if (pipelined()) {
                    wait.deps.clear();
                    wait.sent.clear();
                    for (const Landed& l : history_[r])
                        if (l.offset < count) wait.deps.push_back(l.task);
                } else {
                    wait.set(request_.style, receives_[r], sends_[r]);
                }
                blocks.clear();
                if (request_.payload)
                    for (Rank o = 0; o < count; ++o)
                        blocks.push_back(static_cast<std::uint32_t>((r + o) % p_));
                const TaskId t = builder_.transfer_bytes(
                    r, to, request_.bytes * static_cast<std::uint64_t>(count), blocks, wait.deps,
                    wait.sent);
                sends[r].push_back(t);
                receives[to].push_back(t);
                if (pipelined()) {
                    sent_history_[r].push_back(t);
                    history_[to].push_back({t, distance});
                }
            }
        }
        receives_ = std::move(receives);
        sends_ = std::move(sends);
    }

    void permute() {
        const std::uint64_t bytes = request_.bytes * static_cast<std::uint64_t>(p_);
        RoundWait wait;
        std::vector<TaskId> received;
        for (Rank r = 1; r < p_; ++r) {
            if (pipelined()) {
                received.clear();
                for (const Landed& l : history_[r]) received.push_back(l.task);
                wait.set(Style::mpi, received, sent_history_[r]);
            } else {
                wait.set(request_.style, receives_[r], sends_[r]);
            }
            builder_.compute(TaskKind::permute, r, bytes, {}, wait.deps, wait.sent);
        }
    }

    const GenerateRequest& request_;
    Rank p_;
    ScheduleBuilder builder_;
    // Per rank: the previous phase's receives and sends.
    std::vector<std::vector<TaskId>> receives_, sends_;
    // Per rank, pipelined: every receive so far (where it landed) and every send.
    std::vector<std::vector<Landed>> history_;
    std::vector<std::vector<TaskId>> sent_history_;
};

}  // namespace

Schedule generate_bruck(const GenerateRequest& request) {
    if (request.collective == Collective::alltoall) return generate_bruck_alltoall(request);
    return Bruck(request).run();
}

}  // namespace piccolo::detail
