// Fair sharing (max-min, progressive filling) of node lanes and of a unit's internal capacity,
// on cases computed by hand, and the bound it must reach on a real collective. Units: L = o_s =
// o_r = 1, g = 0, G = 1 s/B unless said.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "hand_cases.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;
using namespace piccolo::hand;

namespace {

Machine fair(Machine m) {
    m.sharing = Sharing::fair;
    validate_machine(m);
    return m;
}

}  // namespace

TEST_CASE("fair: two transfers through one lane share it and finish together") {
    // Ranks 0 and 1 (node 0) send 11 bytes (W = 10) to ranks 2 and 3 (node 1); one lane per
    // node. Both inject from o_s = 1 at half speed: their last bytes leave at 1 + 2 x 10 = 21,
    // arrive at 22 and are delivered at 23. FIFO: the first is delivered at 1 + 10 + 1 + 1 = 13
    // and the second, injected 11..21, at 23 as well.
    const Schedule s = concurrent(4, {{0, 2}, {1, 3}}, 11);
    const SimResult shared = run(s, fair(machine(2, std::nullopt, 1)), 2, 2);
    CHECK(shared.transfer_trace[0].inject_end == 21);
    CHECK(shared.transfer_trace[0].complete == 23);
    CHECK(shared.transfer_trace[1].complete == 23);
    const SimResult fifo = run(s, machine(2, std::nullopt, 1), 2, 2);
    CHECK(fifo.transfer_trace[0].complete == 13);
    CHECK(fifo.transfer_trace[1].complete == 23);
}

TEST_CASE("fair: a short transfer leaves the lane to the long one at full speed") {
    // As above with 5 bytes (W = 4) for the second. Half speed each until the short one's 4 s of
    // work are done at 1 + 8 = 9 (delivered 11); the long one has 6 s of its 10 left, at full
    // speed from 9: its last byte leaves at 15, delivered 17.
    const Schedule s = schedule(4, {{0, 2, 11}, {1, 3, 5}});
    const SimResult r = run(s, fair(machine(2, std::nullopt, 1)), 2, 2);
    CHECK(r.transfer_trace[1].inject_end == 9);
    CHECK(r.transfer_trace[1].complete == 11);
    CHECK(r.transfer_trace[0].inject_end == 15);
    CHECK(r.transfer_trace[0].complete == 17);
    CHECK(r.queueing.back().point == "fair sharing");
    CHECK(r.queueing.back().total_delay == (9 + 0 - 1 - 4) + (15 + 0 - 1 - 10));
}

TEST_CASE("capacity: n transfers inside a unit of capacity C share it") {
    // G = 1/4 s/B, 5-byte messages: W = 1, full speed 5 B/s. Node capacity C = 10 B/s, two
    // transfers' worth. 4 concurrent transfers on one node get 2.5 B/s each, half speed: their
    // last bytes leave at o_s + 2 = 3, are received at max(2 + 1, 3 + 1) = 4 and delivered at 5.
    // Two transfers run at full speed: last byte at 2, delivered 2 + L + o_r = 4, as without a
    // capacity.
    LogGP params = unit;
    params.G = 0.25;
    Machine m = fair(machine(8, std::nullopt, std::nullopt, params));
    m.levels[0].capacity = 10;
    const SimResult four = run(concurrent(8, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, 5), m, 1, 8);
    for (const TransferTrace& t : four.transfer_trace) {
        CHECK(t.inject_end == 3);
        CHECK(t.complete == 5);
    }
    CHECK(run(concurrent(8, {{0, 1}, {2, 3}}, 5), m, 1, 8).makespan == 4);
    // With C = 5 B/s (one transfer's worth) 4 transfers take 4 x W: last bytes at 5, done 7.
    m.levels[0].capacity = 5;
    CHECK(run(concurrent(8, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, 5), m, 1, 8).makespan == 7);
}

TEST_CASE("fair: RM k=4 Allgather of 2 MiB on 16 nodes x 4 is within 2% of the NIC bound") {
    // Every byte that leaves a node crosses its one NIC at 1/G at best: the busiest NIC's bytes
    // times G bound the makespan from below; sharing the NIC fairly wastes none of its time.
    Machine delta = load_preset("delta");
    delta.sharing = Sharing::fair;
    const RankLayout layout(delta, 16, 4);
    GenerateRequest request{Collective::allgather, "rm", 4, 64, 2 << 20, false};
    request.style = Style::nccl;
    const Schedule s = generate(request);
    std::map<int, double> leaving;  // bytes per source node
    for (TaskId t = 0; t < s.size(); ++t)
        if (layout.node_of(s.src[t]) != layout.node_of(s.dst[t]))
            leaving[layout.node_of(s.src[t])] += static_cast<double>(s.bytes(t));
    double busiest = 0;
    for (const auto& [node, bytes] : leaving) busiest = std::max(busiest, bytes);
    const double bound = busiest * delta.levels.back().loggp.at(2 << 20).G;
    const double makespan = simulate(s, delta, layout).makespan;
    INFO(fmt::format("bound {:.4f} ms, fair {:.4f} ms", bound * 1e3, makespan * 1e3));
    CHECK(busiest == 480.0 * (1 << 20));
    CHECK(makespan >= bound);
    CHECK(makespan <= 1.02 * bound);
}

TEST_CASE("capacity: a node capacity on the measured laptop profile slows concurrent transfers") {
    // Ranks 0 and 1 exchange 4 MiB at once. The measured profile has no capacity (its concurrent
    // probe scaled), so one is set here: C = 10 GB/s, below two transfers at full speed. Each
    // transfer then moves its bytes at C / 2: the last byte leaves at o_s + 2 m / C, arrives L
    // later, and o_r follows (cpu overheads, each rank's processor idle by then):
    // o_s + 2 m / C + L + o_r.
    Machine laptop = load_preset("laptop-measured-2026-11-22");
    CHECK_FALSE(laptop.levels[0].capacity);
    const double capacity = 10e9;
    laptop.levels[0].capacity = capacity;
    laptop.sharing = piccolo::Sharing::fair;
    const int m = 4 << 20;
    const LogGP x = laptop.levels[0].loggp.at(m);
    REQUIRE(2.0 * m / capacity > (m - 1) * x.G);  // the capacity binds
    const SimResult r = run(concurrent(2, {{0, 1}, {1, 0}}, m), laptop, 1, 2);
    CHECK(r.makespan == doctest::Approx(x.o_s + 2.0 * m / capacity + x.L + x.o_r).epsilon(1e-9));
    Machine unlimited = laptop;
    unlimited.levels[0].capacity.reset();
    CHECK(run(concurrent(2, {{0, 1}, {1, 0}}, m), unlimited, 1, 2).makespan ==
          doctest::Approx(x.o_s + (m - 1) * x.G + x.L + x.o_r).epsilon(1e-9));
}
