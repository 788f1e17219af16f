// Bruck's Alltoall with radix k (schedules/src/bruck_alltoall.cpp): its phases, partners and
// blocks against MPICH's k-Bruck (MPIR_Alltoall_intra_k_brucks, MPICH v4.1.2) worked by hand, the
// three rotations, the data-flow proof for every p in 2..20, every k and style, exact task
// counts, and the verifier's rejection of every removed dependency that moves data (the
// order-only ones counted by hand).
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

Schedule bruck(Rank p, int k, Style style = Style::mpi, std::uint64_t bytes = 8,
               bool payload = true) {
    return generate({Collective::alltoall, "bruck", k, p, bytes, payload, style});
}

struct Send {
    Rank to;
    std::uint64_t bytes;
    std::vector<std::uint32_t> blocks;
    bool operator==(const Send&) const = default;
};

std::vector<Send> sends_of_rank0(const Schedule& s) {
    std::vector<Send> out;
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::transfer && s.src[t] == 0)
            out.push_back(
                {s.dst[t], s.bytes(t), {s.payload.row(t).begin(), s.payload.row(t).end()}});
    return out;
}

// Partners of phase i: j = 1..k-1 with j k^i < p.
std::vector<std::int64_t> partners(Rank p, int k) {
    std::vector<std::int64_t> out;
    for (std::int64_t delta = 1; delta < p; delta *= k)
        out.push_back(std::min<std::int64_t>(k - 1, (p - 1) / delta));
    return out;
}

}  // namespace

TEST_CASE("bruck alltoall: MPICH's phases, partners and blocks, worked by hand") {
    // p = 5, k = 2 (8 B blocks; block s p + d goes from s to d). Phase 0 (delta 1): offsets with
    // bit 0 set, 1 and 3: rank 0's own blocks (0, 1), (0, 3) to rank 1. Phase 1 (delta 2): offsets
    // 2, 3 to rank 2: offset 2 still holds (0, 2); offset 3 holds what rank 4 sent in phase 0,
    // (4, 4 + 3 mod 5) = (4, 2), block 22. Phase 2 (delta 4): offset 4, block (0, 4), to rank 4.
    CHECK(sends_of_rank0(bruck(5, 2)) ==
          std::vector<Send>{{1, 16, {1, 3}}, {2, 16, {2, 22}}, {4, 8, {4}}});
    // p = 10, k = 3: phase 0 digit 1: offsets 1, 4, 7 (to 1), digit 2: 2, 5, 8 (to 2); phase 1
    // (delta 3) digit 1: 3, 4, 5 (to 3), digit 2: 6, 7, 8 (to 6); phase 2 (delta 9): offset 9 only
    // (to 9; digit 2 would start at 18 >= 10).
    std::vector<std::pair<Rank, std::uint64_t>> got;
    for (const Send& s : sends_of_rank0(bruck(10, 3))) got.emplace_back(s.to, s.bytes);
    CHECK(got == std::vector<std::pair<Rank, std::uint64_t>>{
                     {1, 24}, {2, 24}, {3, 24}, {6, 24}, {9, 8}});
    // k = p: one phase, p - 1 single blocks straight to their destinations.
    CHECK(sends_of_rank0(bruck(4, 4)) ==
          std::vector<Send>{{1, 8, {1}}, {2, 8, {2}}, {3, 8, {3}}});
}

TEST_CASE("bruck alltoall: a rotation before the phases and two passes after, on every rank") {
    const Schedule s = bruck(6, 3, Style::mpi, 5);
    std::vector<Rank> permuting;
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::permute) {
            permuting.push_back(s.src[t]);
            CHECK(s.bytes(t) == 30);  // p blocks of 5 B
        }
    CHECK(permuting.size() == 18);
    for (Rank r = 0; r < 6; ++r) {
        CHECK(permuting[r] == r);
        CHECK(permuting[6 + r] == r);
        CHECK(permuting[12 + r] == r);
    }
    // Every send of phase 0 waits for its rank's rotation, task r.
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::transfer && s.deps.row(t).size() == 1 &&
            s.kind[s.deps.row(t)[0]] == TaskKind::permute)
            CHECK(s.deps.row(t)[0] == static_cast<TaskId>(s.src[t]));
}

TEST_CASE("bruck alltoall: every schedule for p = 2..20, every k, every style is proven") {
    for (Rank p = 2; p <= 20; ++p)
        for (int k = 2; k <= p; ++k)
            for (Style style : all_styles)
                for (bool payload : {true, false}) {
                    const GenerateRequest r{Collective::alltoall, "bruck", k, p, 3, payload, style};
                    const Schedule s = generate(r);
                    INFO(fmt::format("p={} k={} style={} payload={}", p, k, to_string(style),
                                     payload));
                    const TaskCounts counts = count_tasks(r);
                    CHECK(counts.transfers == s.transfer_count());
                    CHECK(counts.computes == static_cast<std::uint64_t>(3 * p));
                    CHECK(counts.dependency_ids == s.deps.items.size() + s.sent_deps.items.size());
                    CHECK(counts.payload_ids == s.payload.items.size());
                    CHECK(counts.pieces == s.shape.pieces);
                    if (!payload) continue;
                    const VerifyReport report = verify(s);
                    REQUIRE(report.data_flow_checked);
                    if (!report.ok()) FAIL(report.violation->message);
                }
}

