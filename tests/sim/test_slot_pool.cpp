// A limited slot pool's FIFO queue against a plain list of the requests: whatever stretches it packs
// consecutive requests into, they come out one by one in the order they were made, each with the
// time it was made, and a pool grants a slot only when one is free and nobody queues before.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "slot_pool.hpp"

using piccolo::TaskId;
using piccolo::detail::SimTime;
using piccolo::detail::SlotPool;
using piccolo::detail::Waiting;

namespace {

// Drains owner's queue into a list.
std::vector<Waiting> drain(SlotPool& pool, std::size_t owner) {
    std::vector<Waiting> out;
    while (pool.waiting(owner)) {
        out.push_back(pool.front(owner));
        pool.pop(owner);
    }
    return out;
}

void check_same(const std::vector<Waiting>& got, const std::vector<Waiting>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].task == want[i].task);
        CHECK(got[i].since == want[i].since);
    }
}

}  // namespace

TEST_CASE("slot pool queue: stretches of consecutive requests come out one by one, in order") {
    SlotPool pool(3, 2);
    // A stretch of three (5, 6, 7 at time 10), a gap in the ids (9), a new time (10, 11 at 20), an
    // id going down (4 at 20), and one more at the first stretch's time but not after it (8 at 10).
    const std::vector<Waiting> made = {{5, 10},  {6, 10}, {7, 10}, {9, 10}, {10, 20},
                                       {11, 20}, {4, 20}, {8, 10}, {9, 10}};
    for (const Waiting& w : made) pool.enqueue(1, w);
    CHECK_FALSE(pool.waiting(0));
    CHECK_FALSE(pool.waiting(2));
    check_same(drain(pool, 1), made);
    // Emptied, the queue starts again from nothing: a request right after the last one is a
    // new stretch, not the old one's continuation.
    pool.enqueue(1, {10, 10});
    check_same(drain(pool, 1), {{10, 10}});
}

TEST_CASE("slot pool queue: interleaved pushes and pops keep FIFO order (random)") {
    std::mt19937 random(7);
    SlotPool pool(1, 1);
    std::vector<Waiting> made, got;
    TaskId next = 0;
    SimTime time = 0;
    for (int step = 0; step < 20000; ++step) {
        if (random() % 3 != 0) {
            if (random() % 4 == 0) time += 1 + random() % 3;   // a later request time
            next += random() % 5 == 0 ? 2 + random() % 3 : 1;  // mostly consecutive ids
            made.push_back({next, time});
            pool.enqueue(0, made.back());
        } else if (pool.waiting(0)) {
            got.push_back(pool.front(0));
            pool.pop(0);
        }
    }
    for (const Waiting& w : drain(pool, 0)) got.push_back(w);
    check_same(got, made);
}

TEST_CASE("slot pool: a free slot is not granted past a queued request") {
    SlotPool pool(1, 1);
    SimTime start = 0;
    auto slot = pool.claim(0, 0, start);
    REQUIRE(slot);
    slot->hold(100, 100);
    CHECK_FALSE(pool.claim(0, 50, start));  // busy
    pool.enqueue(0, {3, 50});
    CHECK_FALSE(pool.claim(0, 100, start));    // free, but task 3 waits before this request
    REQUIRE(pool.claim(0, 100, start, true));  // the queue's head being served takes it
    CHECK(start == 100);
    CHECK(pool.next_release(0, 60) == 100);
}

TEST_CASE("slot pool: owners on either side of a word of the waiting bitmap queue apart") {
    SlotPool pool(130, 1);
    for (std::size_t owner : {63u, 64u, 129u}) pool.enqueue(owner, {7, 1});
    for (std::size_t owner : {0u, 62u, 65u, 127u, 128u}) CHECK_FALSE(pool.waiting(owner));
    check_same(drain(pool, 64), {{7, 1}});
    CHECK(pool.waiting(63));  // emptying owner 64's queue leaves its neighbours' bits
    CHECK(pool.waiting(129));
    CHECK_FALSE(pool.waiting(64));
    check_same(drain(pool, 63), {{7, 1}});
    check_same(drain(pool, 129), {{7, 1}});
    SimTime start = 0;
    CHECK(pool.claim(0, 0, start));  // no queue anywhere: a free slot is granted
}
