#pragma once
// Command-line quantities: byte sizes with binary suffixes ("64KiB", "2MiB") and lists.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace piccolo::cli {

// "8", "8B", "64KiB", "2MiB", "1GiB" (also KB/MB/GB = powers of 1000). Throws InputError naming
// `option` on anything else, zero included.
std::uint64_t parse_bytes(std::string_view text, std::string_view option);
std::string format_bytes(std::uint64_t bytes);  // "64KiB", "1000B", "3MiB"

}  // namespace piccolo::cli
