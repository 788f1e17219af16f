// Sums of simulated times that statistics report (wire time per level, queueing delay per point,
// compute time): exact whatever the order of the additions, and past the 2^63 fs of one time.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "sim_time.hpp"
#include "slot_pool.hpp"

using piccolo::detail::SimTime;
using piccolo::detail::SlotPool;
using piccolo::detail::TimeSum;

TEST_CASE("time sum: 0.1 s + 0.2 s is 0.3 s, in any order") {
    TimeSum forward, backward;
    forward.add(100'000'000'000'000);
    forward.add(200'000'000'000'000);
    backward.add(200'000'000'000'000);
    backward.add(100'000'000'000'000);
    CHECK(forward.seconds() == 0.3);
    CHECK(backward.seconds() == 0.3);
}

TEST_CASE("time sum: a million random delays give one total in every order") {
    std::mt19937_64 random(7);
    std::uniform_int_distribution<SimTime> delay(0, 3'000'000'000'000'000);  // up to 3000 s
    std::vector<SimTime> delays(1'000'000);
    for (SimTime& d : delays) d = delay(random);
    TimeSum in_order;
    for (SimTime d : delays) in_order.add(d);
    std::shuffle(delays.begin(), delays.end(), random);
    TimeSum shuffled;
    for (SimTime d : delays) shuffled.add(d);
    CHECK(in_order.seconds() == shuffled.seconds());
    CHECK(in_order.seconds() > 9.2e3);  // far past what one SimTime holds (2^63 fs = 9223 s)
}

TEST_CASE("time sum: whole seconds and the femtoseconds left carry exactly") {
    TimeSum sum;
    for (int i = 0; i < 3; ++i) sum.add(999'999'999'999'999);  // 3 s less 3 fs
    sum.add(3);
    CHECK(sum.seconds() == 3.0);
}

TEST_CASE("slot pool: the slot that frees first is taken, at once or when it frees") {
    SlotPool pool(1, 2);
    SimTime start = 0;
    pool.claim_earliest(0, 0, start).hold(50, 50);
    CHECK(start == 0);
    pool.claim_earliest(0, 10, start).hold(30, 30);
    CHECK(start == 10);  // the second slot was free
    pool.claim_earliest(0, 20, start).hold(70, 70);
    CHECK(start == 30);  // both busy: the one that frees at 30, not at 50
    pool.claim_earliest(0, 40, start).hold(90, 90);
    CHECK(start == 50);
}
