#pragma once
// The --set option of every command that takes a machine (sim, select, machines, compare): one
// spelling, one help text; the overrides themselves live in
// piccolo/topologies/machine_override.hpp.

#include <string>
#include <string_view>
#include <vector>

#include "piccolo/topologies/machine.hpp"

namespace CLI {
class App;
}

namespace piccolo::cli {

// Adds the repeatable --set PATH=VALUE / PATH*FACTOR to `command`.
void add_set_option(CLI::App& command, std::vector<std::string>& sets);
// The machine `name_or_file` (preset or file); what the loader changed in the values it read is
// printed on stderr, one "piccolo: warning: FILE:LINE: ..." line each.
Machine load_machine_and_warn(std::string_view name_or_file);
// The machine `name_or_file` (as load_machine_and_warn) with the --set overrides applied, in order.
Machine load_machine_with(std::string_view name_or_file, const std::vector<std::string>& sets);

}  // namespace piccolo::cli
