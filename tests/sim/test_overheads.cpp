// The cpu overhead model and the rendezvous rule on cases computed by hand (arithmetic in the
// comments). Units: L = o_s = o_r = 1, G = 1 s/B, so a message of m bytes has (m-1)G = m - 1.
//
// cpu (classic LogGP, LogP's send rule): one processor per rank carries every o_s and o_r in
// turn, first come first served. A send first waits for the rank's send port (the gap): its o_s
// may start g + W after the previous send's o_s started, i.e. the port frees g - o_s after the
// previous injection's last byte; then o_s waits for the processor, and the first byte leaves
// when o_s ends. Receptions are spaced by g (the receive port frees g after the last byte).
// Rendezvous: the send completes only when the receiver has taken the
// data (the reception's end), where an eager send completes when its last byte has left.
#include <doctest/doctest.h>

#include "hand_cases.hpp"

using namespace piccolo;
using namespace piccolo::hand;

namespace {

Machine cpu_machine(double g) {
    LogGP params = unit;
    params.g = g;
    Machine m = machine(4, std::nullopt, std::nullopt, params);
    for (Level& level : m.levels) level.overhead = OverheadModel::cpu;
    return m;
}

}  // namespace

TEST_CASE("cpu: three sends in flight are spaced by the gap, o_s when the gap allows") {
    // Rank 0 sends 3 bytes (W = 2) to ranks 1, 2, 3 at once, g = 2. All three ask for the send
    // port at 0. 0 takes it at 0: o_s 0..1, injects 1..3, the port frees at 3 + g - o_s = 4
    // (g + W after its o_s started); 1 takes it at 4: o_s 4..5, injects 5..7 (free at 8); 2
    // takes it at 8: o_s 8..9, injects 9..11. The processor never waits.
    // Each receiver: first byte at inject start + L, reception W, done at max(r + W, end + L),
    // then o_r on its own processor: 0 done at 4, delivered 5; 1: 8, 9; 2: 12, 13.
    const SimResult r = run(concurrent(4, {{0, 1}, {0, 2}, {0, 3}}, 3), cpu_machine(2), 1, 4);
    CHECK(r.transfer_trace[0].send_start == 0);
    CHECK(r.transfer_trace[1].send_start == 4);
    CHECK(r.transfer_trace[2].send_start == 8);
    CHECK(r.transfer_trace[1].inject_start == 5);
    CHECK(r.transfer_trace[2].inject_start == 9);
    CHECK(r.rank_finish == std::vector<double>{0, 5, 9, 13});
    CHECK(r.makespan == 13);
    CHECK(r.queueing[4].point == "processor");
    CHECK(r.queueing[4].delayed == 0);
    CHECK(r.queueing[5].point == "send port");
    CHECK(r.queueing[5].delayed == 2);
    CHECK(r.queueing[5].total_delay == 4 + 8);
    // Offloaded onto one send slot with the same g, o_s no longer overlaps the previous
    // injection, but the slot is held o_s + W + max(0, g - o_s) = 4 per send, as the port spaces
    // injections W + g = 4 apart: sends start at 0, 4, 8 and end at 5, 9, 13 just the same.
    Machine offload = cpu_machine(2);
    for (Level& level : offload.levels) level.overhead = OverheadModel::offload;
    offload.device_radix = 1;
    CHECK(run(concurrent(4, {{0, 1}, {0, 2}, {0, 3}}, 3), offload, 1, 4).makespan == 13);
}

TEST_CASE("cpu: an incast of three is received one after another, spaced by g") {
    // Ranks 1, 2, 3 send 3 bytes to rank 0 at once, g = 2. Each: o_s 0..1, injects 1..3, first
    // byte at rank 0 at 2. Receive port of rank 0 (ties by task id): 0 receives 2..4 (port free
    // at 4 + g = 6), o_r 4..5; 1 receives 6..8 (free 10), o_r 8..9; 2 receives 10..12, o_r
    // 12..13.
    const SimResult r = run(concurrent(4, {{1, 0}, {2, 0}, {3, 0}}, 3), cpu_machine(2), 1, 4);
    CHECK(r.transfer_trace[0].complete == 5);
    CHECK(r.transfer_trace[1].receive_start == 6);
    CHECK(r.transfer_trace[1].complete == 9);
    CHECK(r.transfer_trace[2].receive_start == 10);
    CHECK(r.transfer_trace[2].complete == 13);
    CHECK(r.makespan == 13);
    CHECK(r.queueing[6].point == "receive port");
    CHECK(r.queueing[6].delayed == 2);
    CHECK(r.queueing[6].total_delay == (6 - 2) + (10 - 2));
}

