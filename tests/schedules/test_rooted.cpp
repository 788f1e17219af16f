// The rooted collectives over k-nomial trees (schedules/src/bcast_knomial.cpp,
// reduce_knomial.cpp): their trees worked by hand (MPICH's binomial trees for k = 2,
// MPIR_Bcast_intra_binomial and MPIR_Reduce_intra_binomial, MPICH v4.1.2), the data-flow proof
// for every p in 2..20, k, style and three roots, exact task counts, the verifier's rejection of
// any removed dependency, and the one-line refusals.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <utility>
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

using Edges = std::vector<std::pair<Rank, Rank>>;

Schedule rooted(Collective c, const char* algorithm, Rank p, int k, Rank root,
                Style style = Style::mpi) {
    return generate({c, algorithm, k, p, 24, true, style, root});
}

// The transfers as (src, dst), in task order.
Edges edges(const Schedule& s) {
    Edges out;
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::transfer) out.emplace_back(s.src[t], s.dst[t]);
    return out;
}

}  // namespace

TEST_CASE("bcast trees: MPICH's binomial order and the k-nomial tree, worked by hand") {
    // p = 5, binomial: masks 4, 2, 1 from the root (MPICH sends the highest mask first); rank 2
    // got the buffer at mask 2 and sends at mask 1.
    CHECK(edges(rooted(Collective::bcast, "binomial", 5, 0, 0)) ==
          Edges{{0, 4}, {0, 2}, {0, 1}, {2, 3}});
    // Root 2: relative rank x is rank (x + 2) mod 5.
    CHECK(edges(rooted(Collective::bcast, "binomial", 5, 0, 2)) ==
          Edges{{2, 1}, {2, 4}, {2, 3}, {4, 0}});
    // p = 10, k = 3: 9 = 100 in base 3, three levels of spacing 9, 3, 1.
    CHECK(edges(rooted(Collective::bcast, "knomial", 10, 3, 0)) ==
          Edges{{0, 9}, {0, 3}, {0, 6}, {0, 1}, {0, 2}, {3, 4}, {3, 5}, {6, 7}, {6, 8}});
    // k = p: the root sends to everyone in one round.
    CHECK(edges(rooted(Collective::bcast, "knomial", 4, 4, 1)) == Edges{{1, 2}, {1, 3}, {1, 0}});
}

TEST_CASE("reduce trees: the bcast tree backwards, nearest children first, a reduce each") {
    // p = 10, k = 3: spacing 1 (children of 0, 3, 6), 3 (of 0), 9 (of 0).
    const Schedule s = rooted(Collective::reduce, "knomial", 10, 3, 0);
    CHECK(edges(s) ==
          Edges{{1, 0}, {2, 0}, {4, 3}, {5, 3}, {7, 6}, {8, 6}, {3, 0}, {6, 0}, {9, 0}});
    std::vector<Rank> reducers;
    for (TaskId t = 0; t < s.size(); ++t)
        if (s.kind[t] == TaskKind::reduce) {
            reducers.push_back(s.src[t]);
            CHECK(s.bytes(t) == 24);  // the whole buffer, every time
        }
    CHECK(reducers == std::vector<Rank>{0, 0, 3, 3, 6, 6, 0, 0, 0});
    // MPICH's binomial reduce, p = 6, root 4: relative 1 -> 0, 3 -> 2, 5 -> 4 (mask 1), 2 -> 0
    // (mask 2), 4 -> 0 (mask 4); absolute = relative + 4 mod 6.
    CHECK(edges(rooted(Collective::reduce, "binomial", 6, 0, 4)) ==
          Edges{{5, 4}, {1, 0}, {3, 2}, {0, 4}, {2, 4}});
}

