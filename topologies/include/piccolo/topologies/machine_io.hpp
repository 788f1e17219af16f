#pragma once
// Machine files at the edge: YAML (piccolo's own format, also what the profiler writes), PICCL's
// topology XML with its CSV profiles, and the presets compiled into the binary.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "piccolo/topologies/machine.hpp"

namespace piccolo {

// All loaders throw InputError with "FILE:LINE: field: problem (how to fix)".
//
// Where a loader keeps going with a value other than the one written (PICCL's L below o_s + o_r
// becomes a wire latency of 0), it appends one line "FILE:LINE: field: what changed" to
// `warnings` when given; the CLI prints them as "piccolo: warning: ...".
using ImportWarnings = std::vector<std::string>;
Machine load_machine_yaml(const std::filesystem::path& file);
Machine parse_machine_yaml(std::string_view text, const std::string& origin);
std::string machine_to_yaml(const Machine& machine);

// PICCL: <topo><group level=".." id=".." param_file="x.csv" ports=".."><node id=".."/>...
Machine load_piccl_topology(const std::filesystem::path& xml_file,
                            ImportWarnings* warnings = nullptr);
// Columns s,L,o_s,o_r,g,G. PICCL's L is half a round trip and includes o_s + o_r; the loader
// converts it to piccolo's wire latency L - o_s - o_r; a negative difference becomes 0, with a
// warning.
LogGPTable load_loggp_csv(const std::filesystem::path& csv_file,
                          ImportWarnings* warnings = nullptr);
LogGPTable parse_loggp_csv(std::string_view text, const std::string& origin,
                           ImportWarnings* warnings = nullptr);

// Presets shipped in configs/machines/ and embedded in the binary.
std::vector<std::string> preset_names();
std::string_view default_preset_name();      // "delta"
Machine load_preset(std::string_view name);  // throws InputError listing the known names
// The preset's YAML text as shipped (with its source comments); throws like load_preset.
std::string_view preset_yaml(std::string_view name);
// A preset name or a path to a YAML / PICCL XML file.
Machine load_machine(std::string_view name_or_file, ImportWarnings* warnings = nullptr);

}  // namespace piccolo
