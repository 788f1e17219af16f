// Bcast by scatter + allgather (schedules/src/bcast_scatter*.cpp): MPICH's binomial scatter of
// ceil(n / p)-byte chunks, recursive-doubling allgather with its non-power-of-2 halving, and ring
// allgather (MPIR_Bcast_intra_scatter_recursive_doubling_allgather, _scatter_ring_allgather,
// MPII_Scatter_for_bcast, MPICH v4.1.2) worked by hand; the ceil cut; the data-flow proof for
// every p in 2..20, style, three roots and sizes that leave chunks short or empty; exact task
// counts; the verifier's rejection of every removed dependency that brings data (the order-only
// ones found by hand and by the first-delivery rule); resizing, XML and the one-line refusals.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "piccolo/schedules/task_count.hpp"
#include "piccolo/schedules/verify.hpp"
#include "schedule_edits.hpp"

using namespace piccolo;
using piccolo::test::without_dependency;

namespace {

Schedule bcast(const char* algorithm, Rank p, std::uint64_t bytes, Rank root = 0,
               Style style = Style::mpi, bool payload = true) {
    return generate({Collective::bcast, algorithm, 0, p, bytes, payload, style, root});
}

using Transfer = std::tuple<Rank, Rank, std::vector<std::uint32_t>>;

std::vector<Transfer> transfers(const Schedule& s) {
    std::vector<Transfer> out;
    for (TaskId t = 0; t < s.size(); ++t)
        out.emplace_back(
            s.src[t], s.dst[t],
            std::vector<std::uint32_t>(s.payload.row(t).begin(), s.payload.row(t).end()));
    return out;
}

// Removing dependency i of task t should fail exactly when it names the receive that first
// brought one of the segments t sends to t's rank: that is data, everything else order only
// (a re-delivery of what the rank had, the root's receives, a receive whose segments the send
// does not carry). First = lowest task id into the rank; a rank's tasks are in program order.
bool brings_data(const Schedule& s, TaskId t, TaskId dep) {
    const Rank rank = s.src[t];
    if (rank == s.shape.root || s.dst[dep] != rank) return false;
    for (std::uint32_t segment : s.payload.row(t)) {
        for (TaskId d = 0; d < s.size(); ++d) {
            const auto carried = s.payload.row(d);
            if (s.dst[d] != rank ||
                std::find(carried.begin(), carried.end(), segment) == carried.end())
                continue;
            if (d == dep) return true;
            break;  // an earlier task brought it
        }
    }
    return false;
}

}  // namespace

TEST_CASE("the ceil cut: MPICH's ceil(n / p) chunks, the last short, empty ones left out") {
    // MPII_Scatter_for_bcast's example: 97 bytes on 16 ranks, chunks of 7: 13 full, one of 6,
    // and the last two ranks get nothing.
    CHECK(ceil_cut_bytes(97, 16) == 7);
    CHECK(ceil_cut_pieces(97, 16) == 14);
    CHECK(ceil_cut_pieces(7, 5) == 4);  // 2, 2, 2, 1
    CHECK(ceil_cut_pieces(1, 64) == 1);
    CHECK(ceil_cut_pieces(64, 64) == 64);
    CHECK(ceil_cut_pieces(4033, 64) == 64);  // above p (p - 1) = 4032: always p
    CHECK(ceil_cut_pieces(4032, 64) == 64);  // 64 x 63
    CHECK(ceil_cut_pieces(3969, 64) == 63);  // 63 x 63: chunks of 63, the last rank's empty
    const CollectiveShape shape{Collective::bcast, 5, 7, 4, 0, Cut::ceil};
    std::vector<std::uint64_t> sizes;
    for (std::uint32_t i = 0; i < 4; ++i) sizes.push_back(shape.piece_bytes(i));
    CHECK(sizes == std::vector<std::uint64_t>{2, 2, 2, 1});
    const std::uint32_t three[] = {1, 3};
    CHECK(shape.pieces_bytes(three) == 3);
    CHECK(shape.cuts_at(8));   // 2, 2, 2, 2
    CHECK(!shape.cuts_at(9));  // 2 x 4 + 1: five segments
    CHECK(!shape.cuts_at(5));  // 1 x 5
}

