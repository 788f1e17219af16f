#pragma once
// Helpers shared by the machine model and its loaders (private to topologies/).

#include <optional>
#include <string>
#include <string_view>

namespace piccolo::detail {

// Shortest text that reads back as the same double ("1e-06", "nan", "2.5").
std::string format_number(double value);

// Why `value` is not a valid LogGP parameter or size (finite and >= 0), or nothing if it is.
std::optional<std::string> nonnegative_problem(double value);

// Parses a whole string as a double: decimal or exponent notation, an optional leading '+',
// and YAML's .nan / .inf / -.inf spellings as well as nan / inf. Nothing if it is not a number.
std::optional<double> parse_double(std::string_view text);

// Parses a whole string as a decimal int (optional sign). Nothing if not an int or out of range.
std::optional<int> parse_int(std::string_view text);

}  // namespace piccolo::detail
