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
// Dependencies: every operation of a round at a rank waits for every send and receive of that
// rank in the previous round (MPI_Waitall semantics). This is also what makes the data flow
// provable rank by rank: data received two rounds ago is reached through the rank's own sends.
#include <algorithm>
#include <numeric>
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "radix_plan.hpp"

namespace piccolo::detail {

namespace {

// What each rank's next operation waits for: a few task ids per rank, stored flat.
class RankOps {
  public:
    RankOps(Rank ranks, std::size_t per_rank)
        : stride_(per_rank), ids_(static_cast<std::size_t>(ranks) * per_rank), count_(ranks, 0) {}
    void add(Rank r, TaskId t) { ids_[static_cast<std::size_t>(r) * stride_ + count_[r]++] = t; }
    [[nodiscard]] std::span<const TaskId> of(Rank r) const {
        return {ids_.data() + static_cast<std::size_t>(r) * stride_, count_[r]};
    }

  private:
    std::size_t stride_;
    std::vector<TaskId> ids_;
    std::vector<std::uint32_t> count_;
};

class Exchange {
  public:
    Exchange(const GenerateRequest& request, int k, ExchangeOrder order)
        : request_(request),
          order_(order),
          p_(request.ranks),
          plan_(plan_radices(request.ranks, k)),
          builder_(shape(request), request.algorithm, k, request.payload),
          last_ops_(p_, 1) {}

    Schedule run() {
        reserve();
        fold_in();
        std::int64_t place = order_ == ExchangeOrder::multiplying ? 1 : plan_.core;
        for (int radix : plan_.radices) {
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
    // Exact task and dependency counts, so that the arrays are allocated once.
    void reserve() {
        std::size_t tasks = 4 * static_cast<std::size_t>(extra()) + plan_.core, deps = tasks;
        std::size_t previous_ops = 1;
        for (int radix : plan_.radices) {
            const std::size_t sends = static_cast<std::size_t>(plan_.core) * (radix - 1);
            tasks += sends + (allgather() ? 0 : plan_.core);
            deps += sends * previous_ops + (allgather() ? 0 : 2 * sends);
            previous_ops = allgather() ? 2 * static_cast<std::size_t>(radix - 1) : 1;
        }
        builder_.reserve(tasks, deps + static_cast<std::size_t>(plan_.core) * previous_ops);
    }

    [[nodiscard]] bool allgather() const { return request_.collective == Collective::allgather; }
    [[nodiscard]] Rank extra() const { return plan_.extra(p_); }

    // Blocks (allgather) a core rank holds, or the single segment 0 (allreduce).
    void init_holdings() {
        held_count_.assign(plan_.core, 1);
        if (allgather() && request_.payload) {
            held_.assign(plan_.core, {});
            for (Rank r = 0; r < plan_.core; ++r) held_[r] = {static_cast<std::uint32_t>(r)};
        }
    }

    TaskId send(Rank from, Rank to, std::span<const TaskId> deps) {
        static constexpr std::uint32_t segment = 0;
        if (!allgather()) return builder_.transfer(from, to, {&segment, 1}, deps);
        const std::uint64_t bytes = request_.bytes * held_count_[from];
        const std::span<const std::uint32_t> pieces =
            request_.payload ? std::span<const std::uint32_t>(held_[from])
                             : std::span<const std::uint32_t>();
        return builder_.transfer_bytes(from, to, bytes, pieces, deps);
    }

    TaskId reduce(Rank rank, std::span<const TaskId> deps) {
        static constexpr std::uint32_t segment = 0;
        return builder_.compute(TaskKind::reduce, rank, request_.bytes, {&segment, 1}, deps);
    }

    void fold_in() {
        init_holdings();
        for (Rank i = 0; i < extra(); ++i) {
            const Rank folded = plan_.core + i;
            const auto block = static_cast<std::uint32_t>(allgather() ? folded : 0);
            const TaskId t = builder_.transfer(folded, i, {&block, 1}, {});
            if (allgather()) {
                held_count_[i] += 1;
                if (request_.payload) held_[i].push_back(block);
                last_ops_.add(i, t);
            } else {
                last_ops_.add(i, reduce(i, std::span<const TaskId>(&t, 1)));
            }
        }
    }

    void round(int radix, Rank place) {
        RankOps ops(plan_.core, 2 * static_cast<std::size_t>(radix - 1));
        for (Rank r = 0; r < plan_.core; ++r) {
            const Rank digit = r / place % radix;
            for (int j = 0; j < radix; ++j) {
                if (j == digit) continue;
                const Rank partner = r + (j - digit) * place;
                const TaskId t = send(r, partner, last_ops_.of(r));
                ops.add(r, t);
                ops.add(partner, t);
            }
        }
        if (allgather()) {
            gather_holdings(radix, place);
            last_ops_ = std::move(ops);
        } else {
            RankOps reduced(p_, 1);
            for (Rank r = 0; r < plan_.core; ++r) reduced.add(r, reduce(r, ops.of(r)));
            last_ops_ = std::move(reduced);
        }
    }

    // After a round a rank holds what its whole digit group held, in rank order.
    void gather_holdings(int radix, Rank place) {
        std::vector<std::uint32_t> counts(plan_.core, 0);
        std::vector<std::vector<std::uint32_t>> held(request_.payload ? plan_.core : 0);
        for (Rank r = 0; r < plan_.core; ++r) {
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

    void permute() {
        const std::uint64_t bytes = request_.bytes * static_cast<std::uint64_t>(p_);
        RankOps permuted(p_, 1);
        for (Rank r = 0; r < plan_.core; ++r)
            permuted.add(r, builder_.compute(TaskKind::permute, r, bytes, {}, last_ops_.of(r)));
        last_ops_ = std::move(permuted);
    }

    void fold_out() {
        for (Rank i = 0; i < extra(); ++i) {
            const Rank folded = plan_.core + i;
            if (!allgather()) {
                static constexpr std::uint32_t segment = 0;
                builder_.transfer(i, folded, {&segment, 1}, last_ops_.of(i));
                continue;
            }
            // Everything except the folded rank's own block.
            std::vector<std::uint32_t> blocks;
            if (request_.payload) {
                blocks.reserve(p_ - 1);
                for (Rank b = 0; b < p_; ++b)
                    if (b != folded) blocks.push_back(static_cast<std::uint32_t>(b));
            }
            builder_.transfer_bytes(i, folded, request_.bytes * (p_ - 1), blocks, last_ops_.of(i));
        }
    }

    const GenerateRequest& request_;
    ExchangeOrder order_;
    Rank p_;
    RadixPlan plan_;
    ScheduleBuilder builder_;
    RankOps last_ops_;  // per rank: what the next round waits for
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
