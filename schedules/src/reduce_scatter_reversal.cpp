// Allreduce = reduce-scatter + Allgather, where the reduce-scatter is the Allgather run backwards.
//
// In an Allgather whose transfers each carry one block, block s spreads from rank s along a tree.
// Reversing every transfer (a->b becomes b->a) and every dependency turns that tree into one that
// gathers segment s towards rank s: a rank first receives the partial sums of its subtree, folds
// them in with one `reduce`, then sends the result to its parent. Dependencies of the Allgather
// that carry no data (round synchronisation) keep their kind. A wait for a receive reverses into
// a wait for a receive of the same rank. A wait for the rank's own previous send (delivered or
// sent) cannot simply be reversed: the two sends may have gone to different ranks (k-ring's last
// inter-group round, then its first intra-group one), and no rank can wait for another's send.
// It becomes what it means in the reversed rounds: the reversed send waits, the same way, for the
// next send of its own rank, the reversal of the next transfer into it. Rank s ends with the full
// sum of segment s, which the Allgather then distributes unchanged; in the round-synchronous styles
// its first round also waits for the rank's last reduce-scatter sends, as one round after another.
// A Reduce_scatter request stops there: its segments are the per-rank blocks (request.bytes each).
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"

namespace piccolo::detail {

namespace {

class Reversal {
  public:
    Reversal(const Schedule& allgather, const GenerateRequest& request)
        : ag_(allgather),
          request_(request),
          p_(request.ranks),
          n_(static_cast<TaskId>(allgather.size())),
          shape_{request.collective, p_, request.bytes, static_cast<std::uint32_t>(p_)},
          builder_(shape_, allgather.algorithm, allgather.k, request.payload, request.style),
          successors_(allgather.successors()),
          reversed_(n_, ScheduleBuilder::no_dep) {
        builder_.reserve(3 * static_cast<std::size_t>(n_) + p_,
                         4 * (ag_.deps.items.size() + ag_.sent_deps.items.size()) + 2 * n_);
    }

    Schedule run() {
        reduce_scatter();
        reduce_own_segments();
        if (request_.collective == Collective::allreduce) gather();
        return std::move(builder_).finish();
    }

  private:
    [[nodiscard]] std::uint32_t block(TaskId t) const { return ag_.payload.row(t)[0]; }
    // Does `next` forward what `from` brought?
    [[nodiscard]] bool carries_on(TaskId from, TaskId next) const {
        return ag_.src[next] == ag_.dst[from] && block(next) == block(from);
    }
    [[nodiscard]] bool initial(TaskId t) const {
        return ag_.deps.row(t).empty() && ag_.sent_deps_of(t).empty();
    }

    // For every Allgather transfer, the next transfer into the same rank (no_dep: none).
    [[nodiscard]] std::vector<TaskId> next_into_same_rank() const {
        std::vector<TaskId> next(n_, ScheduleBuilder::no_dep), last(p_, ScheduleBuilder::no_dep);
        for (TaskId t = n_; t-- > 0;) {
            next[t] = last[ag_.dst[t]];
            last[ag_.dst[t]] = t;
        }
        return next;
    }

    void reduce_scatter() {
        const std::vector<TaskId> next_into = next_into_same_rank();
        std::vector<TaskId> data, deps, sent;
        // A wait of `next` for t, a send of the same rank, in the reversed rounds.
        auto own_send_wait = [&](TaskId t) {
            return next_into[t] == ScheduleBuilder::no_dep ? ScheduleBuilder::no_dep
                                                           : reversed_[next_into[t]];
        };
        for (TaskId t = n_; t-- > 0;) {  // ids are topological, so successors come first here
            data.clear();
            deps.clear();
            sent.clear();
            bool waits_on_own_send = false, sent_wait = false;
            for (TaskId next : successors_.delivered.row(t)) {
                if (carries_on(t, next))
                    data.push_back(reversed_[next]);
                else if (ag_.src[next] == ag_.src[t])
                    waits_on_own_send = true;
                else
                    deps.push_back(reversed_[next]);
            }
            if (successors_.sent.rows() > 0)  // the sends a sent dependency waits for are its own
                sent_wait = !successors_.sent.row(t).empty();
            if (waits_on_own_send) deps.push_back(own_send_wait(t));
            if (sent_wait) sent.push_back(own_send_wait(t));
            const std::uint32_t segment = block(t);
            const Rank holder = ag_.dst[t];
            if (!data.empty())
                deps.push_back(builder_.compute(TaskKind::reduce, holder,
                                                shape_.piece_bytes(segment), {&segment, 1}, data));
            reversed_[t] = builder_.transfer(holder, ag_.src[t], {&segment, 1}, deps, sent);
        }
    }

    // Each rank folds the partial sums of its own segment: the reversed first sends of its block.
    void reduce_own_segments() {
        std::vector<std::vector<TaskId>> inputs(p_);
        for (TaskId t = 0; t < n_; ++t)
            if (block(t) == static_cast<std::uint32_t>(ag_.src[t]))
                inputs[ag_.src[t]].push_back(reversed_[t]);
        segment_done_.resize(p_);
        for (Rank r = 0; r < p_; ++r) {
            const auto segment = static_cast<std::uint32_t>(r);
            segment_done_[r] = builder_.compute(TaskKind::reduce, r, shape_.piece_bytes(segment),
                                                {&segment, 1}, inputs[r]);
        }
    }

    // The Allgather of the reduced segments; a rank sends its own segment once it is complete.
    void gather() {
        // A rank's last reduce-scatter sends: the reversals of the first Allgather transfers into
        // it.
        std::vector<std::vector<TaskId>> last_sends(p_);
        for (TaskId t = 0; t < n_; ++t)
            if (initial(t)) last_sends[ag_.dst[t]].push_back(reversed_[t]);
        std::vector<TaskId> gathered(n_), deps, sent;
        RoundWait boundary;
        for (TaskId t = 0; t < n_; ++t) {
            const Rank from = ag_.src[t];
            deps.clear();
            sent.clear();
            if (initial(t)) {
                boundary.set(request_.style, {}, last_sends[from]);
                deps = boundary.deps;
                sent = boundary.sent;
            }
            for (TaskId d : ag_.deps.row(t)) deps.push_back(gathered[d]);
            for (TaskId d : ag_.sent_deps_of(t)) sent.push_back(gathered[d]);
            const std::uint32_t segment = block(t);
            if (segment == static_cast<std::uint32_t>(from)) deps.push_back(segment_done_[from]);
            gathered[t] = builder_.transfer(from, ag_.dst[t], {&segment, 1}, deps, sent);
        }
    }

    const Schedule& ag_;
    const GenerateRequest& request_;
    Rank p_;
    TaskId n_;
    CollectiveShape shape_;
    ScheduleBuilder builder_;
    Schedule::Successors successors_;
    std::vector<TaskId> reversed_;
    std::vector<TaskId> segment_done_;
};

}  // namespace

Schedule allreduce_by_reversal(const Schedule& allgather, const GenerateRequest& request) {
    return Reversal(allgather, request).run();
}

}  // namespace piccolo::detail
