#include "size_parse.hpp"

#include <fmt/format.h>
#include <array>
#include <charconv>
#include <limits>
#include <utility>

#include "piccolo/error.hpp"

namespace piccolo::cli {

namespace {

constexpr std::array<std::pair<std::string_view, std::uint64_t>, 8> suffixes{{
    {"", 1},
    {"B", 1},
    {"KiB", 1ULL << 10},
    {"MiB", 1ULL << 20},
    {"GiB", 1ULL << 30},
    {"KB", 1000},
    {"MB", 1000 * 1000},
    {"GB", 1000 * 1000 * 1000},
}};

}  // namespace

std::uint64_t parse_bytes(std::string_view text, std::string_view option) {
    std::uint64_t number = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    const std::string_view suffix(end, static_cast<std::size_t>(text.data() + text.size() - end));
    auto bad = [&](std::string_view why) {
        return InputError(
            fmt::format("{}: '{}' {} (use a whole number of bytes with an optional "
                        "B, KiB, MiB or GiB suffix, e.g. 64KiB)",
                        option, text, why));
    };
    if (error != std::errc() || end == text.data()) throw bad("is not a size");
    for (const auto& [name, scale] : suffixes) {
        if (suffix != name) continue;
        if (number == 0) throw bad("must be at least 1 byte");
        if (number > std::numeric_limits<std::uint64_t>::max() / scale) throw bad("is too large");
        return number * scale;
    }
    throw bad("has an unknown unit");
}

std::string format_bytes(std::uint64_t bytes) {
    for (auto [name, shift] : {std::pair{"GiB", 30}, {"MiB", 20}, {"KiB", 10}})
        if (bytes >= (1ULL << shift) && bytes % (1ULL << shift) == 0)
            return fmt::format("{}{}", bytes >> shift, name);
    return fmt::format("{}B", bytes);
}

}  // namespace piccolo::cli
