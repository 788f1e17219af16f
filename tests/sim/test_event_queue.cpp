// The engine's event queue against the plainest oracle: every event popped in (time, kind, id)
// order, which is what std::sort of the pushed events gives. The patterns are the ones the queue
// has a path for: a batch of a few sorted runs (merged), of many runs (sorted), of over 4096
// events (radix sorted), events pushed at the time being served, times that spill between
// buckets, and busy times whose events gather in batches.
#include <doctest/doctest.h>

#include <algorithm>
#include <queue>
#include <random>
#include <vector>

#include "event_queue.hpp"

using piccolo::detail::Event;
using piccolo::detail::EventKind;
using piccolo::detail::EventQueue;
using piccolo::detail::SimTime;

namespace {

struct Plain {
    SimTime time;
    std::uint64_t key;
    bool operator<(const Plain& o) const { return time != o.time ? time < o.time : key < o.key; }
    bool operator==(const Plain& o) const = default;
};

Plain plain(const Event& e) {
    return {e.time, e.key};
}

// Pushes `first` (all before any pop), then pops everything; while serving time `echo_at`, every
// popped event of it pushes one more event at the same time with id + `echo_offset`.
std::vector<Plain> drain(const std::vector<Event>& first, SimTime echo_at = -1,
                         std::uint32_t echo_offset = 0, std::vector<Plain>* pushed = nullptr) {
    EventQueue queue;
    for (const Event& e : first) queue.push(e);
    std::vector<Plain> out;
    while (!queue.empty()) {
        const Event e = queue.pop();
        out.push_back(plain(e));
        if (e.time == echo_at && e.id() < echo_offset) {
            const Event echo(e.time, EventKind::ready, e.id() + echo_offset);
            queue.push(echo);
            if (pushed) pushed->push_back(plain(echo));
        }
    }
    return out;
}

std::vector<Plain> sorted(const std::vector<Event>& events) {
    std::vector<Plain> out;
    for (const Event& e : events) out.push_back(plain(e));
    std::sort(out.begin(), out.end());
    return out;
}

// `runs` ascending runs of `per_run` ids each, interleaved in id, all at time `at`.
std::vector<Event> runs_at(SimTime at, std::uint32_t runs, std::uint32_t per_run) {
    std::vector<Event> events;
    for (std::uint32_t r = 0; r < runs; ++r)
        for (std::uint32_t i = 0; i < per_run; ++i)
            events.emplace_back(at, EventKind::inject, i * runs + r);
    return events;
}

}  // namespace

TEST_CASE("event queue: batches of sorted runs, many runs and large batches pop in key order") {
    for (std::uint32_t runs : {1u, 2u, 3u, 7u, 8u, 9u, 40u})
        for (std::uint32_t per_run : {1u, 5u, 100u, 1000u}) {
            CAPTURE(runs);
            CAPTURE(per_run);
            std::vector<Event> events = runs_at(1000, runs, per_run);
            const std::vector<Event> later = runs_at(1'000'000'007, runs, per_run);
            events.insert(events.end(), later.begin(), later.end());
            CHECK(drain(events) == sorted(events));
        }
}

TEST_CASE("event queue: random times and kinds over a wide range pop in (time, key) order") {
    std::mt19937_64 random(12345);
    std::vector<Event> events;
    for (std::uint32_t id = 0; id < 20000; ++id) {
        const SimTime time = static_cast<SimTime>(random() % 64) << (random() % 40);
        const auto kind = static_cast<EventKind>(random() % 16);
        events.emplace_back(time, kind, static_cast<std::uint32_t>(random() % 5000));
    }
    CHECK(drain(events) == sorted(events));
}

TEST_CASE("event queue: events pushed at the time being served are merged into its order") {
    const std::vector<Event> events = runs_at(500, 3, 2000);  // ids 0..5999, a radix-sorted batch
    std::vector<Plain> pushed;
    const std::vector<Plain> out = drain(events, 500, 3000, &pushed);
    std::vector<Plain> all = sorted(events);
    // Echoes of ids 0..2999 have kind ready (after inject): served after every inject event of
    // time 500, in id order.
    all.insert(all.end(), pushed.begin(), pushed.end());
    std::sort(all.begin(), all.end());
    CHECK(out == all);
}

// The engine's pattern: every event served pushes a few events at later times from a small set
// of offsets, so many share each time, and times collide in the queue's table of recent times
// (65 offsets against its 64 entries). The first times hold 2,000 events each, enough for the
// queue to batch from then on. The oracle is a priority queue of (time, key).
TEST_CASE("event queue: events pushed while serving, many to each of few times, pop in order") {
    std::mt19937_64 random(777);
    std::vector<SimTime> offsets;
    for (int i = 0; i < 65; ++i) offsets.push_back(static_cast<SimTime>(random() % 5000) + 1);
    EventQueue queue;
    auto later_first = [](const Plain& a, const Plain& b) { return b < a; };
    std::priority_queue<Plain, std::vector<Plain>, decltype(later_first)> oracle(later_first);
    auto push = [&](const Event& e) {
        queue.push(e);
        oracle.push(plain(e));
    };
    std::uint32_t next_id = 0;
    for (int i = 0; i < 8000; ++i) push(Event(offsets[random() % 4], EventKind::ready, next_id++));
    std::size_t served = 0;
    while (!queue.empty()) {
        const Event e = queue.pop();
        REQUIRE(!oracle.empty());
        REQUIRE(plain(e) == oracle.top());
        oracle.pop();
        ++served;
        if (next_id >= 400'000) continue;
        for (std::uint64_t n = random() % 3; n > 0; --n) {
            const SimTime later = e.time + offsets[random() % offsets.size()];
            const auto kind = static_cast<EventKind>(random() % 16);
            push(Event(random() % 8 == 0 ? e.time : later, kind, next_id++));
        }
    }
    CHECK(oracle.empty());
    CHECK(served == next_id);
}
