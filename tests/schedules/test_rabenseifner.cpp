// Reduce as reduce-scatter + gather (schedules/src/reduce_rabenseifner.cpp): MPICH's fold-in,
// halving with distance doubling and binomial gather (MPIR_Reduce_intra_reduce_scatter_gather,
// MPICH v4.1.2) worked by hand for three roots, the data-flow proof for every p in 2..20, every
// style and four roots, exact task counts, the verifier's rejection of every removed dependency
// that moves data (the order-only ones counted by hand), and the one-line refusals.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
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

GenerateRequest request(Rank p, std::uint64_t bytes, Rank root, Style style = Style::mpi,
                        bool payload = true) {
    return {Collective::reduce, "rabenseifner", 0, p, bytes, payload, style, root};
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

// (src, dst, segments, bytes) of every transfer, in task order.
using Transfer = std::tuple<Rank, Rank, std::vector<std::uint32_t>, std::uint64_t>;
std::vector<Transfer> transfers(const Schedule& s) {
    std::vector<Transfer> out;
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::transfer)
            out.emplace_back(s.src[t], s.dst[t],
                             std::vector<std::uint32_t>(s.payload.row(t).begin(),
                                                        s.payload.row(t).end()),
                             s.bytes(t));
    return out;
}

}  // namespace

TEST_CASE("rabenseifner: MPICH's fold-in, halving and gather, worked by hand") {
    // p = 5, 7 bytes: P = 4 segments of 2, 2, 2, 1 bytes (MPICH's cnts: count / P, the first
    // count % P one more), rem = 1. Rank 1 sends its 7 bytes to rank 0 (odd into even); new ranks
    // 0..3 are ranks 0, 2, 3, 4. Mask 1: rank 0 keeps segments 0, 1 and sends 2, 3 to rank 2, which
    // sends 0, 1 back; ranks 3 and 4 likewise. Mask 2: rank 0 sends segment 1 to rank 3 and keeps 0,
    // rank 3 sends 0 and keeps 1; rank 2 sends 3 to rank 4 and keeps 2, rank 4 sends 2 and keeps
    // 3 (new rank x ends with segment x bit-reversed). Gather to root 0 (new rank 0): mask 2, the
    // half without the root sends (rank 3 segment 1 to rank 0, rank 4 segment 3 to rank 2); mask 1,
    // rank 2 sends segments 2, 3.
    const std::vector<Transfer> head{{1, 0, {0, 1, 2, 3}, 7}, {0, 2, {2, 3}, 3},
                                     {2, 0, {0, 1}, 4},       {3, 4, {2, 3}, 3},
                                     {4, 3, {0, 1}, 4},       {0, 3, {1}, 2},
                                     {2, 4, {3}, 1},          {3, 0, {0}, 2},
                                     {4, 2, {2}, 2}};
    auto with = [&](std::vector<Transfer> tail) {
        std::vector<Transfer> all = head;
        all.insert(all.end(), tail.begin(), tail.end());
        return all;
    };
    CHECK(transfers(generate(request(5, 7, 0))) ==
          with({{3, 0, {1}, 2}, {4, 2, {3}, 1}, {2, 0, {2, 3}, 3}}));
    // Root 3 (new rank 2): at mask 2 ranks 0 and 2 send (segments 0 and 2), at mask 1 rank 4
    // (holding 2, 3) sends to rank 3 (holding 0, 1).
    CHECK(transfers(generate(request(5, 7, 3))) ==
          with({{0, 3, {0}, 2}, {2, 4, {2}, 2}, {4, 3, {2, 3}, 3}}));
    // Root 1 sat out (odd, below 2 rem): rank 0 sends it segment 0 and it takes new rank 0's place.
    CHECK(transfers(generate(request(5, 7, 1))) ==
          with({{0, 1, {0}, 2}, {3, 1, {1}, 2}, {4, 2, {3}, 1}, {2, 1, {2, 3}, 3}}));
    // The reduces of p = 5, root 0: the fold-in's of the whole buffer, then the segments received.
    std::vector<std::pair<Rank, std::vector<std::uint32_t>>> reduces;
    const Schedule s = generate(request(5, 7, 0));
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::reduce)
            reduces.emplace_back(s.src[t], std::vector<std::uint32_t>(s.payload.row(t).begin(),
                                                                      s.payload.row(t).end()));
    CHECK(reduces == std::vector<std::pair<Rank, std::vector<std::uint32_t>>>{
                         {0, {0, 1, 2, 3}}, {0, {0, 1}}, {2, {2, 3}}, {3, {0, 1}},
                         {4, {2, 3}},       {0, {0}},    {2, {2}},    {3, {1}},
                         {4, {3}}});
    CHECK(s.shape.pieces == 4);
}

