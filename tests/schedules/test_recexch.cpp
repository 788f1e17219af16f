// Reduce_scatter by recursive exchange with radix k (schedules/src/recexch.cpp): MPICH's step 1,
// phases and step 3 (MPIR_TSP_Ireduce_scatter_block_sched_intra_recexch with
// MPII_Recexchalgo_get_neighbors and _get_count_and_offset, MPICH v4.1.2) worked by hand, rh's
// schedule task for task at k = 2, the data-flow proof for every p in 2..20, every k and style,
// exact task counts, and the verifier's rejection of every removed dependency that moves data
// (the order-only ones counted by hand).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <tuple>
#include <vector>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/task_count.hpp"
#include "piccolo/schedules/verify.hpp"
#include "schedule_edits.hpp"

using namespace piccolo;
using piccolo::test::without_dependency;

namespace {

GenerateRequest request(Rank p, int k, std::uint64_t bytes = 8, Style style = Style::mpi,
                        bool payload = true) {
    return {Collective::reduce_scatter, "recexch", k, p, bytes, payload, style};
}

// MPICH's factoring, written out here: P = the largest power of k <= p, n = log_k P, rem = p - P,
// and the ranks that reduce in step 1 (rem / (k - 1) full groups, one more for a partial group).
struct Factoring {
    std::size_t core = 1, n = 0, rem = 0, folding = 0;
};
Factoring factoring(Rank p, int k) {
    Factoring out;
    while (out.core * static_cast<std::size_t>(k) <= static_cast<std::size_t>(p)) {
        out.core *= static_cast<std::size_t>(k);
        ++out.n;
    }
    out.rem = static_cast<std::size_t>(p) - out.core;
    const std::size_t groups = out.rem / static_cast<std::size_t>(k - 1);
    out.folding = groups + (out.rem % static_cast<std::size_t>(k - 1) > 0 ? 1 : 0);
    return out;
}

using Task = std::tuple<TaskKind, Rank, Rank, std::vector<std::uint32_t>>;
std::vector<Task> tasks(const Schedule& s) {
    std::vector<Task> out;
    for (TaskId t = 0; t < s.size(); ++t)
        out.emplace_back(s.kind[t], s.src[t], s.dst[t],
                         std::vector<std::uint32_t>(s.payload.row(t).begin(),
                                                    s.payload.row(t).end()));
    return out;
}

}  // namespace

