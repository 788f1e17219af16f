// The exchange rounds shared by recursive doubling / multiplying and their permuted variants.
//
// The core ranks 0..P-1 (P = the largest k-smooth number <= p) are numbered in mixed radix with
// the round radices k_1..k_n (each <= k, product P). In round r a rank exchanges with the k_r - 1
// ranks that differ from it only in digit r. Digit r has place value k_1...k_{r-1} in the
// multiplying order (partners close first, as recursive doubling) and P / (k_1...k_r) in the
// permuted order (partners far first, distance halving; the received data lands contiguously in
// the receive buffer and a final `permute` puts blocks in rank order). Ranks P..p-1 fold in: rank
// P+i hands its contribution to rank i before the rounds and gets the result back after them.
//
// Allgather: a rank sends everything it holds, so messages grow by k_r each round. Allreduce: a
// rank sends its whole partial vector and reduces what it received after every round.
// Dependencies (Style): in the round-synchronous styles every operation of a round at a rank
// waits for the rank's receives of the previous round and for its own sends (delivered: nccl,
// sent: mpi, MPI_Waitall semantics). Pipelined, a send waits only for the data it forwards: every
// receive of the rank so far. An in-place update (reduce, permute) waits for the rank's sends
// that read the buffer to be sent in every style but nccl, where the grouped call completes them.
#include <algorithm>
#include <numeric>
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "radix_factoring.hpp"

namespace piccolo::detail {

namespace {

// A few task ids per rank, stored flat: the receives and the sends of one round (or of every
// round so far, for the pipelined Allgather). A rank's row holds its receives, then its sends
// from `per_rank` on: in a round, where a rank receives as many as `per_rank`, the two are one
// span, which the nccl style waits for as they are, without a copy per rank.
class RankOps {
  public:
    RankOps(Rank ranks, std::size_t per_rank)
        : per_rank_(per_rank),
          ids_(static_cast<std::size_t>(ranks) * 2 * per_rank),
          receive_count_(ranks, 0),
          send_count_(ranks, 0) {}
    void add_receive(Rank r, TaskId t) { ids_[row(r) + receive_count_[r]++] = t; }
    void add_send(Rank r, TaskId t) { ids_[row(r) + per_rank_ + send_count_[r]++] = t; }
    [[nodiscard]] std::span<const TaskId> receives(Rank r) const {
        return {ids_.data() + row(r), receive_count_[r]};
    }
    [[nodiscard]] std::span<const TaskId> sends(Rank r) const {
        return {ids_.data() + row(r) + per_rank_, send_count_[r]};
    }
    void append(const RankOps& round) {
        for (Rank r = 0; r < static_cast<Rank>(receive_count_.size()); ++r) {
            for (TaskId t : round.receives(r)) add_receive(r, t);
            for (TaskId t : round.sends(r)) add_send(r, t);
        }
    }

  private:
    [[nodiscard]] std::size_t row(Rank r) const {
        return static_cast<std::size_t>(r) * 2 * per_rank_;
    }
    std::size_t per_rank_;
    std::vector<TaskId> ids_;
    std::vector<std::uint32_t> receive_count_, send_count_;
};

// What an operation waits for: views into the rounds' records, or into Exchange's RoundWait.
struct Wait {
    std::span<const TaskId> deps, sent;
};

class Exchange {
  public:
    Exchange(const GenerateRequest& request, int k, ExchangeOrder order)
        : request_(request),
          order_(order),
          p_(request.ranks),
          factoring_(factor_radices(request.ranks, k)),
          builder_(shape(request), request.algorithm, k, request.payload, request.style),
          last_(p_, 1),
          forwards_history_(allgather() && request.style == Style::pipelined),
          history_(forwards_history_ ? p_ : 0, forwards_history_ ? received_per_rank() : 0) {}

    Schedule run() {
        reserve();
        fold_in();
        std::int64_t place = order_ == ExchangeOrder::multiplying ? 1 : factoring_.core;
        for (int radix : factoring_.radices) {
            if (order_ == ExchangeOrder::permuted) place /= radix;
            round(radix, static_cast<Rank>(place));
            if (order_ == ExchangeOrder::multiplying) place *= radix;
        }
        if (order_ == ExchangeOrder::permuted && allgather()) permute();
        fold_out();
        return std::move(builder_).finish();
    }