TEST_CASE("rabenseifner: every schedule for p = 2..20, style and root is proven, counts exact") {
    for (Rank p = 2; p <= 20; ++p) {
        const auto [core, n, rem] = factoring(p);
        for (Rank root : {Rank{0}, Rank{1}, p / 2, p - 1})
            for (Style style : all_styles)
                for (bool payload : {true, false})
                    for (std::uint64_t bytes : {std::uint64_t{7}, 7 * core + 3}) {
                        const GenerateRequest r = request(p, bytes, root, style, payload);
                        INFO(fmt::format("p={} root={} style={} payload={} bytes={}", p, root,
                                         to_string(style), payload, bytes));
                        if (bytes < core) {  // MPICH's count >= pof2
                            CHECK_THROWS_AS(generate(r), InputError);
                            continue;
                        }
                        const Schedule s = generate(r);
                        const TaskCounts counts = count_tasks(r);
                        CHECK(counts.transfers == s.transfer_count());
                        CHECK(counts.computes == s.size() - s.transfer_count());
                        CHECK(counts.dependency_ids ==
                              s.deps.items.size() + s.sent_deps.items.size());
                        CHECK(counts.payload_ids == s.payload.items.size());
                        CHECK(counts.pieces == s.shape.pieces);
                        if (!payload) continue;
                        const VerifyReport report = verify(s);
                        REQUIRE(report.data_flow_checked);
                        if (!report.ok()) FAIL(report.violation->message);
                    }
    }
    // By hand, p = 6 (P = 4, n = 2, rem = 2), root 3 (odd, below 2 rem: one more transfer), mpi:
    // 2 + 8 + 1 + 3 transfers, 2 + 8 reduces. Ids: fold-in reduces 2, first-step sends 2,
    // second-step sends 4 x 2, reduces 8 x 2 + 2 + 4, rank 0's send of segment 0 to the root 1,
    // gather: mask 2's two senders 1 each, mask 1's sender 2.
    const TaskCounts c = count_tasks(request(6, 64, 3));
    CHECK(c.transfers == 14);
    CHECK(c.computes == 10);
    CHECK(c.dependency_ids == 2 + 2 + 8 + 16 + 6 + 1 + 4);
    // Payload: fold-in 2 x (4 + 4), steps 4 x (2 + 2) + 4 x (1 + 1), segment 0, gather 2 x 1 + 2.
    CHECK(c.payload_ids == 16 + 24 + 1 + 4);
    CHECK(c.widest_round == 4);
    CHECK(count_tasks(request(6, 64, 2)).transfers == 13);
}

TEST_CASE("rabenseifner, mpi style, p <= 12: removing a dependency that moves data is rejected") {
    for (Rank p = 2; p <= 12; ++p)
        for (Rank root : {Rank{0}, Rank{1}, p - 1}) {
            const Schedule s = generate(request(p, 64, root));
            REQUIRE(verify(s).ok());
            std::size_t removals = 0, rejected = 0;
            for (TaskId t = 0; t < s.size(); ++t)
                for (std::size_t i = 0; i < s.deps.row(t).size(); ++i) {
                    ++removals;
                    rejected += verify(without_dependency(s, t, i)).ok() ? 0 : 1;
                }
            // By hand: the fold-in's reduces wait for their operand (rem), the steps' sends for
            // the previous reduce (rem + P (n - 1)), the reduces for their operand (P n): data.
            // A step's reduce also waits for the previous reduce (rem + P (n - 1)), which its own
            // send's sent dependency reaches: order only. A root that sat out gets segment 0 after
            // rank 0's last reduce (1), and every gather send waits for its last reduce and each
            // receive it forwards (2 P - n - 2): data.
            const auto [core, n, rem] = factoring(p);
            const std::size_t handover = root < static_cast<Rank>(2 * rem) && root % 2 != 0;
            INFO(fmt::format("p={} root={}", p, root));
            CHECK(removals == 3 * rem + 2 * core * (n - 1) + core * n + handover +
                                  (2 * core - n - 2));
            CHECK(rejected == removals - (rem + core * (n - 1)));
        }
}

TEST_CASE("rabenseifner: refusals name the option and the valid choices") {
    // 1 byte: fewer bytes than segments at every p >= 2 (MPICH asserts count >= pof2).
    CHECK_THROWS_WITH_AS(generate(request(2, 1, 0)),
                         "--bytes: rabenseifner cuts the buffer into 2^floor(log2 p) = 2 segments, "
                         "so it needs at least 2 bytes at p = 2 (got 1; MPICH's restriction "
                         "size-ge-pof2); use knomial or binomial for smaller buffers",
                         InputError);
    CHECK_THROWS_AS(generate(request(12, 7, 0)), InputError);  // 8 segments
    CHECK_NOTHROW(generate(request(7, 7, 0)));                 // 4 segments
    CHECK_THROWS_WITH_AS(generate(request(8, 64, 8)),
                         "--root: rank 8 is not one of the p = 8 ranks (use 0..7)", InputError);
    CHECK_THROWS_WITH_AS(generate(request(8, 64, -1)),
                         "--root: rank -1 is not one of the p = 8 ranks (use 0..7)", InputError);
    CHECK_THROWS_WITH_AS(generate({Collective::allreduce, "rabenseifner", 0, 8, 64, true}),
                         "-c/--collective: rabenseifner does not build allreduce; for allreduce "
                         "use one of ring, k-ring, rd, rm, prd, prm",
                         InputError);
    CHECK_THROWS_WITH_AS(generate({Collective::reduce, "rh", 0, 8, 64, true}),
                         "-c/--collective: rh does not build reduce; for reduce use one of "
                         "knomial, binomial, rabenseifner",
                         InputError);
}