TEST_CASE("recexch: MPICH's step 1, phases and step 3, worked by hand") {
    // p = 5, k = 3: P = 3, one phase, rem = 2, T = 3: ranks 0 and 1 send their vector to rank 2,
    // which reduces rank 1's, then rank 0's. New ranks 0, 1, 2 are ranks 2, 3, 4, standing for
    // segments {0, 1, 2}, {3}, {4}. Partners in order of digit: new 0: 1, 2; new 1: 0, 2; new 2:
    // 0, 1. Turn 0: rank 2 sends {3} to rank 3, rank 3 and rank 4 send {0, 1, 2} to rank 2; ranks 2
    // and 3 reduce what they got, but rank 4 waits for rank 2's turn-1 send. Turn 1: ranks 2 and
    // 3 send {4} to rank 4; rank 2 reduces rank 4's turn-0 message, rank 4 rank 2's; rank 4 then
    // sends {3} to rank 3 and both reduce. Step 3: rank 2 sends {1} to rank 1 and {0} to rank 0.
    using K = TaskKind;
    const auto t = K::transfer, r = K::reduce;
    CHECK(tasks(generate(request(5, 3))) ==
          std::vector<Task>{{t, 0, 2, {0, 1, 2, 3, 4}}, {t, 1, 2, {0, 1, 2, 3, 4}},
                            {r, 2, 2, {0, 1, 2, 3, 4}}, {r, 2, 2, {0, 1, 2, 3, 4}},
                            {t, 2, 3, {3}},             {t, 3, 2, {0, 1, 2}},
                            {t, 4, 2, {0, 1, 2}},       {r, 2, 2, {0, 1, 2}},
                            {r, 3, 3, {3}},             {t, 2, 4, {4}},
                            {t, 3, 4, {4}},             {r, 2, 2, {0, 1, 2}},
                            {r, 4, 4, {4}},             {t, 4, 3, {3}},
                            {r, 3, 3, {3}},             {r, 4, 4, {4}},
                            {t, 2, 1, {1}},             {t, 2, 0, {0}}});
    // p = 6, k = 4: P = 4, rem = 2, T = 2: a partial group, ranks 0 and 1 both send to rank 2
    // (MPICH: a sender whose group's last rank is past T - 1 sends to T), which reduces rank 1's
    // vector first. New rank 0 = rank 2 stands for segments {0, 1, 2}.
    const Schedule s = generate(request(6, 4));
    CHECK(tasks(s)[0] == Task{t, 0, 2, {0, 1, 2, 3, 4, 5}});
    CHECK(tasks(s)[1] == Task{t, 1, 2, {0, 1, 2, 3, 4, 5}});
    CHECK(s.deps.row(2)[0] == 1);  // the first reduce: rank 1's vector
    CHECK(tasks(s)[4] == Task{t, 2, 3, {3}});
    CHECK(tasks(s)[5] == Task{t, 3, 2, {0, 1, 2}});
    // p = 9, k = 3: two phases, far first: rank 0 sends segments {3, 4, 5} to rank 3, then
    // {6, 7, 8} to rank 6, each a third of the vector; then {1} to rank 1 and {2} to rank 2.
    std::vector<std::pair<Rank, std::vector<std::uint32_t>>> rank0;
    for (const Task& task : tasks(generate(request(9, 3))))
        if (std::get<0>(task) == t && std::get<1>(task) == 0)
            rank0.emplace_back(std::get<2>(task), std::get<3>(task));
    CHECK(rank0 == std::vector<std::pair<Rank, std::vector<std::uint32_t>>>{
                       {3, {3, 4, 5}}, {6, {6, 7, 8}}, {1, {1}}, {2, {2}}});
}

TEST_CASE("recexch with k = 2 is rh, task for task, in every style") {
    for (Rank p = 2; p <= 20; ++p)
        for (Style style : all_styles) {
            const Schedule a = generate(request(p, 2, 5, style));
            const Schedule b = generate({Collective::reduce_scatter, "rh", 0, p, 5, true, style});
            INFO(fmt::format("p={} style={}", p, to_string(style)));
            REQUIRE(a.size() == b.size());
            CHECK(a.kind == b.kind);
            CHECK(a.src == b.src);
            CHECK(a.dst == b.dst);
            for (TaskId t = 0; t < a.size(); ++t) CHECK(a.bytes(t) == b.bytes(t));
            CHECK(a.deps.items == b.deps.items);
            CHECK(a.deps.offsets == b.deps.offsets);
            CHECK(a.sent_deps.items == b.sent_deps.items);
            CHECK(a.sent_deps.offsets == b.sent_deps.offsets);
            CHECK(a.payload.items == b.payload.items);
            CHECK(dag_identity(request(p, 2, 5, style)) ==
                  dag_identity({Collective::reduce_scatter, "rh", 0, p, 5, true, style}));
        }
}

