// The makespan lower bound: hand-computed values of each part (dependency chain, send slots,
// receive slots, lanes, processor), and never above the engine's makespan over the generator
// grid on machines that exercise every model (slots, lanes, fair sharing with capacities, cpu
// overheads with rendezvous, no contention).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <limits>

#include "grid_machines.hpp"
#include "hand_cases.hpp"
#include "piccolo/engine/lower_bound.hpp"
#include "piccolo/engine/server_counts.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

namespace {

MakespanBound bound(const Schedule& s, const Machine& m, int nodes, int ppn,
                    bool contention = true) {
    SimOptions options;
    options.contention = contention;
    return makespan_lower_bound(s, m, RankLayout(m, nodes, ppn), options);
}

}  // namespace

TEST_CASE("bound: a chain of three messages is its dependency chain, exactly the makespan") {
    // Each 3-byte message: o_s 1 + (m-1)G 2 + L 1 + o_r 1 = 5 after its predecessor.
    const Machine m = hand::machine(1, std::nullopt, std::nullopt);
    const Schedule s = hand::schedule(4, {{0, 1, 3, "-1"}, {1, 2, 3, "0"}, {2, 3, 3, "1"}});
    const MakespanBound b = bound(s, m, 4, 1);
    CHECK(b.seconds == 15);
    CHECK(b.limit == "the dependency chain");
    CHECK(hand::run(s, m, 4, 1).makespan == 15);
}

TEST_CASE("bound: the chain is left out where the servers prove less than chain_from") {
    // Device radix 1: the three 3-byte messages of the chain above hold three slots, 3 each
    // (o_s + (m-1)G), rank 1's send slot once, and so on: each rank's slots prove 3, the chain 15.
    const Machine m = hand::machine(1, 1, std::nullopt);
    const Schedule s = hand::schedule(4, {{0, 1, 3, "-1"}, {1, 2, 3, "0"}, {2, 3, 3, "1"}});
    const RankLayout layout(m, 4, 1);
    const double all = std::numeric_limits<double>::infinity();
    const MakespanBound both = makespan_lower_bound(s, m, layout, {}, all, 0);
    CHECK(both.seconds == 15);
    CHECK(both.servers == 3);  // each part on its own, for the selector's choice of chains
    CHECK(both.chain == 15);
    CHECK(makespan_lower_bound(s, m, layout, {}, all, 3).seconds == 15);  // 3 is not below 3
    const MakespanBound servers = makespan_lower_bound(s, m, layout, {}, all, 3.5);
    CHECK(servers.seconds == 3);
    CHECK(servers.limit != "the dependency chain");
    CHECK(servers.servers == 3);
    CHECK(servers.chain == 0);  // not computed
}

TEST_CASE("bound: one rank's own chain, where it proves enough, spares the whole chain") {
    // 3-byte messages, 5 each after what they wait for. Rank 0 runs the most tasks: 0, 4 and 5,
    // a chain of its own to 15. The whole chain runs through ranks 1, 2 and 3 to 20.
    const Machine m = hand::machine(1, std::nullopt, std::nullopt);
    const Schedule s = hand::schedule(4, {{0, 1, 3, "-1"},
                                          {1, 2, 3, "0"},
                                          {2, 3, 3, "1"},
                                          {3, 0, 3, "2"},
                                          {0, 2, 3, "0"},
                                          {0, 3, 3, "4"}});
    const RankLayout layout(m, 4, 1);
    const MakespanBound proven = makespan_lower_bound(s, m, layout, {}, 12, 0);
    CHECK(proven.chain == 15);  // above 12: the whole chain is not computed
    CHECK(proven.seconds == 15);
    CHECK(proven.servers == 0);                                        // nor the servers' pass
    CHECK(makespan_lower_bound(s, m, layout, {}, 15, 0).chain == 20);  // 15 is not above 15
    CHECK(bound(s, m, 4, 1).chain == 20);
    CHECK(hand::run(s, m, 4, 1).makespan == 20);
}

TEST_CASE("bound: a file whose dependencies point to later ids gives the same chain") {
    // Task 0 waits for task 1: 5 + 5.
    const Machine m = hand::machine(1, std::nullopt, std::nullopt);
    const Schedule s = hand::schedule(4, {{0, 1, 3, "1"}, {2, 3, 3, "-1"}});
    CHECK(bound(s, m, 4, 1).seconds == 10);
    CHECK(hand::run(s, m, 4, 1).makespan == 10);
}