TEST_CASE("rooted trees: every schedule for p = 2..20, every k, style and three roots is proven") {
    for (Collective c : {Collective::bcast, Collective::reduce})
        for (Rank p = 2; p <= 20; ++p)
            for (int k = 2; k <= p; ++k)
                for (Rank root : {Rank{0}, p / 2, p - 1})
                    for (Style style : all_styles) {
                        const GenerateRequest r{c, "knomial", k, p, 5, true, style, root};
                        const Schedule s = generate(r);
                        INFO(fmt::format("{} p={} k={} root={} style={}", to_string(c), p, k, root,
                                         to_string(style)));
                        const TaskCounts counts = count_tasks(r);
                        CHECK(counts.transfers == s.transfer_count());
                        CHECK(s.transfer_count() == static_cast<std::size_t>(p - 1));
                        CHECK(counts.computes == s.size() - s.transfer_count());
                        CHECK(counts.dependency_ids >=
                              s.deps.items.size() + s.sent_deps.items.size());
                        CHECK(counts.payload_ids == s.payload.items.size());
                        const VerifyReport report = verify(s);
                        REQUIRE(report.data_flow_checked);
                        if (!report.ok()) FAIL(report.violation->message);
                    }
}

TEST_CASE("rooted trees: the widest round, by hand") {
    // p = 10, k = 3: bcast rounds of 1, 2 and 6 transfers; reduce the same backwards.
    CHECK(count_tasks({Collective::bcast, "knomial", 3, 10, 8}).widest_round == 6);
    CHECK(count_tasks({Collective::reduce, "knomial", 3, 10, 8}).widest_round == 6);
    // p = 8, binomial: 1, 2, 4.
    CHECK(count_tasks({Collective::bcast, "binomial", 0, 8, 8}).widest_round == 4);
}

TEST_CASE("rooted trees: the styles differ as documented") {
    // Bcast, p = 8, binomial: the root's three sends wait for each other: sent (mpi),
    // delivered (nccl), not at all (pipelined, MPICH's MPIR_Bcast_intra_tree).
    const Schedule mpi = rooted(Collective::bcast, "binomial", 8, 0, 0, Style::mpi);
    const Schedule nccl = rooted(Collective::bcast, "binomial", 8, 0, 0, Style::nccl);
    const Schedule pipelined = rooted(Collective::bcast, "binomial", 8, 0, 0, Style::pipelined);
    // Tree: 0 -> 4, 2, 1; 4 -> 6, 5; 2 -> 3; 6 -> 7. The first sends of ranks 4, 2 and 6 wait
    // for their receive; a later round waits for an earlier one on 0 (twice) and on 4 (once),
    // and so for the receive. Pipelined, each of the four sends of 4, 2 and 6 waits for it.
    CHECK(mpi.deps.items.size() == 3);
    CHECK(mpi.sent_deps.items.size() == 3);
    CHECK(nccl.sent_deps.items.empty());
    CHECK(nccl.deps.items.size() == 3 + 3);
    CHECK(pipelined.deps.items.size() == 4);
    CHECK(pipelined.sent_deps.items.empty());
    // Reduce: a rank sends once, so the styles build one DAG.
    const Schedule a = rooted(Collective::reduce, "knomial", 11, 3, 2, Style::mpi);
    const Schedule b = rooted(Collective::reduce, "knomial", 11, 3, 2, Style::pipelined);
    CHECK(a.deps.items == b.deps.items);
    CHECK(a.deps.offsets == b.deps.offsets);
}

