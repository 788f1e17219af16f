// Reduce_scatter by recursive exchange with radix k, as MPICH's nonblocking
// MPIR_TSP_Ireduce_scatter_block_sched_intra_recexch (MPICH v4.1.2,
// src/mpi/coll/ireduce_scatter_block/ireduce_scatter_block_tsp_recexch.c) schedules it, with the
// neighbours, counts and offsets of src/mpi/coll/algorithms/recexchalgo/recexchalgo.c
// (MPII_Recexchalgo_get_neighbors, MPII_Recexchalgo_get_count_and_offset); the schedule is the
// same from v4.0.2 to v4.3.2. --bytes is recvcount: the vector is p segments.
//
// P = the largest power of k <= p, n = log_k P phases, rem = p - P (recexch_factoring()). Any p and
// 2 <= k <= p:
//   1. Step 1: the first T = floor(rem k / (k - 1)) ranks form groups of k; in each full group
//      the first k - 1 ranks send their whole vector to its last rank, which reduces them in
//      one at a time, nearest first (rank - 1, rank - 2, ...); the T mod k ranks of a partial
//      last group send to rank T instead. The senders sit out; the P others take new ranks
//      (r < T: r / k; r >= T: r - rem). New rank y stands for the segments of the ranks folded
//      into it and its own: (orig(y - 1), orig(y)], orig(y) = y k + k - 1 below the full groups,
//      y + rem above.
//   2. Step 2: phases n - 1 down to 0 (farthest first); in phase i new rank y exchanges with the
//      k - 1 new ranks that differ from it in base-k digit i (digit values in increasing order),
//      one partner at a time: it sends the partner the segments of the partner's group of k^i
//      new ranks and reduces what it receives into its own group's (MPICH's TSP schedule chains
//      each partner's send and receive after the previous partner's reduce). A rank receives
//      from its partner whenever that partner gets to it, which need not be the same turn.
//   3. Step 3: each rank of step 2 sends its senders of step 1 their segments.
// MPICH's local copies (the input into tmp_results, the result into recvbuf) are no tasks.
// With k = 2 this is MPICH's blocking recursive halving, rh.cpp, task for task (the same fold,
// renumbering, halving and fold-out; tests/schedules/test_recexch.cpp compares them).
//
// Dependencies (Style): a send forwards sums a reduce of its rank wrote. mpi (MPICH's TSP
// schedule): a send waits for the rank's previous reduce (the partner before, or the previous
// phase or step 1) and, sent, its previous send; nccl the same with the send delivered;
// pipelined only for the rank's last reduce of the previous phase (or step 1), the data it
// forwards. A reduce waits for its operand, the previous reduce (in place) and, round-
// synchronous, the same turn's own send. Step 1's reduces wait for their operand and the
// previous reduce; step 3's sends for the last reduce.
#include <algorithm>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "algorithms.hpp"
#include "builder.hpp"
#include "piccolo/schedules/task_count.hpp"

namespace piccolo::detail {

RecexchFactoring recexch_factoring(Rank p, int k) {
    RecexchFactoring factoring;
    factoring.k = k;
    factoring.core = 1;
    while (static_cast<std::int64_t>(factoring.core) * k <= p) {
        factoring.core *= k;
        ++factoring.phases;
    }
    factoring.rem = p - factoring.core;
    factoring.folded_groups = factoring.rem / (k - 1);
    factoring.partial = factoring.rem % (k - 1);
    return factoring;
}

Rank RecexchFactoring::orig(Rank y) const {
    return y < folded_groups ? y * k + k - 1 : y + rem;
}

Rank RecexchFactoring::first_segment(Rank y) const {
    return y == 0 ? 0 : orig(y - 1) + 1;
}

std::vector<Rank> RecexchFactoring::senders(Rank r) const {
    std::vector<Rank> from;
    const Rank t = folded_groups * k + partial;  // MPICH's T
    if (r < t && r % k == k - 1)
        for (Rank i = 1; i < k; ++i) from.push_back(r - i);
    else if (r == t)
        for (Rank i = 1; i <= partial; ++i) from.push_back(t - i);
    return from;
}

namespace {

constexpr TaskId none = ScheduleBuilder::no_dep;

class RecursiveExchange {
  public:
    explicit RecursiveExchange(const GenerateRequest& request)
        : request_(request),
          factoring_(recexch_factoring(request.ranks, request.k)),
          builder_({Collective::reduce_scatter, request.ranks, request.bytes,
                    static_cast<std::uint32_t>(request.ranks)},
                   request.algorithm, request.k, request.payload, request.style),
          reduced_(request.ranks, none),
          sent_(request.ranks, none) {}

    Schedule run() {
        const TaskCounts counts = count_tasks(request_);
        builder_.reserve(counts.tasks(), counts.dependency_ids);
        fold_in();
        for (int phase = factoring_.phases - 1; phase >= 0; --phase) exchange(phase);
        fold_out();
        return std::move(builder_).finish();
    }

  private:
    // The segments of new ranks [from, to) as the task's pieces (always listed: the builder
    // sums their bytes).
    std::span<const std::uint32_t> segments(Rank from, Rank to) {
        list_.clear();
        const Rank last = to == factoring_.core ? request_.ranks : factoring_.first_segment(to);
        for (Rank s = factoring_.first_segment(from); s < last; ++s)
            list_.push_back(static_cast<std::uint32_t>(s));
        return list_;
    }
    std::uint64_t bytes_of(std::span<const std::uint32_t> pieces) const {
        return builder_.shape().pieces_bytes(pieces);
    }

