#include "piccolo/core/size_parse.hpp"

#include <fmt/format.h>
#include <array>
#include <charconv>
#include <limits>
#include <utility>

#include "piccolo/core/error.hpp"

namespace piccolo {

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

namespace {

long long parse_integer(std::string_view text, std::string_view option) {
    long long value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        throw InputError(
            fmt::format("{}: '{}' is not a whole number (use a list such as 2,4,8 "
                        "or a range a-b)",
                        option, text));
    return value;
}

}  // namespace

// "2,4,8" and "a-b" ranges. `doubling`: a range doubles from a to b (nodes); else every integer.
std::vector<int> parse_int_list(const std::vector<std::string>& items, std::string_view option,
                                bool doubling) {
    std::vector<int> out;
    for (const std::string& item : items) {
        if (item.empty()) continue;
        const std::size_t dash = item.find('-', 1);
        if (dash == std::string::npos) {
            out.push_back(static_cast<int>(parse_integer(item, option)));
            continue;
        }
        const long long first = parse_integer(std::string_view(item).substr(0, dash), option);
        const long long last = parse_integer(std::string_view(item).substr(dash + 1), option);
        if (first < 1 || last < first || last > 1'000'000)
            throw InputError(
                fmt::format("{}: '{}' is not a range a-b with 1 <= a <= b", option, item));
        for (long long v = first; v <= last; v = doubling ? v * 2 : v + 1)
            out.push_back(static_cast<int>(v));
    }
    return out;
}

// Sizes: "8,1KiB,64MiB" and ranges "8-64MiB" (doubling from the first to the last).
std::vector<std::uint64_t> parse_size_list(const std::vector<std::string>& items) {
    std::vector<std::uint64_t> out;
    for (const std::string& item : items) {
        if (item.empty()) continue;
        const std::size_t dash = item.find('-', 1);
        if (dash == std::string::npos) {
            out.push_back(parse_bytes(item, "--sizes"));
            continue;
        }
        const std::uint64_t first = parse_bytes(item.substr(0, dash), "--sizes");
        const std::uint64_t last = parse_bytes(item.substr(dash + 1), "--sizes");
        if (last < first)
            throw InputError(fmt::format("--sizes: '{}' is not a range a-b with a <= b", item));
        for (std::uint64_t v = first; v <= last && v != 0; v *= 2) out.push_back(v);
    }
    if (out.empty())
        throw InputError(
            "--sizes: empty list (give message sizes such as 8,1KiB,64MiB or a "
            "range 8-64MiB)");
    return out;
}

}  // namespace piccolo