  private:
    static CollectiveShape shape(const GenerateRequest& request) {
        const bool gather = request.collective == Collective::allgather;
        return {request.collective, request.ranks, request.bytes,
                gather ? static_cast<std::uint32_t>(request.ranks) : 1U};
    }
    [[nodiscard]] std::size_t received_per_rank() const {
        std::size_t n = 1;  // the fold-in
        for (int radix : factoring_.radices) n += static_cast<std::size_t>(radix - 1);
        return n;
    }
    // Task and dependency counts (dependencies an upper bound), so arrays are allocated once.
    void reserve() {
        std::size_t tasks = 4 * static_cast<std::size_t>(extra()) + factoring_.core, deps = tasks;
        std::size_t previous_ops = 1, history = 1;
        for (int radix : factoring_.radices) {
            const std::size_t sends = static_cast<std::size_t>(factoring_.core) * (radix - 1);
            tasks += sends + (allgather() ? 0 : factoring_.core);
            deps += sends * (forwards_history_ ? history : previous_ops) +
                    (allgather() ? 0 : 2 * sends);
            previous_ops = allgather() ? 2 * static_cast<std::size_t>(radix - 1) : 1;
            history += static_cast<std::size_t>(radix - 1);
        }
        builder_.reserve(tasks, deps + static_cast<std::size_t>(factoring_.core) * 2 * history);
    }

    [[nodiscard]] bool allgather() const { return request_.collective == Collective::allgather; }
    [[nodiscard]] Rank extra() const { return factoring_.extra(p_); }
    [[nodiscard]] Style style() const { return request_.style; }

    // Blocks (allgather) a core rank holds, or the single segment 0 (allreduce).
    void init_holdings() {
        held_count_.assign(factoring_.core, 1);
        if (allgather() && request_.payload) {
            held_.assign(factoring_.core, {});
            for (Rank r = 0; r < factoring_.core; ++r) held_[r] = {static_cast<std::uint32_t>(r)};
        }
    }

    // What rank r's next operation waits for (Style).
    Wait wait_of(Rank r) {
        if (forwards_history_) return {history_.receives(r), {}};
        return waits(style(), last_, r);
    }
    // What an in-place update of rank r's buffer waits for after `ops`: the receives, and the
    // sends that read the buffer (delivered in the nccl style, else sent).
    Wait update_wait(const RankOps& ops, Rank r) {
        return waits(style() == Style::nccl ? Style::nccl : Style::mpi, ops, r);
    }
    // Rank r's receives and sends in `ops`, waited for as `style` says.
    Wait waits(Style style, const RankOps& ops, Rank r) {
        const std::span<const TaskId> receives = ops.receives(r), sends = ops.sends(r);
        if (style == Style::mpi) return {receives, sends};
        if (style == Style::pipelined || sends.empty()) return {receives, {}};
        if (receives.data() + receives.size() == sends.data())
            return {{receives.data(), receives.size() + sends.size()}, {}};
        wait_.set(Style::nccl, receives, sends);  // apart in memory: copied into one list
        return {wait_.deps, {}};
    }

    TaskId send(Rank from, Rank to, const Wait& wait) {
        static constexpr std::uint32_t segment = 0;
        if (!allgather()) return builder_.transfer(from, to, {&segment, 1}, wait.deps, wait.sent);
        const std::uint64_t bytes = request_.bytes * held_count_[from];
        const std::span<const std::uint32_t> pieces =
            request_.payload ? std::span<const std::uint32_t>(held_[from])
                             : std::span<const std::uint32_t>();
        return builder_.transfer_bytes(from, to, bytes, pieces, wait.deps, wait.sent);
    }

    TaskId reduce(Rank rank, const Wait& wait) {
        static constexpr std::uint32_t segment = 0;
        return builder_.compute(TaskKind::reduce, rank, request_.bytes, {&segment, 1}, wait.deps,
                                wait.sent);
    }

    void fold_in() {
        init_holdings();
        for (Rank i = 0; i < extra(); ++i) {
            const Rank folded = factoring_.core + i;
            const auto block = static_cast<std::uint32_t>(allgather() ? folded : 0);
            const TaskId t = builder_.transfer(folded, i, {&block, 1}, {});
            if (allgather()) {
                held_count_[i] += 1;
                if (request_.payload) held_[i].push_back(block);
                last_.add_receive(i, t);
                if (forwards_history_) history_.add_receive(i, t);
            } else {
                last_.add_receive(i, reduce(i, {{&t, 1}, {}}));
            }
        }
    }