TEST_CASE("bound: four sends from one slot add up their o_s + (m-1)G") {
    // Device radix 1, g = 0: each send holds the slot 1 + 2 = 3; the last delivery is at 14.
    const Machine m = hand::machine(1, 1, std::nullopt);
    const Schedule s = hand::concurrent(5, {{0, 1}, {0, 2}, {0, 3}, {0, 4}}, 3);
    const MakespanBound b = bound(s, m, 5, 1);
    CHECK(b.seconds == 12);
    CHECK(b.limit == "rank 0's send slots");
    CHECK(hand::run(s, m, 5, 1).makespan == 14);
}

TEST_CASE("bound: a round waits for the previous round's sends queued on the rank's slot") {
    // Device radix 1, g = 0: rank 0's three sends hold the slot 3 each and deliver 2 after their
    // hold ends, the last at 9 + 2 = 11; the send that waits for all three delivers 5 later.
    // The chain alone gives 10, the slot's sum 12.
    const Machine m = hand::machine(1, 1, std::nullopt);
    const Schedule s =
        hand::schedule(5, {{0, 1, 3, "-1"}, {0, 2, 3, "-1"}, {0, 3, 3, "-1"}, {0, 4, 3, "0,1,2"}});
    const MakespanBound b = bound(s, m, 5, 1);
    CHECK(b.seconds == 16);
    CHECK(b.limit == "the dependency chain");
    CHECK(hand::run(s, m, 5, 1).makespan == 16);
}

TEST_CASE("bound: a task waits for the receives queued on its rank's receive slot") {
    // Ranks 1, 2, 3 each send rank 0 three bytes at once; rank 0's one receive slot takes them
    // one after another from their landing at o_s + L = 2, W + o_r = 3 each: delivered at 5, 8
    // and 11. Rank 0 then sends to rank 4: delivered 5 later.
    const Machine m = hand::machine(1, 1, std::nullopt);
    const Schedule s =
        hand::schedule(5, {{1, 0, 3, "-1"}, {2, 0, 3, "-1"}, {3, 0, 3, "-1"}, {0, 4, 3, "0,1,2"}});
    CHECK(bound(s, m, 5, 1).seconds == 16);
    CHECK(hand::run(s, m, 5, 1).makespan == 16);
}

TEST_CASE("bound: two messages on one side of a rank's slots already queue") {
    // As the two cases above with two messages: the second ends its hold at 6 and is delivered
    // at 8, so the send that waits for both is delivered at 13 (the chain alone: 10).
    const Machine m = hand::machine(1, 1, std::nullopt);
    const Schedule sends = hand::schedule(4, {{0, 1, 3, "-1"}, {0, 2, 3, "-1"}, {0, 3, 3, "0,1"}});
    CHECK(bound(sends, m, 4, 1).seconds == 13);
    CHECK(hand::run(sends, m, 4, 1).makespan == 13);
    const Schedule receives =
        hand::schedule(4, {{1, 0, 3, "-1"}, {2, 0, 3, "-1"}, {0, 3, 3, "0,1"}});
    CHECK(bound(receives, m, 4, 1).seconds == 13);
    CHECK(hand::run(receives, m, 4, 1).makespan == 13);
}

TEST_CASE("bound: a send slot's gap past the delivery is taken off") {
    // g = 10 > o_s + L + o_r = 3: each send holds its slot max(o_s, g) + W = 12, and the last
    // frees 10 - 1 - 1 - 1 = 7 after its delivery: (2 x 12) / 1 - 7 = 17.
    const Machine m = hand::machine(1, 1, std::nullopt, LogGP{1, 1, 1, 10, 1});
    const Schedule s = hand::concurrent(3, {{0, 1}, {0, 2}}, 3);
    CHECK(bound(s, m, 3, 1).seconds == 17);
    CHECK(hand::run(s, m, 3, 1).makespan == 17);  // the second send starts at 12
}

TEST_CASE("bound: an incast of three adds up (m-1)G + o_r at the receive slot") {
    const Machine m = hand::machine(1, 1, 1);
    const Schedule s = hand::concurrent(4, {{0, 3}, {1, 3}, {2, 3}}, 3);
    const MakespanBound b = bound(s, m, 4, 1);
    CHECK(b.seconds == 9);  // ingress lanes: 3 x max(g, W) = 6
    CHECK(b.limit == "rank 3's receive slots");
    CHECK(hand::run(s, m, 4, 1).makespan >= 9);
}

