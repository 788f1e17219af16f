// Reduce_scatter by recursive halving (schedules/src/rh.cpp): MPICH's fold-in, halving steps and
// fold-out (MPIR_Reduce_scatter_block_intra_recursive_halving, MPICH v4.1.2) worked by hand, the
// data-flow proof for every p in 2..20 and every style, exact task counts, and the verifier's
// rejection of every removed dependency that moves data (the order-only ones counted by hand).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <tuple>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/task_count.hpp"
#include "piccolo/schedules/verify.hpp"
#include "schedule_edits.hpp"

using namespace piccolo;
using piccolo::test::without_dependency;

namespace {

Schedule rh(Rank p, Style style = Style::mpi, bool payload = true) {
    return generate({Collective::reduce_scatter, "rh", 0, p, 8, payload, style});
}

// P = 2^floor(log2 p), n = log2 P, rem = p - P.
std::tuple<std::size_t, std::size_t, std::size_t> factoring(Rank p) {
    std::size_t core = 1, n = 0;
    while (core * 2 <= static_cast<std::size_t>(p)) {
        core *= 2;
        ++n;
    }
    return {core, n, static_cast<std::size_t>(p) - core};
}

}  // namespace

TEST_CASE("rh: MPICH's fold-in, halving and fold-out, worked by hand") {
    // p = 5: P = 4, rem = 1. Rank 0 sends its 5 segments to rank 1 and sits out; new ranks 0..3
    // are ranks 1..4, unit 0 = segments {0, 1}, units 1, 2, 3 = {2}, {3}, {4}. Mask 2: new 0 and
    // 1 (ranks 1, 2) keep units 0, 1 and send units 2, 3 = {3, 4}; new 2 and 3 (ranks 3, 4) send
    // units 0, 1 = {0, 1, 2}. Mask 1: rank 1 sends unit 1 {2} to rank 2, rank 2 unit 0 {0, 1} to
    // rank 1, rank 3 unit 3 {4} to rank 4, rank 4 unit 2 {3} to rank 3. Rank 1 sends the sum of
    // segment 0 to rank 0.
    using Transfer = std::tuple<Rank, Rank, std::vector<std::uint32_t>>;
    std::vector<Transfer> transfers, reduces;
    const Schedule s = rh(5);
    for (TaskId t = 0; t < s.size(); ++t) {
        Transfer row{s.src[t], s.dst[t], {s.payload.row(t).begin(), s.payload.row(t).end()}};
        (s.kind[t] == TaskKind::transfer ? transfers : reduces).push_back(std::move(row));
        CHECK(s.bytes(t) == 8 * s.payload.row(t).size());
    }
    CHECK(transfers == std::vector<Transfer>{{0, 1, {0, 1, 2, 3, 4}},
                                             {1, 3, {3, 4}},
                                             {2, 4, {3, 4}},
                                             {3, 1, {0, 1, 2}},
                                             {4, 2, {0, 1, 2}},
                                             {1, 2, {2}},
                                             {2, 1, {0, 1}},
                                             {3, 4, {4}},
                                             {4, 3, {3}},
                                             {1, 0, {0}}});
    CHECK(reduces == std::vector<Transfer>{{1, 1, {0, 1, 2, 3, 4}},
                                           {1, 1, {0, 1, 2}},
                                           {2, 2, {0, 1, 2}},
                                           {3, 3, {3, 4}},
                                           {4, 4, {3, 4}},
                                           {1, 1, {0, 1}},
                                           {2, 2, {2}},
                                           {3, 3, {3}},
                                           {4, 4, {4}}});
    // p = 8, a power of two: no fold; rank 0 sends 4, 2, 1 segments to 4, 2, 1.
    const Schedule eight = rh(8);
    std::vector<std::pair<Rank, std::uint64_t>> rank0;
    for (TaskId t = 0; t < eight.size(); ++t)
        if (eight.kind[t] == TaskKind::transfer && eight.src[t] == 0)
            rank0.emplace_back(eight.dst[t], eight.bytes(t));
    CHECK(rank0 == std::vector<std::pair<Rank, std::uint64_t>>{{4, 32}, {2, 16}, {1, 8}});
}

