// Reduce_scatter by recursive halving (MPICH's MPIR_Reduce_scatter_block_intra_recursive_halving,
// MPICH v4.1.2, src/mpi/coll/reduce_scatter_block/reduce_scatter_block_intra_recursive_halving.c),
// step for step and segment for segment. --bytes is MPICH's recvcount: the vector is p segments.
//
// P = 2^floor(log2 p), rem = p - P. Any p:
//   1. Fold-in: every even rank r < 2 rem sends its whole vector (p segments) to r + 1, which
//      reduces it into its own; the even ranks then sit out. The others take new ranks: odd
//      r < 2 rem becomes r / 2, r >= 2 rem becomes r - rem.
//   2. Recursive halving over the P new ranks, in MPICH's units (newcnts): new rank x owns the
//      segments of old rank x' = (x < rem ? 2x + 1 : x + rem) and, when x < rem, of x' - 1 too,
//      so unit x is segments 2x, 2x + 1 (x < rem) or x + rem. With mask = P/2, P/4, ..., 1, x
//      exchanges with x XOR mask: the lower of the two keeps the lower half of the units it still
//      holds and sends the upper half, the other the reverse (MPIC_Sendrecv), then it reduces what
//      it received into its partial sums (MPIR_Reduce_local).
//   3. Fold-out: every odd rank r < 2 rem sends the sum of segment r - 1 to r - 1.
// MPICH copies the rank's input into tmp_results first and its own sum into recvbuf last; here
// the partial sums start where the input is and end where they are, so neither is a task.
//
// Dependencies (Style): a send reads the partial sums that the rank's previous reduce wrote, so it
// waits for that reduce in every style; round-synchronous styles also wait for the previous step's
// own send (sent under mpi: MPIC_Sendrecv returned; delivered under nccl). A reduce waits for its
// operand, the previous reduce (it updates the partial sums in place) and, round-synchronous, the
// step's own send. The fold-in's send and the fold-out's send wait for nothing but data.
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "piccolo/schedules/task_count.hpp"

namespace piccolo::detail {

namespace {

constexpr TaskId none = ScheduleBuilder::no_dep;

class RecursiveHalving {
  public:
    explicit RecursiveHalving(const GenerateRequest& request)
        : request_(request),
          p_(request.ranks),
          core_(largest_power_of_two(p_)),
          rem_(p_ - core_),
          builder_({Collective::reduce_scatter, p_, request.bytes, static_cast<std::uint32_t>(p_)},
                   request.algorithm, 0, request.payload, request.style),
          reduced_(p_, none),
          sent_(p_, none) {}

    Schedule run() {
        const TaskCounts counts = count_tasks(request_);
        builder_.reserve(counts.tasks(), counts.dependency_ids);
        fold_in();
        halve();
        fold_out();
        return std::move(builder_).finish();
    }

  private:
    static Rank largest_power_of_two(Rank p) {
        Rank q = 1;
        while (q * 2 <= p) q *= 2;
        return q;
    }
    [[nodiscard]] Rank old_rank(Rank x) const { return x < rem_ ? 2 * x + 1 : x + rem_; }
    // First segment of unit x (x = core_: p, one past the last).
    [[nodiscard]] Rank first_segment(Rank x) const { return x < rem_ ? 2 * x : x + rem_; }

    // The segments of units [from, to), listed when the schedule has payload; their bytes.
    std::uint64_t segments(Rank from, Rank to) {
        const Rank first = first_segment(from), last = first_segment(to);
        list_.clear();
        if (request_.payload)
            for (Rank s = first; s < last; ++s) list_.push_back(static_cast<std::uint32_t>(s));
        return request_.bytes * static_cast<std::uint64_t>(last - first);
    }

    void fold_in() {
        const std::uint64_t all = segments(0, core_);
        std::vector<TaskId> sends(p_, none);
        for (Rank r = 0; r < 2 * rem_; r += 2)
            sends[r] = builder_.transfer_bytes(r, r + 1, all, list_, {});
        for (Rank r = 1; r < 2 * rem_; r += 2)
            reduced_[r] = builder_.compute(TaskKind::reduce, r, all, list_, {&sends[r - 1], 1});
    }

    void halve() {
        // Per new rank: MPICH's send_idx, recv_idx and last_idx, and this step's ranges.
        std::vector<Rank> send_idx(core_, 0), recv_idx(core_, 0), last_idx(core_, core_);
        std::vector<std::pair<Rank, Rank>> sending(core_), receiving(core_);
        std::vector<TaskId> sends(core_);
        const bool pipelined = request_.style == Style::pipelined;
        RoundWait wait;
        for (Rank mask = core_ / 2; mask > 0; mask /= 2) {
            for (Rank x = 0; x < core_; ++x) {
                const Rank partner = x ^ mask;
                if (x < partner) {
                    send_idx[x] = recv_idx[x] + mask;
                    sending[x] = {send_idx[x], last_idx[x]};
                    receiving[x] = {recv_idx[x], send_idx[x]};
                } else {
                    recv_idx[x] = send_idx[x] + mask;
                    sending[x] = {send_idx[x], recv_idx[x]};
                    receiving[x] = {recv_idx[x], last_idx[x]};
                }
                const Rank r = old_rank(x);
                wait.set(pipelined ? Style::pipelined : request_.style, {&reduced_[r], 1},
                         {&sent_[r], 1});
                const std::uint64_t bytes = segments(sending[x].first, sending[x].second);
                sends[x] = builder_.transfer_bytes(r, old_rank(partner), bytes, list_, wait.deps,
                                                   wait.sent);
            }
            for (Rank x = 0; x < core_; ++x) {
                const Rank r = old_rank(x);
                wait.set(pipelined ? Style::pipelined : request_.style, {}, {&sends[x], 1});
                wait.deps.insert(wait.deps.begin(), {sends[x ^ mask], reduced_[r]});
                const std::uint64_t bytes = segments(receiving[x].first, receiving[x].second);
                reduced_[r] =
                    builder_.compute(TaskKind::reduce, r, bytes, list_, wait.deps, wait.sent);
                sent_[r] = sends[x];
                send_idx[x] = recv_idx[x];
                last_idx[x] = recv_idx[x] + mask;
            }
        }
    }

    void fold_out() {
        for (Rank r = 1; r < 2 * rem_; r += 2) {
            const auto segment = static_cast<std::uint32_t>(r - 1);
            list_.assign(request_.payload ? 1 : 0, segment);
            builder_.transfer_bytes(r, r - 1, request_.bytes, list_, {&reduced_[r], 1});
        }
    }

    const GenerateRequest& request_;
    Rank p_, core_, rem_;
    ScheduleBuilder builder_;
    std::vector<TaskId> reduced_, sent_;  // per old rank: its last reduce, its last send
    std::vector<std::uint32_t> list_;
};

}  // namespace

Schedule generate_rh(const GenerateRequest& request) {
    return RecursiveHalving(request).run();
}

}  // namespace piccolo::detail