TEST_CASE("bound: a node's one NIC carries its ranks' messages one after another") {
    // Four ranks of node 0 send off the node; no slot limit; each message holds the egress lane
    // max(g, W) = 2.
    const Machine m = hand::machine(4, std::nullopt, 1);
    const Schedule s = hand::concurrent(8, {{0, 4}, {1, 5}, {2, 6}, {3, 7}}, 3);
    const MakespanBound b = bound(s, m, 2, 4);
    CHECK(b.seconds == 8);
    CHECK(b.limit == "node 0's egress lanes");
    CHECK(hand::run(s, m, 2, 4).makespan == 11);
    // Without contention only the chain is left: 5, exactly the makespan.
    CHECK(bound(s, m, 2, 4, false).seconds == 5);
    CHECK(hand::run(s, m, 2, 4, false).makespan == 5);
}

TEST_CASE("bound: cpu overheads add up on the rank's processor") {
    // o_s = o_r = 4, 1-byte messages: rank 1 sends twice and receives once: 12 on its processor.
    Machine m = hand::machine(1, std::nullopt, std::nullopt, LogGP{1, 4, 4, 0, 1});
    for (Level& level : m.levels) level.overhead = OverheadModel::cpu;
    validate_machine(m);
    const Schedule s = hand::concurrent(4, {{1, 0}, {1, 2}, {3, 1}}, 1);
    const MakespanBound b = bound(s, m, 4, 1);
    CHECK(b.seconds == 12);
    CHECK(b.limit == "rank 1's processor");
    CHECK(hand::run(s, m, 4, 1).makespan >= 12);
}

TEST_CASE("bound: never above the makespan, every algorithm, k, style and collective") {
    std::size_t cases = 0, tight = 0;
    double worst = 0;  // the largest bound / makespan
    std::string where;
    grid::for_each_case({6, 8, 12}, {16, 65536, 1048576}, [&](const grid::Case& x) {
        const double t = simulate(x.schedule, x.machine, x.layout, x.options).makespan;
        const double b = makespan_lower_bound(x.schedule, x.machine, x.layout, x.options).seconds;
        ++cases;
        tight += b >= 0.5 * t ? 1 : 0;
        if (b / t > worst) {
            worst = b / t;
            where = x.label();
        }
    });
    INFO(where);
    CHECK(worst <= 1.0);
    // Useful too: at least half of the makespan in most cases.
    MESSAGE(
        fmt::format("{} cases, {} with a bound of at least half the makespan; largest bound / "
                    "makespan {} ({})",
                    cases, tight, worst, where));
    CHECK(tight * 2 > cases);
}

TEST_CASE("bound: the servers' part from counts equals the pass over the tasks, at every size") {
    // Counted at the grid's size, then bounded after resizing, as a sweep does: Allgathers and
    // the Allreduces of one segment (rd, rm, prd, prm).
    std::size_t cases = 0, allreduces = 0;
    grid::for_each_case({6, 8, 12}, {16}, [&](const grid::Case& x) {
        if (!x.schedule.shape.pieces_are_whole()) return;
        allreduces += x.schedule.shape.collective == Collective::allreduce ? 1 : 0;
        INFO(x.label());
        GenerateRequest request = x.request;
        request.payload = true;  // an Allreduce is resized by its segments
        Schedule s = generate(request);
        const auto counts = detail::count_server_loads(s, x.machine, x.layout, 0);
        REQUIRE(counts);
        for (std::uint64_t bytes : {1, 16, 1000, 1048576}) {
            set_message_size(s, bytes);
            const MakespanBound tasks = makespan_lower_bound(s, x.machine, x.layout, x.options);
            const MakespanBound counted =
                detail::makespan_lower_bound(s, x.machine, x.layout, x.options, *counts);
            CHECK(counted.seconds == tasks.seconds);
            CHECK(counted.servers == tasks.servers);
            CHECK(counted.chain == tasks.chain);
            CHECK(counted.limit == tasks.limit);
            ++cases;
        }
    });
    MESSAGE(fmt::format("{} bounds compared, {} schedules of them Allreduces", cases, allreduces));
    CHECK(cases > 100);
    CHECK(allreduces > 10);
}

TEST_CASE("bound: an Allreduce cut into segments is not counted for every size") {
    // Ring Allreduce of 12 ranks: at 16 bytes every segment is 1 or 2 bytes, at 24 all are 2.
    CHECK_FALSE(CollectiveShape{Collective::allreduce, 12, 16, 12}.pieces_are_whole());
    CHECK(CollectiveShape{Collective::allreduce, 12, 16, 1}.pieces_are_whole());
    CHECK(CollectiveShape{Collective::allgather, 12, 16, 12}.pieces_are_whole());
}
