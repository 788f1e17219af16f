// Contention rules, each on a tiny case computed by hand (the arithmetic is in the comments).
// Units: parameters in seconds with small integers so that every time is exact.
#include <doctest/doctest.h>

#include "hand_cases.hpp"

using namespace piccolo;

using namespace piccolo::hand;

TEST_CASE("(a) device_radix 1 serializes k-1 = 3 concurrent sends") {
    // Rank 0 sends 3 bytes to ranks 1, 2, 3 at once (one node, no lane limit).
    // A send holds the slot max(o_s, g) + (m-1)G = 1 + 2 = 3: starts at 0, 3, 6.
    // Each completes o_s + (m-1)G + L + o_r = 1 + 2 + 1 + 1 = 5 later: 5, 8, 11.
    const Schedule s = concurrent(4, {{0, 1}, {0, 2}, {0, 3}}, 3);
    const SimResult r = run(s, machine(4, 1, std::nullopt), 1, 4);
    CHECK(r.makespan == 11);
    CHECK(r.transfer_trace[0].send_start == 0);
    CHECK(r.transfer_trace[1].send_start == 3);
    CHECK(r.transfer_trace[2].send_start == 6);
    CHECK(r.rank_finish == std::vector<double>{0, 5, 8, 11});
    CHECK(r.queueing[0].point == "device send slots");
    CHECK(r.queueing[0].delayed == 2);
    CHECK(r.queueing[0].total_delay == 3 + 6);
    // With three slots they overlap: everything done at 5.
    CHECK(run(s, machine(4, 3, std::nullopt), 1, 4).makespan == 5);
}

TEST_CASE("(a') the gap g holds a send slot longer than o_s") {
    // g = 4 > o_s = 1: the slot is busy max(o_s, g) + (m-1)G = 4 + 2 = 6, so sends start at
    // 0 and 6 and complete at 5 and 11.
    LogGP params = unit;
    params.g = 4;
    const Schedule s = concurrent(3, {{0, 1}, {0, 2}}, 3);
    const SimResult r = run(s, machine(3, 1, std::nullopt, params), 1, 3);
    CHECK(r.transfer_trace[1].send_start == 6);
    CHECK(r.makespan == 11);
}

TEST_CASE("(b) receive buffering: 3 messages arrive at a device with 1 receive slot") {
    // Ranks 1, 2, 3 each send 3 bytes to rank 0 at time 0 (each from its own slot). All first
    // bytes arrive at o_s + L = 2. The first reception runs 2..4 ((m-1)G = 2) and completes at
    // 5 (+ o_r); the slot is held until completion, so the second is buffered until 5 and
    // completes at 5 + 2 + 1 = 8, the third at 11.
    const Schedule s = concurrent(4, {{1, 0}, {2, 0}, {3, 0}}, 3);
    const SimResult r = run(s, machine(4, 1, std::nullopt), 1, 4);
    CHECK(r.transfer_trace[0].complete == 5);
    CHECK(r.transfer_trace[1].receive_start == 5);
    CHECK(r.transfer_trace[1].complete == 8);
    CHECK(r.transfer_trace[2].complete == 11);
    CHECK(r.makespan == 11);
    CHECK(r.queueing[1].point == "device receive slots");
    CHECK(r.queueing[1].delayed == 2);
    CHECK(r.queueing[1].total_delay == (5 - 2) + (8 - 2));
    // Without contention each completes at 5.
    CHECK(run(s, machine(4, 1, std::nullopt), 1, 4, false).makespan == 5);
}