TEST_CASE("bruck alltoall: task counts by hand") {
    // p = 8, k = 2 (p = k^n): 3 phases of one partner, 4 blocks each: 24 transfers of 32 B.
    // mpi ids: phase 0 one each (8), phases 1 and 2 two each (32), the rotation after two and the
    // inversion one (24): 64.
    const TaskCounts c = count_tasks({Collective::alltoall, "bruck", 2, 8, 8, true, Style::mpi});
    CHECK(c.transfers == 24);
    CHECK(c.computes == 24);
    CHECK(c.dependency_ids == 64);
    CHECK(c.payload_ids == 24 * 4);
    CHECK(c.widest_round == 8);
    // Pipelined p = 5, k = 2: phase 1's send (offsets 2, 3) waits for the rotation and phase 0's
    // receive (2 + 1 < 5); phase 2's (offset 4) for the rotation only (4 + 1, 4 + 2 >= 5); the
    // rotation after for 3 receives and 3 sends: 5 (1 + 2 + 1 + 6 + 1) = 55.
    CHECK(count_tasks({Collective::alltoall, "bruck", 2, 5, 8, true, Style::pipelined})
              .dependency_ids == 55);
}

TEST_CASE("bruck alltoall, mpi style, p <= 12: removing a dependency that moves data is rejected") {
    for (Rank p = 2; p <= 12; ++p)
        for (int k = 2; k <= p; ++k) {
            const Schedule s = bruck(p, k, Style::mpi, 3);
            REQUIRE(verify(s).ok());
            std::size_t removals = 0, rejected = 0;
            for (TaskId t = 0; t < s.size(); ++t)
                for (std::size_t i = 0; i < s.deps.row(t).size(); ++i) {
                    ++removals;
                    const VerifyReport r = verify(without_dependency(s, t, i));
                    rejected += r.ok() ? 0 : 1;
                    if (r.violation) CHECK(r.violation->message.rfind("task id=", 0) == 0);
                }
            // By hand: every rank has J_0 sends waiting for the rotation, J_i J_{i-1} waits of
            // phase i's sends on phase i-1's receives, J_last of the rotation after and one of the
            // inversion. Send (i, j) packs the offsets with digit i = j; receive (i-1, j') wrote
            // those with digit i-1 = j'; both exist below p iff j k^i + j' k^(i-1) < p (the
            // smallest such offset). Otherwise the send reads nothing the receive wrote, but the wait still
            // carries data when the send is the phase's only one (J_i = 1): it is then the one
            // path from the receive to the rotation after, which reads every block the rank holds
            // (the rotation waits for the last phase only, and for earlier ones through its sends'
            // sent dependencies). With J_i >= 2 the other sends of the phase keep it: order only
            // (MPICH's MPIC_Waitall). Every other wait carries data: the rotations write every
            // block a rank holds.
            const std::vector<std::int64_t> j = partners(p, k);
            std::size_t expected = static_cast<std::size_t>(j.front() + j.back() + 1);
            std::size_t order = 0;
            std::int64_t delta = k;
            for (std::size_t i = 1; i < j.size(); ++i, delta *= k) {
                expected += static_cast<std::size_t>(j[i] * j[i - 1]);
                for (std::int64_t a = 1; a <= j[i]; ++a)
                    for (std::int64_t b = 1; b <= j[i - 1]; ++b)
                        order += a * delta + b * (delta / k) >= p && j[i] >= 2 ? 1 : 0;
            }
            INFO(fmt::format("p={} k={}", p, k));
            CHECK(removals == expected * static_cast<std::size_t>(p));
            CHECK(rejected == removals - order * static_cast<std::size_t>(p));
        }
    // By hand. p = 7, k = 3: phase 1 (delta 3) has partners 1 and 2; send j = 2 packs offset 6
    // only, which phase 0's receives j' = 1 (offsets 1, 4) and j' = 2 (offsets 2, 5) never wrote:
    // 2 order-only waits per rank, 14 in all. p = 5, k = 2: phase 2 sends offset 4 only, which
    // phase 1's receive (offsets 2, 3) never wrote, but it is the phase's only send: the wait
    // keeps that receive before the rotation after, none is order only. p = 9, k = 3 (a power of
    // k): none.
    for (const auto& [p, k, order] :
         {std::tuple<Rank, int, std::size_t>{7, 3, 14}, {5, 2, 0}, {9, 3, 0}}) {
        const Schedule s = bruck(p, k, Style::mpi, 3);
        std::size_t accepted = 0;
        for (TaskId t = 0; t < s.size(); ++t)
            for (std::size_t i = 0; i < s.deps.row(t).size(); ++i)
                accepted += verify(without_dependency(s, t, i)).ok() ? 1 : 0;
        CHECK(accepted == order);
    }
}

TEST_CASE("bruck alltoall: refusals name the option and the valid choices") {
    CHECK_THROWS_WITH_AS(generate({Collective::reduce_scatter, "bruck", 2, 8, 64, true}),
                         "-c/--collective: bruck runs allgather, alltoall only; for reduce_scatter "
                         "use one of ring, k-ring, pairwise, rh, recexch",
                         InputError);
    CHECK_THROWS_WITH_AS(generate({Collective::alltoall, "bruck", 9, 8, 64, true}),
                         "-k: bruck needs 2 <= k <= p = 8 (got k = 9)", InputError);
    CHECK_THROWS_WITH_AS(generate({Collective::alltoall, "bruck", 1, 8, 64, true}),
                         "-k: bruck needs 2 <= k <= p = 8 (got k = 1)", InputError);
}
