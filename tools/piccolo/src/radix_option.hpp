#pragma once
// The -k/--radix option that gen and sim share: absent and given are told apart, so that a radix
// given to an algorithm without one is refused instead of ignored.

#include <optional>
#include <string>
#include <string_view>

#include "piccolo/schedules/schedule.hpp"

namespace CLI {
class App;
}

namespace piccolo::cli {

// Adds -k/--radix to `command`.
void add_radix_option(CLI::App& command, std::optional<int>& k, const std::string& help);
// The k of a GenerateRequest: the one given, else 0 (the radix algorithms then refuse it).
// A k given to an algorithm without a radix that builds `collective` throws InputError
// (no_radix_message); one that does not build it is left to generate(), whose refusal names the
// algorithms that do.
int radix_for(const std::optional<int>& k, std::string_view algorithm, Collective collective);

}  // namespace piccolo::cli
