#pragma once
// What-if changes to a machine from the command line: `PATH=VALUE` sets a key, `PATH*FACTOR`
// scales a number. PATH is a level's name and key (`system.G`, `node.radix`) or a top-level key
// (`device_radix`, `sharing`, `compute.reduce_per_byte`); L, o_s, o_r, g and G change every row of
// the level's table. The changed machine is renamed `name[override,...]` so that every output
// says which machine it is about. docs/modelling.md lists the paths.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "piccolo/topologies/machine.hpp"

namespace piccolo {

struct MachineOverride {
    enum class Op : unsigned char { set, scale };
    std::string text;  // as given, e.g. "system.G*0.5": names the override in messages
    std::string path;  // "system.G"
    Op op = Op::set;
    std::string value;  // Op::set: the value's text ("2e11", "fair", "unlimited")
    double factor = 1;  // Op::scale
};

// Throws InputError ("--set TEXT: ...") when TEXT is not PATH=VALUE or PATH*FACTOR with a finite
// number as factor. Whether PATH exists is checked when the override is applied.
MachineOverride parse_override(std::string_view text);

// `machine` with every override applied in order, renamed `name[o1,o2,...]` (unchanged without
// overrides) and validated. Throws one-line InputError naming the override at fault: an unknown
// path, a value of the wrong kind, or a value that makes the machine invalid (validate_machine).
Machine apply_overrides(Machine machine, std::span<const MachineOverride> overrides);

// `PATH=A..B:N`, N >= 2 points from A to B: factors with an `x` (`system.G=0.25x..4x:5`) are
// spaced geometrically and become PATH*F; plain values are spaced evenly and become PATH=V. The
// texts are the shortest that read back to the same numbers, so a point equals `--set` of its
// text. Throws InputError ("--vary SPEC: ...").
std::vector<MachineOverride> parse_vary(std::string_view spec);

// The override texts of one variant: "system.G*0.5,system.L*0.5", or the same separated by blanks
// (`piccolo compare --variant`). Empty when the text holds none; parse each with parse_override.
std::vector<std::string> split_overrides(std::string_view text);

// The paths an override may name on `machine`, for messages and docs ("node.G", "sharing", ...).
std::vector<std::string> override_paths(const Machine& machine);

}  // namespace piccolo
