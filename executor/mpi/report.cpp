#include "report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>
#include <ostream>

namespace piccolo::exec {

namespace {

std::string placement(const RunHeader& h) {
    return h.ranks_per_node > 0
               ? fmt::format("{} ranks on {} node(s) of {}", h.ranks, h.nodes, h.ranks_per_node)
               : fmt::format("{} ranks on {} node(s) of unequal size", h.ranks, h.nodes);
}

}  // namespace

void print_table(std::ostream& out, const RunHeader& h, const std::vector<Row>& rows) {
    fmt::print(out, "# {} on {}, {}, {}, {}\n", h.tool, h.host, placement(h), h.mpi_library,
               h.date);
    fmt::print(out, "{:<10} {:<14} {:>3} {:<9} {:>9} {:<6} {:>11} {:>23} {:>5}\n", "collective",
               "algorithm", "k", "style", "bytes", "type", "median_us", "95% CI (us)", "runs");
    for (const Row& r : rows) {
        fmt::print(
            out, "{:<10} {:<14} {:>3} {:<9} {:>9} {:<6} {:>11.3f} {:>11.3f}-{:<11.3f} {:>5}\n",
            r.collective, r.algorithm, r.k == 0 ? std::string("-") : std::to_string(r.k), r.style,
            r.bytes, r.element, r.median_s * 1e6, r.ci_low_s * 1e6, r.ci_high_s * 1e6, r.runs);
    }
}

// The header as "# key: value" lines, which `piccolo accuracy` reads back (docs/accuracy.md).
void write_csv(std::ostream& out, const RunHeader& h, const std::vector<Row>& rows) {
    fmt::print(out, "# {} measurements\n# host: {}\n# date: {}\n# mpi_library: {}\n", h.tool,
               h.host, h.date, h.mpi_library);
    fmt::print(out, "# ranks: {}\n# nodes: {}\n# ranks_per_node: {}\n", h.ranks, h.nodes,
               h.ranks_per_node);
    fmt::print(out, "# ranks_per_host: {}\n# cores_per_host: {}\n# root: {}\n# command: {}\n",
               h.ranks_per_host, h.cores_per_host, h.root, h.command_line);
    out << "collective,algorithm,k,style,bytes,type,median_s,ci_low_s,ci_high_s,runs,staged_bytes,"
           "dropped_waits\n";
    for (const Row& r : rows)
        fmt::print(out, "{},{},{},{},{},{},{:.9g},{:.9g},{:.9g},{},{},{}\n", r.collective,
                   r.algorithm, r.k, r.style, r.bytes, r.element, r.median_s, r.ci_low_s,
                   r.ci_high_s, r.runs, r.staged_bytes, r.dropped_waits);
}

void write_json(std::ostream& out, const RunHeader& h, const std::vector<Row>& rows) {
    nlohmann::json doc{{"tool", h.tool},
                       {"host", h.host},
                       {"date", h.date},
                       {"mpi_library", h.mpi_library},
                       {"ranks", h.ranks},
                       {"nodes", h.nodes},
                       {"ranks_per_node", h.ranks_per_node},
                       {"ranks_per_host", h.ranks_per_host},
                       {"cores_per_host", h.cores_per_host},
                       {"root", h.root},
                       {"command", h.command_line}};
    nlohmann::json list = nlohmann::json::array();
    for (const Row& r : rows)
        list.push_back({{"collective", r.collective},
                        {"algorithm", r.algorithm},
                        {"k", r.k},
                        {"style", r.style},
                        {"bytes", r.bytes},
                        {"type", r.element},
                        {"median_s", r.median_s},
                        {"ci_low_s", r.ci_low_s},
                        {"ci_high_s", r.ci_high_s},
                        {"runs", r.runs},
                        {"staged_bytes", r.staged_bytes},
                        {"dropped_waits", r.dropped_waits}});
    doc["rows"] = std::move(list);
    out << doc.dump(1) << '\n';
}

}  // namespace piccolo::exec
