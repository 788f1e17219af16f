// SimOptions::give_up_after: a replay stops at the first step of a task later than the limit, or
// once a completion it decided, or a lane grant's earliest delivery, is later, and reports that
// time, a lower bound on the makespan above the limit. It must never stop where the makespan is
// within the limit: no step of a task comes after the makespan.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>

#include "grid_machines.hpp"
#include "hand_cases.hpp"
#include "piccolo/schedules/generate.hpp"

using namespace piccolo;

namespace {

SimResult run_until(const Schedule& s, const Machine& m, int nodes, double limit) {
    SimOptions options;
    options.give_up_after = limit;
    return simulate(s, m, RankLayout(m, nodes, 1), options);
}

}  // namespace

TEST_CASE("give up: a chain of three messages stops at the first step past the limit") {
    // Device radix 1, each message of 3 B: o_s 1, (m-1)G 2, L 1, o_r 1. Message 0 is ready at 0
    // and delivered at 5, message 1 at 10, message 2 at 15. With no lanes to wait for, a
    // message's steps are READY and, o_s + L later, LAND at its receive slot.
    const Machine m = hand::machine(1, 1, std::nullopt);
    const Schedule s = hand::schedule(4, {{0, 1, 3, "-1"}, {1, 2, 3, "0"}, {2, 3, 3, "1"}});
    const SimResult full = run_until(s, m, 4, 15);
    CHECK_FALSE(full.gave_up);
    CHECK(full.makespan == 15);
    const SimResult at_ready = run_until(s, m, 4, 9.5);  // message 2's READY at 10
    CHECK(at_ready.gave_up);
    CHECK(at_ready.makespan == 10);
    const SimResult at_land = run_until(s, m, 4, 10);  // READY at 10 is not past 10
    CHECK(at_land.gave_up);
    CHECK(at_land.makespan == 12);
    CHECK(run_until(s, m, 4, 0).makespan == 2);  // message 0's LAND: READY at 0 is not past 0
    // Message 2's LAND at 12 decides its delivery at 15: past 14.5, with no step left to take.
    const SimResult decided = run_until(s, m, 4, 14.5);
    CHECK(decided.gave_up);
    CHECK(decided.makespan == 15);
}

// Messages of 11 B ((m-1)G = 10), L = o_s = o_r = 1, one lane per node each way. A FIFO lane's
// grant is final, so the transfer it serves is delivered no earlier than the grant + 10 + o_r
// (ingress): a queue that reaches past the limit proves the makespan past it when the grant is
// made, before the transfer's later steps.
TEST_CASE("give up: an incast queued past the limit stops the replay when the grant is made") {
    // Ranks 1..3 (one per node) send to rank 0 at 0; their first bytes arrive at 2 and take
    // node 0's ingress lane at 2, 12 and 22. One receive slot: the first is delivered at
    // 13, the second at 24 (the slot frees at 13), the third at 35. At 2 the third's grant
    // says 33 or later; without it, the second's delivery (24), decided when it lands at
    // 12, would be the first proof past 23.5.
    const Machine m = hand::machine(1, 1, 1);
    const Schedule s = hand::concurrent(4, {{1, 0}, {2, 0}, {3, 0}}, 11);
    CHECK(run_until(s, m, 4, 40).makespan == 35);
    const SimResult stopped = run_until(s, m, 4, 23.5);
    CHECK(stopped.gave_up);
    CHECK(stopped.makespan == 33);
}

TEST_CASE("give up: never within the makespan, every algorithm, k, style and collective") {
    std::size_t cases = 0, stopped = 0;
    grid::for_each_case({6, 8}, {16, 1048576}, [&](const grid::Case& x) {
        INFO(x.label());
        SimOptions o = x.options;
        const double t = simulate(x.schedule, x.machine, x.layout, o).makespan;
        o.give_up_after = t;
        const SimResult within = simulate(x.schedule, x.machine, x.layout, o);
        CHECK_FALSE(within.gave_up);
        CHECK(within.makespan == t);
        o.give_up_after = 0.75 * t;
        const SimResult past = simulate(x.schedule, x.machine, x.layout, o);
        if (past.gave_up) {
            CHECK(past.makespan > o.give_up_after);
            CHECK(past.makespan <= t);
        } else {
            CHECK(past.makespan == t);
        }
        ++cases;
        stopped += past.gave_up ? 1 : 0;
    });
    MESSAGE(
        fmt::format("{} cases, {} stopped at three quarters of their makespan", cases, stopped));
    CHECK(stopped * 2 > cases);
}