TEST_CASE("cpu: a receive's o_r waits while the rank's processor sends") {
    // 1-byte messages (W = 0), g = 2. Task 0: rank 1 -> rank 0; tasks 1, 2, 3: rank 0 -> 1, 2, 3.
    // Rank 0's send port: 1 at 0 (o_s 0..1, injects at 1, frees at 0 + g = 2), 2 at 2, 3 at 4.
    // Task 0: o_s 0..1 on rank 1, injects at 1, first byte at 2, received at
    // max(2 + 0, 1 + 1) = 2. At 2 the port's release (a release goes first) gives 2 rank 0's
    // processor: o_s 2..3, injects at 3; task 0's o_r asks at 2, gets it at 3: delivered 4.
    // 3: port at 4, processor free at 4, o_s 4..5, injects at 5. Delivered at 1 + L + o_r = 3,
    // 3 + 2 = 5, 5 + 2 = 7. Rank 1's processor: o_s of 0 at 0..1, o_r of 1 at 2..3.
    const Schedule s = concurrent(4, {{1, 0}, {0, 1}, {0, 2}, {0, 3}}, 1);
    const SimResult r = run(s, cpu_machine(2), 1, 4);
    CHECK(r.transfer_trace[0].complete == 4);
    CHECK(r.transfer_trace[1].complete == 3);
    CHECK(r.transfer_trace[2].complete == 5);
    CHECK(r.transfer_trace[3].complete == 7);
    CHECK(r.makespan == 7);
    // Offloaded, the receive has its own slot: task 0 is delivered at 2 + o_r = 3.
    Machine offload = cpu_machine(2);
    for (Level& level : offload.levels) level.overhead = OverheadModel::offload;
    CHECK(run(s, offload, 1, 4).transfer_trace[0].complete == 3);
}

TEST_CASE("cpu: LogP's send rule, 3 ranks, g > o: o_s runs when the gap allows") {
    // g = 3. Task 0: rank 0 -> 1, 1 byte; task 1: rank 0 -> 2, 1 byte; task 2: rank 1 -> 0,
    // 2 bytes (W = 1); all ready at 0.
    // Rank 0: 0 takes the send port at 0, o_s 0..1, injects at 1 (port free at 0 + g = 3);
    // delivered at rank 1 at 1 + L + o_r = 3 (rank 1's processor: o_s of 2 at 0..1, o_r 2..3).
    // Task 2: o_s 0..1 on rank 1, injects 1..2, first byte at rank 0 at 2, received at
    // max(2 + W, 2 + L) = 3. At 3 rank 0's send port frees (a release goes first) and 1 takes
    // rank 0's processor: o_s 3..4, injects at 4, delivered at 4 + L + o_r = 6. Task 2's o_r,
    // asked at 3, runs 4..5: delivered 5.
    // Had o_s run as soon as the processor was free (0..1 then 1..2, the message held for the
    // gap until 1 + g = 4), the processor would have been free at 3: task 2 delivered at 4.
    Machine m = cpu_machine(3);
    const SimResult r = run(schedule(3, {{0, 1, 1}, {0, 2, 1}, {1, 0, 2}}), m, 1, 3);
    CHECK(r.transfer_trace[0].complete == 3);
    CHECK(r.transfer_trace[1].send_start == 3);
    CHECK(r.transfer_trace[1].inject_start == 4);
    CHECK(r.transfer_trace[1].complete == 6);
    CHECK(r.transfer_trace[2].receive_start == 2);
    CHECK(r.transfer_trace[2].complete == 5);
    CHECK(r.rank_finish == std::vector<double>{5, 3, 6});
    CHECK(r.makespan == 6);
}

TEST_CASE("rendezvous: the next send waits until the receiver has taken the data") {
    // Task 0: rank 0 -> 1, 3 bytes; task 1: rank 0 -> 2, 3 bytes, waits for task 0 to be sent.
    // Eager: 0 is sent when its last byte has left, o_s + W = 3; 1 starts at 3: o_s 3..4,
    // injects 4..6, first byte at 5, received at max(5 + 2, 6 + 1) = 7, delivered 8.
    // Rendezvous (threshold 3 B): 0's reception runs 2..4 (max(2 + 2, 3 + 1)), so it is sent at
    // 4 and 1 is delivered one later, at 9.
    const Schedule s = schedule(3, {{0, 1, 3}, {0, 2, 3, "-1", "0"}});
    Machine m = machine(4, std::nullopt, std::nullopt);
    const SimResult eager = run(s, m, 1, 3);
    CHECK(eager.transfer_trace[0].sent == 3);
    CHECK(eager.transfer_trace[1].ready == 3);
    CHECK(eager.makespan == 8);
    m.levels[0].rendezvous = 3;
    const SimResult rendezvous = run(s, m, 1, 3);
    CHECK(rendezvous.transfer_trace[0].sent == 4);
    CHECK(rendezvous.makespan == 9);
    // Below the threshold the send stays eager.
    m.levels[0].rendezvous = 4;
    CHECK(run(s, m, 1, 3).makespan == 8);
}

TEST_CASE("rendezvous: a busy receiver holds the sender back") {
    // device_radix 1. Task 0: rank 2 -> 1 (3 B); task 1: rank 0 -> 1 (3 B, rendezvous);
    // task 2: rank 0 -> 3, waits for task 1 to be sent. Both first bytes reach rank 1 at 2; its
    // single receive slot takes task 0 first (task id): received 2..4, slot held to 4 + o_r = 5.
    // Task 1 is received 5..7 (max(5 + 2, 3 + 1)) and sent then: task 2 starts at 7, o_s
    // 7..8, injects 8..10, received at 11, delivered 12. Eager, task 2 would start at 3 and be
    // delivered at 8, as would task 1.
    const Schedule s = schedule(4, {{2, 1, 3}, {0, 1, 3}, {0, 3, 3, "-1", "1"}});
    Machine m = machine(4, 1, std::nullopt);
    CHECK(run(s, m, 1, 4).makespan == 8);
    m.levels[0].rendezvous = 1;
    const SimResult r = run(s, m, 1, 4);
    CHECK(r.transfer_trace[1].receive_start == 5);
    CHECK(r.transfer_trace[1].sent == 7);
    CHECK(r.transfer_trace[2].send_start == 7);
    CHECK(r.makespan == 12);
}