TEST_CASE("scatter-rd: MPICH's scatter, exchanges and halving on 5 ranks, worked by hand") {
    // 10 bytes, chunks of 2. Scatter: masks 4, 2, 1 from the root, then rank 2 to 3. Exchanges:
    // mask 1 pairs (0, 1), (2, 3) (rank 4's partner 5 does not exist); mask 2 (0, 2), (1, 3);
    // mask 4 only (0, 4): the last block [0, 8) has u = 1 rank in its upper half, so rank 0
    // hands chunk 4 to the lower half by halving: 0 -> 2 (tmp_mask 2), 0 -> 1 and 2 -> 3.
    const Schedule s = bcast("scatter-rd", 5, 10);
    using V = std::vector<std::uint32_t>;
    CHECK(transfers(s) == std::vector<Transfer>{{0, 4, V{4}},
                                                {0, 2, V{2, 3}},
                                                {0, 1, V{1}},
                                                {2, 3, V{3}},
                                                {0, 1, V{0}},
                                                {1, 0, V{1}},
                                                {2, 3, V{2}},
                                                {3, 2, V{3}},
                                                {0, 2, V{0, 1}},
                                                {1, 3, V{0, 1}},
                                                {2, 0, V{2, 3}},
                                                {3, 1, V{2, 3}},
                                                {0, 4, V{0, 1, 2, 3}},
                                                {4, 0, V{4}},
                                                {0, 2, V{4}},
                                                {0, 1, V{4}},
                                                {2, 3, V{4}}});
    // mpi: rank 2's last send waits for its mask-2 receive and its halving receive (MPICH's
    // blocking calls, in order) and, sent, for its mask-2 send.
    CHECK(std::vector<TaskId>(s.deps.row(16).begin(), s.deps.row(16).end()) ==
          std::vector<TaskId>{8, 14});
    CHECK(std::vector<TaskId>(s.sent_deps_of(16).begin(), s.sent_deps_of(16).end()) ==
          std::vector<TaskId>{10});
    // p = 8, 8 bytes: no halving; every rank sends 1, 2, 4 chunks in the exchanges.
    const TaskCounts c = count_tasks({Collective::bcast, "scatter-rd", 0, 8, 8});
    CHECK(c.transfers == 7 + 3 * 8);
    CHECK(c.payload_ids == (0 + 1 + 1 + 2 + 1 + 2 + 2 + 3) + 8 * (1 + 2 + 4));
    CHECK(c.widest_round == 8);
    // The 5-rank case: rounds of 1, 1, 2 (scatter), 4, 4, 2 (exchanges), 1, 2 (halving).
    CHECK(count_tasks({Collective::bcast, "scatter-rd", 0, 5, 10}).widest_round == 4);
}

TEST_CASE("scatter-ring: the scatter, then p - 1 ring steps, worked by hand") {
    using V = std::vector<std::uint32_t>;
    // p = 4, 8 bytes: scatter 0 -> 2 {2, 3}, 0 -> 1 {1}, 2 -> 3 {3}; step i: rank x sends chunk
    // x - i + 1 to x + 1.
    CHECK(transfers(bcast("scatter-ring", 4, 8)) == std::vector<Transfer>{{0, 2, V{2, 3}},
                                                                          {0, 1, V{1}},
                                                                          {2, 3, V{3}},
                                                                          {0, 1, V{0}},
                                                                          {1, 2, V{1}},
                                                                          {2, 3, V{2}},
                                                                          {3, 0, V{3}},
                                                                          {0, 1, V{3}},
                                                                          {1, 2, V{0}},
                                                                          {2, 3, V{1}},
                                                                          {3, 0, V{2}},
                                                                          {0, 1, V{2}},
                                                                          {1, 2, V{3}},
                                                                          {2, 3, V{0}},
                                                                          {3, 0, V{1}}});
    // p = 5, 7 bytes from root 2: chunks 2, 2, 2, 1 and none for relative rank 4 (absolute 1):
    // the scatter's send to it and every ring message of its chunk are left out (MPICH sends
    // those with zero bytes). Relative x is absolute (x + 2) mod 5.
    const Schedule s = bcast("scatter-ring", 5, 7, 2);
    CHECK(s.shape.pieces == 4);
    CHECK(s.transfer_count() == 3 + 4 * 4);
    std::vector<std::tuple<Rank, Rank, std::uint64_t>> scatter;
    for (TaskId t = 0; t < 3; ++t) scatter.emplace_back(s.src[t], s.dst[t], s.bytes(t));
    CHECK(scatter ==
          std::vector<std::tuple<Rank, Rank, std::uint64_t>>{{2, 4, 3}, {2, 3, 2}, {4, 0, 1}});
    CHECK(count_tasks({Collective::bcast, "scatter-ring", 0, 5, 7, true, Style::mpi, 2})
              .widest_round == 4);
}

