#pragma once
// Simulated time: whole femtoseconds in a signed 64-bit integer. Integer time makes every sum
// exact, so equal times are real ties (broken by task id) and never depend on rounding or on the
// order in which costs were added up. A femtosecond resolves every parameter a machine file
// gives with up to ten significant digits; per-byte costs are multiplied out in extended
// precision and rounded once per (level, size). The range, 2^63 fs, is about 2.5 hours.

#include <cmath>
#include <cstdint>
#include <limits>

namespace piccolo::detail {

using SimTime = std::int64_t;

inline constexpr SimTime never = std::numeric_limits<SimTime>::max();  // not known (yet)
inline constexpr long double femtoseconds_per_second = 1e15L;
// The longest simulated time allowed, with room to add a few costs without overflow.
inline constexpr double max_seconds = 4e18 / 1e15;

inline SimTime to_time(double seconds) {
    return static_cast<SimTime>(
        std::llround(static_cast<long double>(seconds) * femtoseconds_per_second));
}

// bytes x per-byte cost, rounded once: (m - 1) G of a 64 MiB message stays exact to 1 fs.
inline SimTime per_byte_time(std::uint64_t bytes, double seconds_per_byte) {
    return static_cast<SimTime>(
        std::llround(static_cast<long double>(bytes) * static_cast<long double>(seconds_per_byte) *
                     femtoseconds_per_second));
}

inline double to_seconds(SimTime time) {
    return static_cast<double>(static_cast<long double>(time) / femtoseconds_per_second);
}

}  // namespace piccolo::detail