TEST_CASE("rh: every schedule for p = 2..20, every style, is proven, task counts exact") {
    for (Rank p = 2; p <= 20; ++p)
        for (Style style : all_styles)
            for (bool payload : {true, false}) {
                const GenerateRequest r{Collective::reduce_scatter, "rh", 0, p, 3, payload, style};
                const Schedule s = generate(r);
                INFO(fmt::format("p={} style={} payload={}", p, to_string(style), payload));
                const TaskCounts counts = count_tasks(r);
                CHECK(counts.transfers == s.transfer_count());
                CHECK(counts.computes == s.size() - s.transfer_count());
                CHECK(counts.dependency_ids == s.deps.items.size() + s.sent_deps.items.size());
                CHECK(counts.payload_ids == s.payload.items.size());
                if (!payload) continue;
                const VerifyReport report = verify(s);
                REQUIRE(report.data_flow_checked);
                if (!report.ok()) FAIL(report.violation->message);
            }
    // By hand, p = 6 (P = 4, n = 2, rem = 2): 4 + 8 transfers, 2 + 8 reduces; mpi ids: fold-in
    // reduces 2, first-step sends 2, second-step sends 2 x 4, reduces 2 x 8 + 2 + 4, fold-out 2.
    const TaskCounts c = count_tasks({Collective::reduce_scatter, "rh", 0, 6, 8, true, Style::mpi});
    CHECK(c.transfers == 12);
    CHECK(c.computes == 10);
    CHECK(c.dependency_ids == 2 + 2 + 8 + 16 + 6 + 2);
    // Payload: fold-in 2 x (6 + 6), steps 2 x 6 x 3, fold-out 2.
    CHECK(c.payload_ids == 24 + 36 + 2);
    CHECK(c.widest_round == 4);
}

TEST_CASE("rh, mpi style, p <= 12: removing a dependency that moves data is rejected") {
    for (Rank p = 2; p <= 12; ++p) {
        const Schedule s = rh(p);
        REQUIRE(verify(s).ok());
        std::size_t removals = 0, rejected = 0;
        for (TaskId t = 0; t < s.size(); ++t)
            for (std::size_t i = 0; i < s.deps.row(t).size(); ++i) {
                ++removals;
                const VerifyReport r = verify(without_dependency(s, t, i));
                rejected += r.ok() ? 0 : 1;
            }
        // By hand: the fold-in reduces wait for their operand (rem), the first step's sends of
        // the folded ranks for their reduce (rem), later sends for the previous reduce
        // (P (n - 1)): all data, the sends forward the sums it wrote. A step's reduce waits for
        // its operand (P n, data) and the previous reduce (rem + P (n - 1)), which its own send's
        // sent dependency reaches too: order only. The fold-out's sends wait for the last reduce
        // (rem, data).
        const auto [core, n, rem] = factoring(p);
        INFO(fmt::format("p={}", p));
        CHECK(removals == 4 * rem + 2 * core * (n - 1) + core * n);
        CHECK(rejected == removals - (rem + core * (n - 1)));
    }
}

TEST_CASE("rh: refusals name the option and the valid choices") {
    CHECK_THROWS_WITH_AS(generate({Collective::alltoall, "rh", 0, 8, 64, true}),
                         "-c/--collective: rh runs reduce_scatter only; for alltoall use one of "
                         "bruck, pairwise, scattered",
                         InputError);
    CHECK_THROWS_WITH_AS(generate({Collective::allreduce, "rh", 0, 8, 64, true}),
                         "-c/--collective: rh runs reduce_scatter only; for allreduce use one of "
                         "ring, k-ring, rd, rm, prd, prm",
                         InputError);
}