TEST_CASE("scatter-rd and scatter-ring: every schedule for p = 2..20 is proven, counts exact") {
    for (const char* algorithm : {"scatter-rd", "scatter-ring"})
        for (Rank p = 2; p <= 20; ++p)
            for (std::uint64_t bytes : {std::uint64_t{1}, std::uint64_t{7},
                                        static_cast<std::uint64_t>(p * p - 1), std::uint64_t{1000}})
                for (Rank root : {Rank{0}, p / 2, p - 1})
                    for (Style style : all_styles)
                        for (bool payload : {true, false}) {
                            const GenerateRequest r{Collective::bcast, algorithm, 0,   p, bytes,
                                                    payload,           style,     root};
                            const Schedule s = generate(r);
                            INFO(fmt::format("{} p={} bytes={} root={} style={} payload={}",
                                             algorithm, p, bytes, root, to_string(style), payload));
                            const TaskCounts counts = count_tasks(r);
                            CHECK(counts.transfers == s.transfer_count());
                            CHECK(counts.computes == 0);
                            CHECK(counts.dependency_ids ==
                                  s.deps.items.size() + s.sent_deps.items.size());
                            CHECK(counts.payload_ids == s.payload.items.size());
                            CHECK(counts.pieces == s.shape.pieces);
                            CHECK(s.shape.cut == Cut::ceil);
                            std::uint64_t moved = 0;
                            for (TaskId t = 0; t < s.size(); ++t) moved += s.bytes(t);
                            if (!payload) continue;
                            const VerifyReport report = verify(s);
                            REQUIRE(report.data_flow_checked);
                            if (!report.ok()) FAIL(report.violation->message);
                            CHECK(report.bytes_moved == moved);
                        }
}

TEST_CASE("scatter-rd and scatter-ring: the bytes they move, by hand") {
    // p = 2^n, n a multiple of p: each scatter level moves half the buffer (p / 2m subtrees of
    // m chunks at mask m), n lg p / 2 in all; both allgathers bring every rank the n (p - 1) / p
    // bytes it lacks, n (p - 1) in all.
    for (Rank p : {2, 4, 8, 16}) {
        const std::uint64_t n = 64 * static_cast<std::uint64_t>(p);
        std::uint64_t lg = 0;
        while ((Rank{1} << lg) < p) ++lg;
        const auto moved = [&](const char* a) { return verify(bcast(a, p, n)).bytes_moved; };
        CHECK(moved("scatter-rd") == n * lg / 2 + n * static_cast<std::uint64_t>(p - 1));
        CHECK(moved("scatter-ring") == n * lg / 2 + n * static_cast<std::uint64_t>(p - 1));
    }
}

