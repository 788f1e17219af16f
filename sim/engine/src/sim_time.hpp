#pragma once
// Simulated time: whole femtoseconds in a signed 64-bit integer. Integer time makes every sum
// exact, so equal times are real ties (broken by task id) and never depend on rounding or on the
// order in which costs were added up. A femtosecond resolves every parameter a machine file
// gives with up to ten significant digits; per-byte costs are multiplied out in extended
// precision and rounded once per (level, size). The range, 2^63 fs, is about 2.5 hours.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

namespace piccolo::detail {

using SimTime = std::int64_t;

inline constexpr SimTime never = std::numeric_limits<SimTime>::max();  // not known (yet)
inline constexpr long double femtoseconds_per_second = 1e15L;
// The longest simulated time, and the longest single cost, allowed: an event at most max_time
// plus one cost of at most max_time stays below 2^63.
inline constexpr SimTime max_time = 4'000'000'000'000'000'000;
inline constexpr double max_seconds = 4000;

// Rounded to the femtosecond; a cost beyond max_time is cut there (the engine refuses such a
// machine before it runs: Pricing::longest_cost).
inline SimTime whole_femtoseconds(long double femtoseconds) {
    return static_cast<SimTime>(
        std::llround(std::min(femtoseconds, static_cast<long double>(max_time))));
}

inline SimTime to_time(double seconds) {
    return whole_femtoseconds(static_cast<long double>(seconds) * femtoseconds_per_second);
}

// bytes x per-byte cost, rounded once: (m - 1) G of a 64 MiB message stays exact to 1 fs.
inline SimTime per_byte_time(std::uint64_t bytes, double seconds_per_byte) {
    return whole_femtoseconds(static_cast<long double>(bytes) *
                              static_cast<long double>(seconds_per_byte) * femtoseconds_per_second);
}

// Of servers free from the given times on (a device's slots, a unit's lanes), the one that a
// request made at `now` takes: the first free by then, else the first of those that free first.
// Requests come in time order, so every server free by `now` is free for every later request
// too: which of them is taken changes nothing, and the search stops at the first (in a replay,
// nearly always the first server looked at). Precondition: servers is not empty.
inline SimTime& server_for(std::span<SimTime> servers, SimTime now) {
    SimTime* earliest = servers.data();
    for (SimTime& server : servers) {
        if (server <= now) return server;
        if (server < *earliest) earliest = &server;
    }
    return *earliest;
}

inline double to_seconds(SimTime time) {
    return static_cast<double>(static_cast<long double>(time) / femtoseconds_per_second);
}

// The latest time t <= max_time with to_seconds(t) <= seconds: any later time reads as more
// than `seconds`. max_time for a limit beyond it (infinity included).
inline SimTime last_time_within(double seconds) {
    if (!(seconds < max_seconds)) return max_time;
    if (seconds < 0) return -1;
    SimTime t = to_time(seconds);
    while (t > 0 && to_seconds(t) > seconds) --t;
    while (to_seconds(t + 1) <= seconds) ++t;
    return t;
}

// A sum of many times (a statistic over millions of transfers may pass 2^63 fs): a 128-bit
// integer, so the total is exact and does not depend on the order of the additions, and an add
// is two instructions (it runs per transfer). Times added are >= 0.
class TimeSum {
  public:
    void add(SimTime time) { total_ += static_cast<std::uint64_t>(time); }
    // Whole seconds plus the femtoseconds left over, each converted on its own.
    [[nodiscard]] double seconds() const {
        const auto whole = static_cast<std::uint64_t>(total_ / per_second);
        const auto rest = static_cast<std::uint64_t>(total_ % per_second);
        return static_cast<double>(static_cast<long double>(whole) +
                                   static_cast<long double>(rest) / femtoseconds_per_second);
    }

  private:
    static constexpr std::uint64_t per_second = 1'000'000'000'000'000;
    unsigned __int128 total_ = 0;
};

}  // namespace piccolo::detail
