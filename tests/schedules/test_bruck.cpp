// Bruck's Allgather with radix k (schedules/src/bruck.cpp): its phases against MPICH's k-Bruck
// (MPIR_Allgather_intra_k_brucks, MPICH v4.1.2) worked by hand, the data-flow proof for every
// p in 2..20 and every k in every style, and the verifier's rejection of removed dependencies.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/task_count.hpp"
#include "piccolo/schedules/verify.hpp"
#include "schedule_edits.hpp"

using namespace piccolo;
using piccolo::test::without_dependency;

namespace {

Schedule bruck(Rank p, int k, Style style = Style::mpi, std::uint64_t bytes = 8) {
    return generate({Collective::allgather, "bruck", k, p, bytes, true, style});
}

// The transfers rank 0 sends, as (destination, bytes), in task order.
std::vector<std::pair<Rank, std::uint64_t>> sends_of_rank0(const Schedule& s) {
    std::vector<std::pair<Rank, std::uint64_t>> out;
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::transfer && s.src[t] == 0)
            out.emplace_back(s.dst[t], s.size_values[s.size_class[t]]);
    return out;
}

}  // namespace

TEST_CASE("bruck: MPICH's phases, partners and block counts, worked by hand") {
    using Sends = std::vector<std::pair<Rank, std::uint64_t>>;
    // p = 5, k = 2: phases delta = 1, 2, 4 (4 = the base-2 digits of p - 1 = 100b: 3 phases).
    // Rank 0 sends 1 block to 4, 2 blocks to 3, then min(4, 5 - 4) = 1 block to 1. 8 B blocks.
    CHECK(sends_of_rank0(bruck(5, 2)) == Sends{{4, 8}, {3, 16}, {1, 8}});
    // p = 10, k = 3: delta = 1 (to 9, 8: 1 block each), 3 (to 7, 4: 3 blocks each), 9 (to 1:
    // min(9, 10 - 9) = 1 block; j = 2 would be 18 >= 10, none).
    CHECK(sends_of_rank0(bruck(10, 3)) == Sends{{9, 8}, {8, 8}, {7, 24}, {4, 24}, {1, 8}});
    // p = 7, k = 4: delta = 1 (to 6, 5, 4), 4 (j = 1: to 3, min(4, 3) = 3 blocks; j = 2: 8 >= 7).
    CHECK(sends_of_rank0(bruck(7, 4)) == Sends{{6, 8}, {5, 8}, {4, 8}, {3, 24}});
    // k = p: one phase, p - 1 single blocks.
    CHECK(sends_of_rank0(bruck(4, 4)) == Sends{{3, 8}, {2, 8}, {1, 8}});
    // A message carries the first blocks of the sender's rotated buffer: rank 3 of p = 5, k = 2
    // sends blocks 3, 4 in phase 1 (offsets 0, 1 = blocks 3 and 4).
    const Schedule s = bruck(5, 2);
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::transfer && s.src[t] == 3 && s.dst[t] == 1)
            CHECK(std::vector<std::uint32_t>(s.payload.row(t).begin(), s.payload.row(t).end()) ==
                  std::vector<std::uint32_t>{3, 4});
}

TEST_CASE("bruck: the rotation is one permute of p blocks on every rank but 0") {
    const Schedule s = bruck(6, 3, Style::mpi, 5);
    std::vector<Rank> permuting;
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::permute) {
            permuting.push_back(s.src[t]);
            CHECK(s.size_values[s.size_class[t]] == 30);
        }
    CHECK(permuting == std::vector<Rank>{1, 2, 3, 4, 5});
}

TEST_CASE("bruck: every schedule for p = 2..20, every k, every style is proven") {
    for (Rank p = 2; p <= 20; ++p)
        for (int k = 2; k <= p; ++k)
            for (Style style : all_styles)
                for (bool payload : {true, false}) {
                    const GenerateRequest r{
                        Collective::allgather, "bruck", k, p, 3, payload, style};
                    const Schedule s = generate(r);
                    INFO(fmt::format("p={} k={} style={} payload={}", p, k, to_string(style),
                                     payload));
                    const TaskCounts counts = count_tasks(r);
                    CHECK(counts.transfers == s.transfer_count());
                    CHECK(counts.computes == static_cast<std::uint64_t>(p - 1));
                    CHECK(counts.dependency_ids == s.deps.items.size() + s.sent_deps.items.size());
                    if (!payload) continue;
                    const VerifyReport report = verify(s);
                    REQUIRE(report.data_flow_checked);
                    if (!report.ok()) FAIL(report.violation->message);
                }
}

TEST_CASE("bruck: Allreduce is refused, naming the option and the algorithms that run it") {
    CHECK_THROWS_WITH_AS(generate({Collective::allreduce, "bruck", 2, 8, 64, true}),
                         "-c/--collective: bruck runs allgather, alltoall only; for allreduce use "
                         "one of ring, k-ring, rd, rm, prd, prm",
                         InputError);
}

namespace {

// A send's dependency on a receive none of whose blocks it forwards: MPICH's MPIC_Waitall orders
// it, no data does (only in a last phase that sends fewer blocks than the phase before gathered).
bool order_only(const Schedule& s, TaskId task, TaskId dep) {
    if (s.kind[task] != TaskKind::transfer || s.kind[dep] != TaskKind::transfer) return false;
    const auto sent = s.payload.row(task);
    for (std::uint32_t block : s.payload.row(dep))
        if (std::find(sent.begin(), sent.end(), block) != sent.end()) return false;
    return true;
}

}  // namespace

TEST_CASE("bruck, mpi style, p <= 12: removing any dependency that moves data is rejected") {
    for (Rank p = 2; p <= 12; ++p)
        for (int k = 2; k <= p; ++k) {
            const Schedule s = bruck(p, k, Style::mpi, 3);
            REQUIRE(verify(s).ok());
            std::size_t removals = 0, rejected = 0, order = 0;
            Rank q = 1;
            while (q < p) q *= k;
            const bool power = q == p;  // p = k^n: every message of a phase is delta blocks
            for (TaskId t = 0; t < s.size(); ++t)
                for (std::size_t i = 0; i < s.deps.row(t).size(); ++i) {
                    const TaskId d = s.deps.row(t)[i];
                    const VerifyReport r = verify(without_dependency(s, t, i));
                    INFO(fmt::format("p={} k={} task {} dependency {}", p, k, t, d));
                    ++removals;
                    rejected += r.ok() ? 0 : 1;
                    if (r.violation) CHECK(r.violation->message.rfind("task id=", 0) == 0);
                    if (order_only(s, t, d)) {
                        ++order;
                    } else {
                        CHECK(!r.ok());
                    }
                }
            INFO(fmt::format("p={} k={}", p, k));
            CHECK(removals > 0);
            if (power) CHECK(order == 0);
            if (power) CHECK(rejected == removals);
        }
    // p = 5, k = 2 by hand: the last phase (delta = 4) sends each rank's own block only, so its
    // send's wait for the receive of phase 1 (2 blocks) is order: one per rank, 5 in all.
    const Schedule s = bruck(5, 2, Style::mpi, 3);
    std::size_t order = 0;
    for (TaskId t = 0; t < s.size(); ++t)
        for (TaskId d : s.deps.row(t)) order += order_only(s, t, d) ? 1 : 0;
    CHECK(order == 5);
}
