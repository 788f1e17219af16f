#pragma once
// Machine files at the edge: YAML (piccolo's own format, also what the profiler writes), PICCL's
// topology XML with its CSV profiles, and the presets compiled into the binary.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "piccolo/machine.hpp"

namespace piccolo {

// All loaders throw InputError with "FILE:LINE: field: problem (how to fix)".
Machine load_machine_yaml(const std::filesystem::path& file);
Machine parse_machine_yaml(std::string_view text, const std::string& origin);
std::string machine_to_yaml(const Machine& machine);

// PICCL: <topo><group level=".." id=".." param_file="x.csv" ports=".."><node id=".."/>...
Machine load_piccl_topology(const std::filesystem::path& xml_file);
// Columns s,L,o_s,o_r,g,G. PICCL's L is half a round trip and includes o_s + o_r; the loader
// converts it to piccolo's wire latency L - o_s - o_r (at least 0).
LogGPTable load_loggp_csv(const std::filesystem::path& csv_file);
LogGPTable parse_loggp_csv(std::string_view text, const std::string& origin);

// Presets shipped in configs/machines/ and embedded in the binary.
std::vector<std::string> preset_names();
std::string_view default_preset_name();      // "delta"
Machine load_preset(std::string_view name);  // throws InputError listing the known names
// The preset's YAML text as shipped (with its source comments); throws like load_preset.
std::string_view preset_yaml(std::string_view name);
// A preset name or a path to a YAML / PICCL XML file.
Machine load_machine(std::string_view name_or_file);

}  // namespace piccolo
