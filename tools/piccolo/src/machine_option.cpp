#include "machine_option.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "piccolo/topologies/machine_io.hpp"
#include "piccolo/topologies/machine_override.hpp"

namespace piccolo::cli {

void add_set_option(CLI::App& command, std::vector<std::string>& sets) {
    command.add_option("--set", sets,
                       "change the machine: PATH=VALUE or PATH*FACTOR, PATH a level's key "
                       "(system.G, node.radix; L, o_s, o_r, g, G change every row) or a top-level "
                       "key (device_radix, sharing, compute.reduce_per_byte); repeatable; the "
                       "machine is renamed NAME[overrides] (docs/modelling.md)");
}

Machine load_machine_and_warn(std::string_view name_or_file) {
    ImportWarnings warnings;
    Machine machine = load_machine(name_or_file, &warnings);
    for (const std::string& warning : warnings)
        fmt::print(stderr, "piccolo: warning: {}\n", warning);
    return machine;
}

Machine load_machine_with(std::string_view name_or_file, const std::vector<std::string>& sets) {
    std::vector<MachineOverride> overrides;
    for (const std::string& text : sets) overrides.push_back(parse_override(text));
    return apply_overrides(load_machine_and_warn(name_or_file), overrides);
}

}  // namespace piccolo::cli
