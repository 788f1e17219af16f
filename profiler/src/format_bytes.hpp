#pragma once
// Message sizes in the fit's notes and report: "4 MiB", "64 KiB", "3444 B"; and counts of them:
// "1 size", "2 sizes".

#include <fmt/format.h>

#include <cstdint>
#include <string>

namespace piccolo::profiler {

inline std::string format_bytes(double bytes) {
    const auto b = static_cast<std::uint64_t>(bytes);
    if (b >= (1u << 20) && b % (1u << 20) == 0) return fmt::format("{} MiB", b >> 20);
    if (b >= (1u << 10) && b % (1u << 10) == 0) return fmt::format("{} KiB", b >> 10);
    return fmt::format("{} B", b);
}

inline std::string count_sizes(std::size_t n) {
    return fmt::format("{} size{}", n, n == 1 ? "" : "s");
}

}  // namespace piccolo::profiler