TEST_CASE("rooted trees, mpi style, p <= 12: removing any dependency is rejected") {
    for (Collective c : {Collective::bcast, Collective::reduce})
        for (Rank p = 2; p <= 12; ++p)
            for (int k = 2; k <= p; ++k)
                for (Rank root : {Rank{0}, p - 1}) {
                    const Schedule s = rooted(c, "knomial", p, k, root);
                    REQUIRE(verify(s).ok());
                    std::size_t removals = 0;
                    for (TaskId t = 0; t < s.size(); ++t)
                        for (std::size_t i = 0; i < s.deps.row(t).size(); ++i) {
                            const VerifyReport r = verify(without_dependency(s, t, i));
                            INFO(fmt::format("{} p={} k={} root={} task {} dependency {}",
                                             to_string(c), p, k, root, t, i));
                            CHECK(!r.ok());
                            ++removals;
                        }
                    // Bcast: the receive, for each send of a non-root rank's first round (the
                    // later rounds wait for it through their sent dependencies). Reduce: a
                    // send waits for its rank's last reduce (R - 1 ranks that reduce and
                    // send), a reduce for its operand (p - 1) and its rank's previous reduce
                    // (p - 1 - R): 2p - 3 in all.
                    std::size_t senders = 0;  // sends of a non-root rank's first round
                    for (TaskId t = 0; t < s.size(); ++t)
                        senders += s.kind[t] == TaskKind::transfer && s.src[t] != root &&
                                           s.sent_deps_of(t).empty()
                                       ? 1
                                       : 0;
                    INFO(fmt::format("{} p={} k={} root={}", to_string(c), p, k, root));
                    CHECK(removals ==
                          (c == Collective::bcast ? senders : static_cast<std::size_t>(2 * p - 3)));
                }
}

TEST_CASE("the verifier: a Bcast from the wrong root, a Reduce to the wrong root") {
    Schedule bcast = rooted(Collective::bcast, "binomial", 4, 0, 0);
    bcast.shape.root = 1;  // rank 0 no longer holds the buffer it sends
    VerifyReport r = verify(bcast);
    REQUIRE(r.violation);
    CHECK(r.violation->message ==
          "task id=0 (transfer 0->2): rank 0 does not hold segment 0: no task ever delivers it "
          "there");
    Schedule reduce = rooted(Collective::reduce, "binomial", 4, 0, 0);
    reduce.shape.root = 2;  // rank 2 sends its partial sum away and ends with {2, 3}
    r = verify(reduce);
    REQUIRE(r.violation);
    CHECK(r.violation->message ==
          "incomplete reduce: rank 2 ends with segment 0 lacking the contributions of ranks 0,1");
}

TEST_CASE("rooted schedules: the root survives XML") {
    const Schedule s = rooted(Collective::reduce, "knomial", 6, 3, 4);
    const std::string xml = schedule_to_xml(s);
    CHECK(xml.find("name=\"reduce\"") != std::string::npos);
    CHECK(xml.find(" root=\"4\"") != std::string::npos);
    const Schedule back = parse_schedule_xml(xml, "test").schedule;
    CHECK(back.shape.root == 4);
    CHECK(back.shape.collective == Collective::reduce);
    CHECK(schedule_to_xml(back) == xml);
    CHECK(verify(back).ok());
}

TEST_CASE("rooted collectives: bad requests are one line naming the option") {
    CHECK_THROWS_WITH_AS(generate({Collective::bcast, "knomial", 2, 5, 8, true, Style::mpi, 5}),
                         "--root: rank 5 is not one of the p = 5 ranks (use 0..4)", InputError);
    CHECK_THROWS_WITH_AS(generate({Collective::reduce, "binomial", 0, 5, 8, true, Style::mpi, -1}),
                         "--root: rank -1 is not one of the p = 5 ranks (use 0..4)", InputError);
    CHECK_THROWS_WITH_AS(generate({Collective::bcast, "ring", 0, 5, 8}),
                         "-c/--collective: ring does not build bcast; for bcast use one of "
                         "knomial, binomial, scatter-rd, scatter-ring",
                         InputError);
    CHECK_THROWS_WITH_AS(generate({Collective::allgather, "knomial", 2, 5, 8}),
                         "-c/--collective: knomial does not build allgather; for allgather use "
                         "one of ring, k-ring, rd, rm, prd, prm, bruck",
                         InputError);
    CHECK_THROWS_WITH_AS(generate({Collective::reduce, "knomial", 6, 5, 8}),
                         "-k: knomial needs 2 <= k <= p = 5 (got k = 6)", InputError);
}
