// Reduce as a reduce-scatter followed by a gather to the root (Rabenseifner's algorithm), step for
// step and index for index as MPICH's MPIR_Reduce_intra_reduce_scatter_gather (MPICH v4.1.2,
// src/mpi/coll/reduce/reduce_intra_reduce_scatter_gather.c; the schedule is the same at v4.0.2
// and v4.3.2). --bytes is MPI_Reduce's count in bytes.
//
// P = 2^floor(log2 p), rem = p - P. The buffer is cut into P segments as MPICH cuts it (cnts:
// count / P bytes each, the first count % P one byte more; the Allreduce rule of schedule.hpp, so
// MPICH's cnts[i] is segment i). MPICH asserts count >= P (coll_algorithms.txt: "restrictions:
// size-ge-pof2"), so a smaller buffer is refused here.
//   1. Fold-in: every odd rank r < 2 rem sends its whole buffer to r - 1, which reduces it into
//      its own; the odd ranks then sit out. (MPICH's Reduce folds odd into even, the reverse of
//      its Reduce_scatter_block, so that root 0 takes part.) New ranks: even r < 2 rem -> r / 2,
//      r >= 2 rem -> r - rem.
//   2. Reduce-scatter by recursive halving with distance doubling: mask = 1, 2, ..., P / 2; new
//      rank x exchanges with x XOR mask, the lower keeping the lower half of the segments it still
//      holds (MPIC_Sendrecv), and reduces what it received (MPIR_Reduce_local). New rank x ends
//      with one segment, x's bits reversed.
//   3. A root that sat out (odd, below 2 rem) first gets segment 0 from rank 0 and takes new rank
//      0's place. Gather by a binomial tree over the new ranks, mask = P / 2, ..., 1: a rank whose
//      partner x XOR mask lies in the root's half sends everything it holds and is done, the
//      other receives and goes on.
// MPICH's copies (the input into recvbuf, a receive into tmp_buf before its reduce) are no tasks:
// the partial sums start where the input is.
//
// Dependencies (Style), as rh.cpp's halving: a step's send forwards the sums the rank's previous
// reduce wrote, so it waits for that reduce in every style; mpi adds the previous step's send
// sent (MPIC_Sendrecv returned), nccl delivered. A reduce waits for its operand, the previous
// reduce (in place) and, round-synchronous, the step's own send. Every rank sends once in the
// gather, after its last reduce and its gather receives (it forwards them): the same in every
// style, as is rank 0's send of segment 0 to a root that sat out (after its last reduce).
#include <fmt/format.h>

#include <span>
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/schedules/task_count.hpp"

namespace piccolo::detail {

namespace {

constexpr TaskId none = ScheduleBuilder::no_dep;

class ReduceScatterGather {
  public:
    explicit ReduceScatterGather(const GenerateRequest& request)
        : request_(request),
          p_(request.ranks),
          core_(rabenseifner_segments(p_)),
          rem_(p_ - core_),
          builder_({Collective::reduce, p_, request.bytes, static_cast<std::uint32_t>(core_),
                    request.root},
                   request.algorithm, 0, request.payload, request.style),
          reduced_(p_, none),
          sent_(p_, none) {}

    Schedule run() {
        const TaskCounts counts = count_tasks(request_);
        builder_.reserve(counts.tasks(), counts.dependency_ids);
        fold_in();
        reduce_scatter();
        gather();
        return std::move(builder_).finish();
    }

  private:
    [[nodiscard]] Rank old_rank(Rank x) const { return x < rem_ ? 2 * x : x + rem_; }
    [[nodiscard]] bool root_sat_out() const {
        return request_.root < 2 * rem_ && request_.root % 2 != 0;
    }

    // Segments [from, to) as the task's pieces (always listed: the builder sums their bytes).
    std::span<const std::uint32_t> segments(Rank from, Rank to) {
        list_.clear();
        for (Rank u = from; u < to; ++u) list_.push_back(static_cast<std::uint32_t>(u));
        return list_;
    }
    std::uint64_t bytes_of(std::span<const std::uint32_t> pieces) const {
        return builder_.shape().pieces_bytes(pieces);
    }

    void fold_in() {
        std::vector<TaskId> sends(p_, none);
        for (Rank r = 1; r < 2 * rem_; r += 2)
            sends[r] = builder_.transfer(r, r - 1, segments(0, core_), std::span<const TaskId>{});
        for (Rank r = 0; r < 2 * rem_; r += 2) {
            const auto all = segments(0, core_);
            reduced_[r] =
                builder_.compute(TaskKind::reduce, r, bytes_of(all), all, {&sends[r + 1], 1});
        }
    }

