// The quotient of a round Allgather's Allreduce: the reduce-scatter that reverses the Allgather
// (reduce_scatter_reversal.cpp), each rank's reduce of its own segment, then the Allgather (a
// Reduce_scatter stops before it: its segments are the per-rank blocks, `bytes` each). The
// steps are the full generator's, restricted to the representatives' tasks: a reversed transfer
// belongs to the rank that holds the data, the Allgather transfer's destination, so the
// reduce-scatter keeps, per round, the transfers into the representatives.
#include <algorithm>
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "quotient_generate.hpp"

namespace piccolo::detail {

namespace {

class QuotientReversal {
  public:
    QuotientReversal(const GenerateRequest& request, Rank c)
        : request_(request),
          rounds_(request),
          c_(c),
          shape_{request.collective, request.ranks, request.bytes,
                 static_cast<std::uint32_t>(request.ranks)},
          builder_(shape_, request.algorithm, request.algorithm == "k-ring" ? request.k : 0,
                   request.payload, request.style),
          reversed_id_(static_cast<std::size_t>(rounds_.rounds()) * c, ScheduleBuilder::no_dep),
          forwarded_in_(rounds_.rounds(), -1) {
        for (int i = 0; i < rounds_.rounds(); ++i)
            if (const int d = rounds_.data_round(i); d >= 0) forwarded_in_[d] = i;
        const auto tasks = reversed_id_.size();
        builder_.reserve(3 * tasks + c, 8 * tasks);
    }

    QuotientSchedule run() {
        reduce_scatter();
        reduce_own_segments();
        if (request_.collective == Collective::allreduce) gather();
        q_.schedule = std::move(builder_).finish();
        q_.representatives = c_;
        return std::move(q_);
    }

  private:
    // The representative of the reversal of Allgather transfer (i, x): the reversed transfer
    // whose holder (the Allgather destination) is the representative of to(i, x).
    [[nodiscard]] TaskId reversed(int i, Rank x) const {
        return reversed_id_[static_cast<std::size_t>(i) * c_ + rounds_.to(i, x) % c_];
    }

    // Reversed transfer (i, s) -> h: where the Allgather's successors of (i, s) go.
    struct Waits {
        std::vector<TaskId> data, deps, sent;
        bool own_send = false, own_sent = false;
    };
    void successor(int next_round, Rank h, std::uint32_t block, Waits& w) const {
        const TaskId id = reversed(next_round, h);
        (rounds_.block(next_round, h) == block ? w.data : w.deps).push_back(id);
    }

    // The full schedule reverses the Allgather's p transfers of a round in turn, senders
    // down, each after its reduce where it has one (every rank of a round alike).
    void reduce_scatter() {
        const int rounds = rounds_.rounds();
        std::vector<std::pair<Rank, Rank>> senders(c_);  // (s, h): transfer (i, s) goes to h
        for (int i = rounds; i-- > 0;) {
            for (Rank h = 0; h < c_; ++h) senders[h] = {rounds_.from(i, h), h};
            std::sort(senders.begin(), senders.end(), std::greater<>());  // full order: ids down
            for (const auto& [s, h] : senders) reverse_one(i, s, h);
            full_round_ += static_cast<std::uint64_t>(request_.ranks) * (reduces_ ? 2 : 1);
        }
    }

    void push(Rank destination, std::uint64_t full_id) {
        q_.destination.push_back(destination);
        q_.full_id.push_back(full_id);
    }

    void reverse_one(int i, Rank s, Rank h) {
        const std::uint32_t segment = rounds_.block(i, s);
        Waits w;
        TaskId own_wait = ScheduleBuilder::no_dep;  // the reversal of the next transfer into h
        if (i + 1 < rounds_.rounds()) {
            successor(i + 1, h, segment, w);  // h forwards, or waits for, what (i, s) brought
            w.own_send = request_.style == Style::nccl;
            w.own_sent = request_.style == Style::mpi;
            own_wait = reversed(i + 1, rounds_.from(i + 1, h));
        }
        if (const int next = forwarded_in_[i]; next >= 0) successor(next, h, segment, w);
        if (w.own_send) w.deps.push_back(own_wait);
        if (w.own_sent) w.sent.push_back(own_wait);
        reduces_ = !w.data.empty();
        const std::uint64_t full =
            full_round_ + static_cast<std::uint64_t>(request_.ranks - 1 - s) * (reduces_ ? 2 : 1);
        if (reduces_) {
            w.deps.push_back(builder_.compute(TaskKind::reduce, h, shape_.piece_bytes(segment),
                                              {&segment, 1}, w.data));
            push(h, full);
        }
        reversed_id_[static_cast<std::size_t>(i) * c_ + h] =
            builder_.transfer(h, s % c_, {&segment, 1}, w.deps, w.sent);
        push(s, full + (reduces_ ? 1 : 0));
    }

    // Each representative folds the partial sums of its own segment: the reversals of the
    // Allgather transfers that first send its block.
    void reduce_own_segments() {
        std::vector<TaskId> inputs;
        for (Rank r = 0; r < c_; ++r) {
            inputs.clear();
            for (int i = 0; i < rounds_.rounds(); ++i)
                if (rounds_.block(i, r) == static_cast<std::uint32_t>(r))
                    inputs.push_back(reversed(i, r));
            const auto segment = static_cast<std::uint32_t>(r);
            segment_done_.push_back(builder_.compute(
                TaskKind::reduce, r, shape_.piece_bytes(segment), {&segment, 1}, inputs));
            push(r, full_round_ + static_cast<std::uint64_t>(r));
        }
    }

    // The Allgather of the reduced segments: its first round also waits for the rank's last
    // reduce-scatter sends (the reversals of the first transfers into it), as in the full one.
    void gather() {
        const QuotientAllgather allgather(rounds_, c_, static_cast<TaskId>(builder_.size()),
                                          request_.style,
                                          full_round_ + static_cast<std::uint64_t>(request_.ranks));
        RoundWait boundary;
        allgather.emit(builder_, q_, [&](int i, Rank r, RoundWait& wait) {
            if (i == 0) {
                const TaskId last_send = reversed(0, rounds_.from(0, r));
                boundary.set(request_.style, {}, {&last_send, 1});
                wait.deps.insert(wait.deps.end(), boundary.deps.begin(), boundary.deps.end());
                wait.sent.insert(wait.sent.end(), boundary.sent.begin(), boundary.sent.end());
            }
            if (rounds_.block(i, r) == static_cast<std::uint32_t>(r))
                wait.deps.push_back(segment_done_[r]);
        });
    }

    const GenerateRequest& request_;
    RoundAllgather rounds_;
    Rank c_;
    CollectiveShape shape_;
    ScheduleBuilder builder_;
    std::vector<TaskId> reversed_id_;  // [round * c + holder]
    std::vector<int> forwarded_in_;    // per round: the round that starts forwarding its receive
    std::vector<TaskId> segment_done_;
    QuotientSchedule q_;            // its destinations and full ids, as the tasks come
    std::uint64_t full_round_ = 0;  // the full id of the round's first task (then: of the
                                    // first own-segment reduce)
    bool reduces_ = false;          // whether the round's transfers come after a reduce
};

}  // namespace

QuotientSchedule quotient_reversal(const GenerateRequest& request, Rank c) {
    return QuotientReversal(request, c).run();
}

}  // namespace piccolo::detail