    void round(int radix, Rank place) {
        RankOps ops(p_, static_cast<std::size_t>(radix - 1));
        for (Rank r = 0; r < factoring_.core; ++r) {
            const Rank digit = r / place % radix;
            const Wait wait = wait_of(r);
            for (int j = 0; j < radix; ++j) {
                if (j == digit) continue;
                const Rank partner = r + (j - digit) * place;
                const TaskId t = send(r, partner, wait);
                ops.add_send(r, t);
                ops.add_receive(partner, t);
            }
        }
        if (allgather()) {
            gather_holdings(radix, place);
            if (forwards_history_) history_.append(ops);
            last_ = std::move(ops);
        } else {
            RankOps reduced(p_, 1);
            for (Rank r = 0; r < factoring_.core; ++r)
                reduced.add_receive(r, reduce(r, update_wait(ops, r)));
            last_ = std::move(reduced);
        }
    }

    // After a round a rank holds what its whole digit group held, in rank order.
    void gather_holdings(int radix, Rank place) {
        std::vector<std::uint32_t> counts(factoring_.core, 0);
        std::vector<std::vector<std::uint32_t>> held(request_.payload ? factoring_.core : 0);
        for (Rank r = 0; r < factoring_.core; ++r) {
            const Rank first = r - (r / place % radix) * place;
            for (int j = 0; j < radix; ++j) {
                const Rank member = first + j * place;
                counts[r] += held_count_[member];
                if (request_.payload)
                    held[r].insert(held[r].end(), held_[member].begin(), held_[member].end());
            }
            if (request_.payload) std::sort(held[r].begin(), held[r].end());
        }
        held_count_ = std::move(counts);
        held_ = std::move(held);
    }

    // The permute rewrites the whole buffer: it waits for every receive and for the sends that
    // read the buffer (pipelined: of every round, as nothing else ordered them).
    void permute() {
        const std::uint64_t bytes = request_.bytes * static_cast<std::uint64_t>(p_);
        const RankOps& before = forwards_history_ ? history_ : last_;
        RankOps permuted(p_, 1);
        for (Rank r = 0; r < factoring_.core; ++r) {
            const Wait wait = update_wait(before, r);
            permuted.add_receive(
                r, builder_.compute(TaskKind::permute, r, bytes, {}, wait.deps, wait.sent));
        }
        last_ = std::move(permuted);
        forwards_history_ = false;  // from here on the permute stands for everything before it
    }

    void fold_out() {
        for (Rank i = 0; i < extra(); ++i) {
            const Rank folded = factoring_.core + i;
            const Wait wait = wait_of(i);
            if (!allgather()) {
                static constexpr std::uint32_t segment = 0;
                builder_.transfer(i, folded, {&segment, 1}, wait.deps, wait.sent);
                continue;
            }
            // Everything except the folded rank's own block.
            std::vector<std::uint32_t> blocks;
            if (request_.payload) {
                blocks.reserve(p_ - 1);
                for (Rank b = 0; b < p_; ++b)
                    if (b != folded) blocks.push_back(static_cast<std::uint32_t>(b));
            }
            builder_.transfer_bytes(i, folded, request_.bytes * (p_ - 1), blocks, wait.deps,
                                    wait.sent);
        }
    }

    const GenerateRequest& request_;
    ExchangeOrder order_;
    Rank p_;
    RadixFactoring factoring_;
    ScheduleBuilder builder_;
    RankOps last_;  // per rank: the previous round's receives and sends
    // The pipelined Allgather forwards everything received so far, so it remembers it all.
    bool forwards_history_;
    RankOps history_;
    RoundWait wait_;  // waits()'s scratch, where receives and sends are apart in memory
    std::vector<std::uint32_t> held_count_;
    std::vector<std::vector<std::uint32_t>> held_;
};

}  // namespace

Schedule recursive_exchange(const GenerateRequest& request, int k, ExchangeOrder order) {
    return Exchange(request, k, order).run();
}

std::vector<int> any_radix(Rank p) {
    std::vector<int> radices(p > 1 ? p - 1 : 0);
    std::iota(radices.begin(), radices.end(), 2);
    return radices;
}

}  // namespace piccolo::detail