TEST_CASE("scatter-rd and scatter-ring: the styles differ as documented") {
    // p = 4, 8 bytes, ring: rank 2's first ring send waits for its scatter send to rank 3
    // (sent under mpi, delivered under nccl); pipelined, for its scatter receive only, and the
    // root's sends for nothing.
    const Schedule mpi = bcast("scatter-ring", 4, 8, 0, Style::mpi);
    const Schedule nccl = bcast("scatter-ring", 4, 8, 0, Style::nccl);
    const Schedule pipelined = bcast("scatter-ring", 4, 8, 0, Style::pipelined);
    // Task 5 is 2 -> 3 of step 1; task 2 the scatter's 2 -> 3, task 0 the scatter's 0 -> 2.
    CHECK(mpi.deps.row(5).empty());
    CHECK(std::vector<TaskId>(mpi.sent_deps_of(5).begin(), mpi.sent_deps_of(5).end()) ==
          std::vector<TaskId>{2});
    CHECK(std::vector<TaskId>(nccl.deps.row(5).begin(), nccl.deps.row(5).end()) ==
          std::vector<TaskId>{2});
    CHECK(nccl.sent_deps.items.empty());
    CHECK(std::vector<TaskId>(pipelined.deps.row(5).begin(), pipelined.deps.row(5).end()) ==
          std::vector<TaskId>{0});
    for (TaskId t = 0; t < pipelined.size(); ++t)
        if (pipelined.src[t] == 0) CHECK(pipelined.deps.row(t).empty());
    CHECK(pipelined.sent_deps.items.empty());
}

TEST_CASE(
    "scatter-rd and scatter-ring, mpi style, p <= 12: a removed data dependency is rejected") {
    for (const char* algorithm : {"scatter-rd", "scatter-ring"})
        for (Rank p = 2; p <= 12; ++p)
            for (std::uint64_t bytes : {std::uint64_t{7}, static_cast<std::uint64_t>(8 * p)})
                for (Rank root : {Rank{0}, p - 1}) {
                    const Schedule s = bcast(algorithm, p, bytes, root);
                    REQUIRE(verify(s).ok());
                    std::size_t removals = 0, rejected = 0, data = 0;
                    for (TaskId t = 0; t < s.size(); ++t)
                        for (std::size_t i = 0; i < s.deps.row(t).size(); ++i) {
                            ++removals;
                            const bool needed = brings_data(s, t, s.deps.row(t)[i]);
                            data += needed ? 1 : 0;
                            const bool refused = !verify(without_dependency(s, t, i)).ok();
                            rejected += refused ? 1 : 0;
                            INFO(fmt::format("{} p={} bytes={} root={} task {} dependency {}",
                                             algorithm, p, bytes, root, t, i));
                            CHECK(refused == needed);
                        }
                    INFO(fmt::format("{} p={} bytes={} root={}", algorithm, p, bytes, root));
                    CHECK(rejected == data);
                    if (std::string_view(algorithm) != "scatter-ring" ||
                        bytes != static_cast<std::uint64_t>(8 * p))
                        continue;
                    // By hand, the ring with q = p chunks: a non-root rank's first send waits
                    // for its scatter receive (p - 1: its first scatter send, or its first ring
                    // send when it has no scatter child), every send of steps 2..p-1 for the
                    // receive of the step before (p (p - 2)). Order only: the root forwards
                    // chunks it started with (p - 2 of them), and rank x the chunks x + 2 .. of
                    // its scatter subtree, received again at the end of the ring:
                    // max(0, min(x + lowbit x, p) - x - 2).
                    std::size_t again = static_cast<std::size_t>(p - 2);
                    for (Rank x = 1; x < p; ++x)
                        again += static_cast<std::size_t>(
                            std::max(0, std::min(x + (x & -x), p) - x - 2));
                    CHECK(removals == static_cast<std::size_t>((p - 1) + p * (p - 2)));
                    CHECK(removals - rejected == again);
                }
}

