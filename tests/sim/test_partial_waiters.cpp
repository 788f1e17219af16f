// The table of waiters under way (sim/engine/src/partial_waiters.hpp) against a std::map: ids that
// move on round by round (the window slides and its bounds are recomputed), a waiter left
// behind while others move far ahead (the window doubles), and ids spread over the whole range
// (it turns into a record per waiter). Every find, add and erase agrees with the map.
#include <doctest/doctest.h>

#include <map>
#include <random>

#include "partial_waiters.hpp"

using piccolo::detail::PartialWaiters;
using piccolo::detail::SimTime;

namespace {

struct Checked {
    explicit Checked(std::size_t waiters) : table(waiters) {}
    PartialWaiters table;
    std::map<std::uint32_t, std::pair<SimTime, std::uint32_t>> expected;

    // One release of `waiter` needing `count` in all: add, count down, or erase.
    void release(std::uint32_t waiter, std::uint32_t count, SimTime time) {
        PartialWaiters::Entry* entry = table.find(waiter);
        const auto it = expected.find(waiter);
        REQUIRE((entry != nullptr) == (it != expected.end()));
        if (!entry) {
            table.add(waiter, time, count - 1);
            expected[waiter] = {time, count - 1};
            return;
        }
        const SimTime ready_at = entry->ready_at;  // copies: the record is packed
        const std::uint32_t missing = entry->missing;
        REQUIRE(ready_at == it->second.first);
        REQUIRE(missing == it->second.second);
        if (--entry->missing == 0) {
            table.erase(*entry);
            expected.erase(it);
        } else {
            --it->second.second;
        }
    }

    void check_all(std::uint32_t waiters) {
        for (std::uint32_t w = 0; w < waiters; ++w)
            REQUIRE((table.find(w) != nullptr) == expected.contains(w));
    }
};

}  // namespace

TEST_CASE("partial waiters: ids that move on round by round") {
    // 64 rounds of 4096 waiters, each waiting for two releases: one in its own round, one in
    // the next, so that two rounds are under way at a time.
    constexpr std::uint32_t round = 4096, rounds = 64;
    Checked c(round * rounds);
    for (std::uint32_t r = 0; r < rounds; ++r)
        for (std::uint32_t i = 0; i < round; ++i) {
            c.release(r * round + i, 2, r);
            if (r > 0) c.release((r - 1) * round + (i * 7) % round, 2, r);
        }
    CHECK(c.expected.size() == round);
    c.check_all(round * rounds);
}

TEST_CASE("partial waiters: one waiter left behind, others far ahead, then spread out") {
    constexpr std::uint32_t waiters = 1 << 20;
    Checked c(waiters);
    c.release(3, 3, 7);  // stays under way throughout
    for (std::uint32_t w = 10; w < waiters; w += 97) c.release(w, 2, w);
    c.check_all(waiters);
    std::mt19937 random(1);
    std::uniform_int_distribution<std::uint32_t> id(0, waiters - 1);
    for (int i = 0; i < 200000; ++i) c.release(id(random), 3, i);
    c.check_all(waiters);
    c.release(3, 3, 8);
    c.release(3, 3, 9);
    CHECK_FALSE(c.expected.contains(3));
    CHECK(c.table.find(3) == nullptr);
}