    void fold_in() {
        const Rank p = request_.ranks;
        std::vector<Rank> target(p, -1);  // step 1: whom each sender sends to
        for (Rank r = 0; r < p; ++r)
            for (Rank s : factoring_.senders(r)) target[s] = r;
        std::vector<TaskId> sends(p, none);
        for (Rank s = 0; s < p; ++s)
            if (target[s] >= 0)
                sends[s] = builder_.transfer(s, target[s], segments(0, factoring_.core),
                                             std::span<const TaskId>{});
        for (Rank r = 0; r < p; ++r)
            for (Rank s : factoring_.senders(r)) {
                const auto all = segments(0, factoring_.core);
                const TaskId deps[] = {sends[s], reduced_[r]};
                reduced_[r] = builder_.compute(TaskKind::reduce, r, bytes_of(all), all, deps);
            }
    }

    // New rank y's partners in a phase: digit `phase` of y set to every other value, in order.
    std::vector<Rank> partners(Rank y, Rank spacing) const {
        const Rank digit = (y / spacing) % factoring_.k;
        std::vector<Rank> out;
        for (Rank v = 0; v < factoring_.k; ++v)
            if (v != digit) out.push_back(y + (v - digit) * spacing);
        return out;
    }

    void exchange(int phase) {
        Rank spacing = 1;
        for (int i = 0; i < phase; ++i) spacing *= factoring_.k;
        const Rank core = factoring_.core, turns = factoring_.k - 1;
        std::vector<std::vector<Rank>> partner(core);
        for (Rank y = 0; y < core; ++y) partner[y] = partners(y, spacing);
        // sends[y][t]: y's send of turn t; the next turn of each rank to send and to reduce.
        std::vector<std::vector<TaskId>> sends(core, std::vector<TaskId>(turns, none));
        std::vector<Rank> next_send(core, 0), next_reduce(core, 0);
        std::vector<TaskId> before(core);  // the last reduce before this phase (pipelined)
        for (Rank y = 0; y < core; ++y) before[y] = reduced_[factoring_.orig(y)];
        const bool pipelined = request_.style == Style::pipelined;
        RoundWait wait;
        // In passes: every rank's ready send (one each, repeated while any is ready), then every
        // rank's ready reduce, so that tasks come after their dependencies and, with k = 2, in
        // rh.cpp's order.
        for (Rank left = 2 * core * turns; left > 0;) {
            Rank progress = 0;
            for (bool again = true; again;) {
                again = false;
                for (Rank y = 0; y < core; ++y) {
                    const Rank t = next_send[y];
                    if (t == turns || (!pipelined && next_reduce[y] < t)) continue;
                    const Rank r = factoring_.orig(y), to = partner[y][t];
                    wait.set(request_.style, {pipelined ? &before[y] : &reduced_[r], 1},
                             {&sent_[r], 1});
                    const Rank group = to / spacing * spacing;
                    sends[y][t] =
                        builder_.transfer(r, factoring_.orig(to), segments(group, group + spacing),
                                          wait.deps, wait.sent);
                    sent_[r] = sends[y][t];
                    ++next_send[y];
                    again = true;
                    ++progress;
                }
            }
            for (Rank y = 0; y < core; ++y) {
                const Rank t = next_reduce[y];
                if (t == turns || next_send[y] <= t) continue;
                const Rank from = partner[y][t];
                const auto& back = partner[from];
                const auto at = static_cast<std::size_t>(
                    std::find(back.begin(), back.end(), y) - back.begin());
                if (sends[from][at] == none) continue;  // not sent yet
                const Rank r = factoring_.orig(y);
                wait.set(request_.style, {}, {&sends[y][t], 1});
                wait.deps.insert(wait.deps.begin(), {sends[from][at], reduced_[r]});
                const Rank group = y / spacing * spacing;
                const auto mine = segments(group, group + spacing);
                reduced_[r] = builder_.compute(TaskKind::reduce, r, bytes_of(mine), mine,
                                               wait.deps, wait.sent);
                ++next_reduce[y];
                ++progress;
            }
            if (progress == 0) throw std::logic_error("recexch: a phase cannot proceed");
            left -= progress;
        }
    }

    void fold_out() {
        for (Rank r = 0; r < request_.ranks; ++r)
            for (Rank s : factoring_.senders(r)) {
                list_.assign(1, static_cast<std::uint32_t>(s));
                builder_.transfer(r, s, list_, std::span<const TaskId>(&reduced_[r], 1));
            }
    }

    const GenerateRequest& request_;
    RecexchFactoring factoring_;
    ScheduleBuilder builder_;
    std::vector<TaskId> reduced_, sent_;  // per rank: its last reduce, its last send
    std::vector<std::uint32_t> list_;
};

}  // namespace

// A sweep's default k: every k at 256 ranks made `piccolo select -c reduce_scatter` 36 times as
// costly, for the same choices (a large k is one phase of up to p - 1 partners one after the
// other, a replay as long as pairwise's; tools/bench/README.md). -k names the others.
std::vector<int> recexch_swept_radices(Rank p) {
    std::vector<int> ks;
    for (int k = 2; k <= recexch_swept_limit && k <= p; ++k) ks.push_back(k);
    return ks;
}

Schedule generate_recexch(const GenerateRequest& request) {
    return RecursiveExchange(request).run();
}

}  // namespace piccolo::detail