    void reduce_scatter() {
        // Per new rank: MPICH's send_idx, recv_idx, last_idx (kept for the gather).
        send_idx_.assign(core_, 0);
        last_idx_.assign(core_, core_);
        std::vector<Rank> recv_idx(core_, 0);
        std::vector<std::pair<Rank, Rank>> receiving(core_);
        std::vector<TaskId> sends(core_);
        RoundWait wait;
        for (Rank mask = 1; mask < core_; mask *= 2) {
            const Rank half = core_ / (mask * 2);
            for (Rank x = 0; x < core_; ++x) {
                std::pair<Rank, Rank> sending;
                if (x < (x ^ mask)) {
                    send_idx_[x] = recv_idx[x] + half;
                    sending = {send_idx_[x], last_idx_[x]};
                    receiving[x] = {recv_idx[x], send_idx_[x]};
                } else {
                    recv_idx[x] = send_idx_[x] + half;
                    sending = {send_idx_[x], recv_idx[x]};
                    receiving[x] = {recv_idx[x], last_idx_[x]};
                }
                const Rank r = old_rank(x);
                wait.set(request_.style, {&reduced_[r], 1}, {&sent_[r], 1});
                sends[x] = builder_.transfer(r, old_rank(x ^ mask),
                                             segments(sending.first, sending.second), wait.deps,
                                             wait.sent);
            }
            for (Rank x = 0; x < core_; ++x) {
                const Rank r = old_rank(x);
                wait.set(request_.style, {}, {&sends[x], 1});
                wait.deps.insert(wait.deps.begin(), {sends[x ^ mask], reduced_[r]});
                const auto got = segments(receiving[x].first, receiving[x].second);
                reduced_[r] = builder_.compute(TaskKind::reduce, r, bytes_of(got), got, wait.deps,
                                               wait.sent);
                sent_[r] = sends[x];
                send_idx_[x] = recv_idx[x];
                if (mask * 2 < core_) last_idx_[x] = recv_idx[x] + core_ / (mask * 2);
            }
        }
    }

    void gather() {
        // Per new rank: the tasks that wrote what it holds (its last reduce, then its receives)
        // and its rank; a root that sat out takes new rank 0's place with segment 0 from rank 0.
        std::vector<std::vector<TaskId>> writers(core_);
        std::vector<Rank> rank_of(core_);
        for (Rank x = 0; x < core_; ++x) {
            rank_of[x] = old_rank(x);
            writers[x].push_back(reduced_[rank_of[x]]);
        }
        const Rank root = request_.root;
        Rank new_root = root >= 2 * rem_ ? root - rem_ : root / 2;
        if (root_sat_out()) {
            new_root = 0;
            writers[0] = {builder_.transfer(0, root, segments(0, 1),
                                            std::span<const TaskId>(&reduced_[0], 1))};
            rank_of[0] = root;
        }
        std::vector<bool> done(core_, false);
        std::vector<TaskId> sends(core_, none);
        int level = 0;
        while ((Rank{1} << (level + 1)) < core_) ++level;
        for (Rank mask = core_ / 2; mask > 0; mask /= 2, --level) {
            const Rank step = core_ / (mask * 2);
            std::vector<std::pair<Rank, Rank>> holding(core_);
            std::vector<Rank> recv_idx(core_, 0);
            for (Rank x = 0; x < core_; ++x) {
                if (done[x]) continue;
                const Rank partner = x ^ mask;
                if (x < partner) {
                    if (mask != core_ / 2) last_idx_[x] += step;
                    recv_idx[x] = send_idx_[x] + step;
                    holding[x] = {send_idx_[x], recv_idx[x]};
                } else {
                    recv_idx[x] = send_idx_[x] - step;
                    holding[x] = {send_idx_[x], last_idx_[x]};
                }
            }
            for (Rank x = 0; x < core_; ++x) {
                if (done[x]) continue;
                const Rank partner = x ^ mask;
                if ((partner >> level) != (new_root >> level)) continue;  // it receives
                sends[x] = builder_.transfer(rank_of[x], rank_of[partner],
                                             segments(holding[x].first, holding[x].second),
                                             writers[x]);
            }
            for (Rank x = 0; x < core_; ++x) {
                if (done[x]) continue;
                const Rank partner = x ^ mask;
                if ((partner >> level) == (new_root >> level)) {
                    done[x] = true;
                    continue;
                }
                writers[x].push_back(sends[partner]);
                if (x > partner) send_idx_[x] = recv_idx[x];
            }
        }
    }

    const GenerateRequest& request_;
    Rank p_, core_, rem_;
    ScheduleBuilder builder_;
    std::vector<TaskId> reduced_, sent_;  // per rank: its last reduce, its last send
    std::vector<Rank> send_idx_, last_idx_;
    std::vector<std::uint32_t> list_;
};

}  // namespace

Rank rabenseifner_segments(Rank p) {
    Rank segments = 1;
    while (segments * 2 <= p) segments *= 2;
    return segments;
}

Schedule generate_reduce_rabenseifner(const GenerateRequest& request) {
    const Rank segments = rabenseifner_segments(request.ranks);
    if (request.bytes < static_cast<std::uint64_t>(segments))
        throw InputError(fmt::format(
            "--bytes: rabenseifner cuts the buffer into 2^floor(log2 p) = {} segments, so it needs "
            "at least {} bytes at p = {} (got {}; MPICH's restriction size-ge-pof2); use knomial "
            "or binomial for smaller buffers",
            segments, segments, request.ranks, request.bytes));
    return ReduceScatterGather(request).run();
}

}  // namespace piccolo::detail