TEST_CASE("scatter-rd, mpi style: the order-only dependencies of 5 ranks, by hand") {
    // The 5-rank, 10-byte schedule above: 12 delivered dependencies. Data: tasks 3, 5, 7 and 13
    // (the first sends of ranks 2, 1, 3 and 4) on their scatter receive, 9 (rank 1's mask-2 send)
    // on 4, which brought chunk 0, 11 (rank 3's) on 6, chunk 2, and 16 on 14, the halving's
    // chunk 4. Order only: the root's sends 8, 12 and 14 on receives of chunks it has, 10 on 7
    // (rank 2 got chunk 3 in the scatter already) and 16 on 8 (rank 2's mask-2 receive, before
    // its halving receive).
    const Schedule s = bcast("scatter-rd", 5, 10);
    std::size_t removals = 0, rejected = 0;
    for (TaskId t = 0; t < s.size(); ++t)
        for (std::size_t i = 0; i < s.deps.row(t).size(); ++i) {
            ++removals;
            rejected += verify(without_dependency(s, t, i)).ok() ? 0 : 1;
        }
    CHECK(removals == 12);
    CHECK(rejected == 7);
}

TEST_CASE("scatter-rd and scatter-ring: resized where the cut keeps its segments") {
    const Schedule s = bcast("scatter-ring", 6, 600);
    // 6 segments at every size above 6 x 5 and at every multiple of 6.
    const Schedule big = with_message_size(s, 1 << 20);
    CHECK(verify(big).ok());
    CHECK(big.shape.bytes == std::uint64_t{1} << 20);
    const Schedule direct = bcast("scatter-ring", 6, 1 << 20);
    CHECK(big.size_class == direct.size_class);
    CHECK(big.size_values == direct.size_values);
    CHECK_THROWS_WITH_AS(with_message_size(s, 8),
                         "a 8-byte buffer cut as MPICH's scatter over 6 ranks has 4 segments "
                         "that hold bytes, not the schedule's 6; generate the schedule at that "
                         "size",
                         InputError);
}

TEST_CASE("scatter-rd and scatter-ring: the ceil cut survives XML, and is checked") {
    const Schedule s = bcast("scatter-rd", 6, 7, 4);
    const std::string xml = schedule_to_xml(s);
    CHECK(xml.find(" segments=\"4\" cut=\"ceil\" root=\"4\"") != std::string::npos);
    const Schedule back = parse_schedule_xml(xml, "t.xml").schedule;
    CHECK(back.shape.cut == Cut::ceil);
    CHECK(back.shape.pieces == 4);
    CHECK(schedule_to_xml(back) == xml);
    CHECK(verify(back).ok());
    std::string odd = xml;
    odd.replace(odd.find("cut=\"ceil\""), 10, "cut=\"half\"");
    CHECK_THROWS_WITH_AS(parse_schedule_xml(odd, "t.xml"),
                         "t.xml:1: cut: \"half\" is not a cut (even or ceil)", InputError);
    std::string wrong = xml;
    wrong.replace(wrong.find("segments=\"4\""), 12, "segments=\"6\"");
    CHECK_THROWS_WITH_AS(parse_schedule_xml(wrong, "t.xml"),
                         "t.xml:1: segments: a ceil cut of 7 bytes over 6 nodes has 4 segments "
                         "that hold bytes (got segments=\"6\")",
                         InputError);
}

TEST_CASE("scatter-rd and scatter-ring: refusals are one line naming the option") {
    CHECK_THROWS_WITH_AS(generate({Collective::allgather, "scatter-ring", 0, 8, 64}),
                         "-c/--collective: scatter-ring does not build allgather; for allgather "
                         "use one of ring, k-ring, rd, rm, prd, prm, bruck",
                         InputError);
    CHECK_THROWS_WITH_AS(generate({Collective::bcast, "scatter-rd", 0, 5, 8, true, Style::mpi, 5}),
                         "--root: rank 5 is not one of the p = 5 ranks (use 0..4)", InputError);
    // q - 1 + q (p - 1) transfers, p^2 - 1 when q = p: past what a schedule holds above 65,536.
    CHECK_THROWS_WITH_AS(generate({Collective::bcast, "scatter-ring", 0, 65537, 65537, false}),
                         "-p/--ranks: bcast scatter-ring with p = 65537 needs 4.3e+09 tasks; a "
                         "schedule holds at most 2^32 - 1 (use fewer ranks)",
                         InputError);
}
