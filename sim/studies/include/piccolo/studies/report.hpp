#pragma once
// The HTML report of `select --report` and `compare --report`: one self-contained file (inline
// CSS and SVG, no scripts, nothing fetched) with, by section id: `summary`, `command` (the command
// line), `best-map` (best algorithm and k over size x scale per collective and machine),
// `speedup` (each algorithm's best time over ring/RD, per collective and machine), `differences`
// (where choices differ from the reference machine) and `machines` (their parameters).

#include <string>
#include <string_view>

#include "piccolo/studies/compare.hpp"

namespace piccolo {

std::string report_html(const Comparison& comparison, std::string_view command_line);

}  // namespace piccolo
