#pragma once
// Quantities as the command lines read and write them (piccolo, piccolo-run-mpi, the benchmarks):
// byte sizes with binary suffixes ("64KiB", "2MiB") and lists.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace piccolo {

// "8", "8B", "64KiB", "2MiB", "1GiB" (also KB/MB/GB = powers of 1000). Throws InputError naming
// `option` on anything else, zero included.
std::uint64_t parse_bytes(std::string_view text, std::string_view option);
std::string format_bytes(std::uint64_t bytes);  // "64KiB", "1000B", "3MiB"

// "2,4,8" and "a-b" ranges (items as CLI11 splits them at commas). `doubling`: a range doubles
// from a to b (node counts); else every integer. Throws InputError naming `option`.
std::vector<int> parse_int_list(const std::vector<std::string>& items, std::string_view option,
                                bool doubling);
// Sizes for --sizes: "8,1KiB,64MiB" and ranges "8-64MiB" (doubling from the first to the last).
std::vector<std::uint64_t> parse_size_list(const std::vector<std::string>& items);

}  // namespace piccolo