TEST_CASE("recexch: every schedule for p = 2..20, k and style is proven, counts exact") {
    for (Rank p = 2; p <= 20; ++p)
        for (int k = 2; k <= p; ++k)
            for (Style style : all_styles)
                for (bool payload : {true, false})
                    for (std::uint64_t bytes : {1, 7}) {
                        const GenerateRequest r = request(p, k, bytes, style, payload);
                        INFO(fmt::format("p={} k={} style={} payload={} bytes={}", p, k,
                                         to_string(style), payload, bytes));
                        const Schedule s = generate(r);
                        const TaskCounts counts = count_tasks(r);
                        CHECK(counts.transfers == s.transfer_count());
                        CHECK(counts.computes == s.size() - s.transfer_count());
                        CHECK(counts.dependency_ids ==
                              s.deps.items.size() + s.sent_deps.items.size());
                        CHECK(counts.payload_ids == s.payload.items.size());
                        if (!payload) continue;
                        const VerifyReport report = verify(s);
                        REQUIRE(report.data_flow_checked);
                        if (!report.ok()) FAIL(report.violation->message);
                    }
    // By hand, p = 12, k = 4 (P = 4, n = 1, rem = 8: groups {0, 1, 2 -> 3}, {4, 5, 6 -> 7} and
    // the partial {8, 9 -> 10}), mpi: 8 + 12 + 8 transfers, 8 + 12 reduces. Ids: step 1's
    // reduces 8 + 5 (all but each of 3 ranks' first), sends 3 (the first turn of 3, 7, 10) +
    // 4 x 2 x 2, reduces 12 x 2 + (12 - 1), step 3: 8.
    const TaskCounts c = count_tasks(request(12, 4));
    CHECK(c.transfers == 28);
    CHECK(c.computes == 20);
    CHECK(c.dependency_ids == 13 + 3 + 16 + 35 + 8);
    // Payload: step 1 8 x 2 x 12, the phase 2 x 3 x 12, step 3 8.
    CHECK(c.payload_ids == 192 + 72 + 8);
    CHECK(c.widest_round == 12);
}

TEST_CASE("recexch, mpi style, p <= 12: removing a dependency that moves data is rejected") {
    for (Rank p = 2; p <= 12; ++p)
        for (int k = 2; k <= p; ++k) {
            const Schedule s = generate(request(p, k));
            REQUIRE(verify(s).ok());
            std::size_t removals = 0, rejected = 0;
            for (TaskId t = 0; t < s.size(); ++t)
                for (std::size_t i = 0; i < s.deps.row(t).size(); ++i) {
                    ++removals;
                    rejected += verify(without_dependency(s, t, i)).ok() ? 0 : 1;
                }
            // By hand: step 1's reduces wait for their operand and the previous reduce, into
            // which they sum (rem + rem - f): data. A phase's first send forwards what the
            // previous phase's (or step 1's) last reduce wrote (f + P (n - 1)): data; a later
            // turn's send waits for the same phase's previous reduce (P n (k - 2)), which wrote
            // the rank's own group, not the partner's: order (MPICH's chain), the data being
            // reached through the sent dependency on the previous send. A reduce waits for its
            // operand (P n (k - 1), data) and the previous reduce (P n (k - 1) - (P - f)), which
            // its own send waits for: order. Step 3's sends wait for the last reduce (rem, data).
            const Factoring q = factoring(p, k);
            const std::size_t km1 = static_cast<std::size_t>(k - 1);
            const std::size_t turns = q.core * q.n * km1;
            INFO(fmt::format("p={} k={}", p, k));
            CHECK(removals == 2 * q.rem - q.folding + q.folding + q.core * (q.n - 1) +
                                  q.core * q.n * (km1 - 1) + turns + turns -
                                  (q.core - q.folding) + q.rem);
            CHECK(rejected ==
                  removals - q.core * q.n * (km1 - 1) - (turns - (q.core - q.folding)));
        }
}

TEST_CASE("recexch: refusals name the option and the valid choices") {
    CHECK_THROWS_WITH_AS(generate(request(8, 1)), "-k: recexch needs 2 <= k <= p = 8 (got k = 1)",
                         InputError);
    CHECK_THROWS_WITH_AS(generate(request(8, 9)), "-k: recexch needs 2 <= k <= p = 8 (got k = 9)",
                         InputError);
    CHECK_THROWS_WITH_AS(generate({Collective::allgather, "recexch", 2, 8, 64, true}),
                         "-c/--collective: recexch runs reduce_scatter only; for allgather use one "
                         "of ring, k-ring, rd, rm, prd, prm, bruck",
                         InputError);
    CHECK_NOTHROW(generate(request(7, 7)));  // k = p: one phase of p - 1 partners
}