TEST_CASE("(c) node_radix 1: 4 devices sending off-node take 4x the injection time, 2 lanes 2x") {
    // Node 0 = ranks 0..3, node 1 = ranks 4..7; i sends 11 bytes to i + 4, so (m-1)G = 10.
    // Egress requests at ts + o_s = 1. One lane: injections 1..11, 11..21, 21..31, 31..41; the
    // last byte of the last one arrives at 41 + L = 42 and completes at 43 (+ o_r) =
    // o_s + 4 x 10 + L + o_r. The single ingress lane of node 1 never waits: each message's
    // first byte arrives (at 2, 12, 22, 32) just as the previous one's bytes are in.
    const Schedule s = concurrent(8, {{0, 4}, {1, 5}, {2, 6}, {3, 7}}, 11);
    const SimResult one = run(s, machine(4, 8, 1), 2, 4);
    CHECK(one.makespan == 43);
    CHECK(one.transfer_trace[3].inject_start == 31);
    CHECK(one.queueing[2].point == "node egress lanes");
    CHECK(one.queueing[2].delayed == 3);
    CHECK(one.queueing[2].total_delay == 10 + 20 + 30);
    CHECK(one.queueing[3].delayed == 0);
    // Two lanes: two injections at a time, 1..11 and 11..21: done at 1 + 2 x 10 + 1 + 1 = 23.
    CHECK(run(s, machine(4, 8, 2), 2, 4).makespan == 23);
    // No lane limit (or contention off): every message alone, 1 + 10 + 1 + 1 = 13.
    CHECK(run(s, machine(4, 8, std::nullopt), 2, 4).makespan == 13);
    CHECK(run(s, machine(4, 8, 1), 2, 4, false).makespan == 13);
}

TEST_CASE("(d) ingress lanes buffer bytes entering a node") {
    // Ranks 0 (node 0) and 2 (node 1) each send 11 bytes to node 2 (ranks 4, 5) at once, node
    // radix 1 everywhere: the egress lanes are distinct, both first bytes arrive at
    // o_s + L = 2, node 2's single ingress lane takes one at 2..12 (completes at 13) and
    // buffers the other until 12 (completes at 12 + 10 + 1 = 23).
    const Schedule s = concurrent(6, {{0, 4}, {2, 5}}, 11);
    const SimResult r = run(s, machine(2, 8, 1), 3, 2);
    CHECK(r.transfer_trace[0].complete == 13);
    CHECK(r.transfer_trace[1].receive_start == 12);
    CHECK(r.makespan == 23);
    CHECK(r.queueing[3].point == "node ingress lanes");
    CHECK(r.queueing[3].total_delay == 10);
}

TEST_CASE("FIFO by ready time, ties by task id, at a send slot") {
    // Task 0 (0->1) is ready at 0; tasks 1 (1->0) and then 2, 3 (0->2, 0->3) are ready at 0 too.
    // Rank 0's sends take its single slot in id order: 0 at 0, 2 at 3, 3 at 6.
    const Schedule s = concurrent(4, {{0, 1}, {1, 0}, {0, 2}, {0, 3}}, 3);
    const SimResult r = run(s, machine(4, 1, std::nullopt), 1, 4);
    CHECK(r.transfer_trace[2].send_start == 3);
    CHECK(r.transfer_trace[3].send_start == 6);
}

TEST_CASE("(e) elastic send slots: a node radix that never binds changes no finish") {
    // No device_radix: a send opens a new slot whenever the rank's slots hold data not yet
    // gone, and reuses a slot whose data is gone only after its gap. o_s = 0, g = 2, 1 B
    // (W = 0): rank 0 sends to ranks 1, 2, 3 at 0, one device per node. Send 0's data is gone
    // at 0, the instant it starts: send 1 takes its slot after the gap, at 2 (delivered at
    // 2 + L + o_r = 4). Send 2 finds that slot holding send 1's data (gone at 2, not yet) and
    // opens a new one at 0. Delivered at 2, 4, 2. A node radix of 4 must not change this: the
    // injection decides its window (at 0, the lane is free) before the next send is served.
    LogGP params = unit;
    params.o_s = 0;
    params.g = 2;
    const Schedule s = concurrent(4, {{0, 1}, {0, 2}, {0, 3}}, 1);
    for (const std::optional<int> node_radix : {std::optional<int>{}, std::optional<int>{4}}) {
        INFO("node radix " << node_radix.value_or(0));
        const SimResult r = run(s, machine(1, std::nullopt, node_radix, params), 4, 1);
        CHECK(r.transfer_trace[1].send_start == 2);
        CHECK(r.transfer_trace[2].send_start == 0);
        CHECK(r.rank_finish == std::vector<double>{0, 2, 4, 2});
    }
}
