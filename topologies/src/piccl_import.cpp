// Importers for PICCL's machine description (github.com/PICCL-Project/PICCL, tools/loggp_sim):
// the topology XML read by parser.py:parse_topology and the LogGP CSV profiles read by
// parser.py:parse_loggp_param. How PICCL's notions map onto piccolo's is documented in
// configs/README.md ("Importing PICCL files").

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include <fmt/format.h>
#include <pugixml.hpp>

#include "detail.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/core/input_file.hpp"
#include "piccolo/core/text.hpp"
#include "piccolo/topologies/machine_io.hpp"

namespace piccolo {

namespace {

std::string_view trim(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r");
    return text.substr(first, last - first + 1);
}

std::vector<std::string_view> split(std::string_view line, char separator) {
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    while (true) {
        const auto end = line.find(separator, start);
        fields.push_back(
            trim(line.substr(start, end == std::string_view::npos ? end : end - start)));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return fields;
}

constexpr std::array<std::string_view, 6> kCsvColumns{"s", "L", "o_s", "o_r", "g", "G"};

// values: one row s, L, o_s, o_r, g, G whose L - o_s - o_r is negative.
std::string negative_latency_warning(const std::string& file, int line, const double* values) {
    return fmt::format(
        "{}:{}: column L: L - o_s - o_r = {} - {} - {} = {:.6g} s is below 0; the wire latency "
        "for s = {} is set to 0 (o_s + o_r alone exceed this half round trip)",
        file, line, detail::format_number(values[1]), detail::format_number(values[2]),
        detail::format_number(values[3]), values[1] - values[2] - values[3],
        detail::format_number(values[0]));
}

// ---- PICCL topology XML ----

struct GroupInfo {
    int level = 0;
    int line = 0;
    std::filesystem::path param_file;  // resolved
    std::optional<int> ports;          // as written; nullopt = attribute absent
    std::optional<int> radix;          // PICCL meaning: level 0 defaults to 1 port
    std::size_t children = 0;
};

class PicclTopologyReader {
  public:
    PicclTopologyReader(std::filesystem::path file, ImportWarnings* warnings)
        : file_(std::move(file)), warnings_(warnings) {}

    Machine read() {
        text_ = read_input_file(file_, "PICCL topology", kMaxMachineFileBytes);
        for (std::size_t at = text_.find('\n'); at != std::string::npos;
             at = text_.find('\n', at + 1))
            newline_offsets_.push_back(at);
        pugi::xml_document doc;
        const pugi::xml_parse_result parsed =
            doc.load_buffer(text_.data(), text_.size(), pugi::parse_default, pugi::encoding_utf8);
        if (!parsed) {
            throw InputError(fmt::format("{}:{}: XML error: {}", file_.string(),
                                         line_at(parsed.offset), parsed.description()));
        }
        const pugi::xml_node topo = doc.document_element();
        if (std::string_view(topo.name()) != "topo") {
            fail(topo, fmt::format("expected a PICCL <topo> root element (got <{}>)",
                                   excerpt(topo.name())));
        }
        check_attributes(topo, {"num_nodes", "num_levels"});

        std::vector<pugi::xml_node> roots;
        for (const pugi::xml_node child : topo.children()) {
            if (child.type() != pugi::node_element) continue;
            if (std::string_view(child.name()) != "group") {
                fail(child, fmt::format("<topo> may only contain <group> elements (got <{}>)",
                                        excerpt(child.name())));
            }
            roots.push_back(child);
        }
        if (roots.size() != 1) {
            fail(topo, fmt::format("needs exactly one outermost <group> (the whole system) so "
                                   "every pair of devices shares a group; got {}",
                                   roots.size()));
        }
        const int top_level = attribute_int(roots.front(), "level");
        if (top_level < 0 || top_level >= kMaxLevels)
            fail(roots.front(), fmt::format("level: must be 0..{} (piccolo models at most {} "
                                            "levels), got {}",
                                            kMaxLevels - 1, kMaxLevels, top_level));
        groups_by_level_.resize(static_cast<std::size_t>(top_level) + 1);
        read_group(roots.front(), top_level);

        if (const pugi::xml_attribute a = topo.attribute("num_levels")) {
            const int expected = attribute_int(topo, "num_levels");
            if (expected != top_level + 1) {
                fail(topo, fmt::format("num_levels=\"{}\" but the groups have levels 0..{}",
                                       excerpt(a.value()), top_level));
            }
        }
        if (topo.attribute("num_nodes")) {
            const int expected = attribute_int(topo, "num_nodes");
            if (expected != static_cast<int>(device_node_.size())) {
                fail(topo, fmt::format("num_nodes=\"{}\" but the topology lists {} <node> elements",
                                       expected, device_node_.size()));
            }
        }
        return build(top_level);
    }

  private:
    [[noreturn]] void fail(const pugi::xml_node& at, std::string_view problem) const {
        throw InputError(
            fmt::format("{}:{}: {}", file_.string(), line_at(at.offset_debug()), problem));
    }

    [[noreturn]] void fail_group(const pugi::xml_node& group, std::string_view problem) const {
        fail(group, fmt::format("<group level=\"{}\" id=\"{}\">: {}",
                                excerpt(group.attribute("level").value(), 40),
                                excerpt(group.attribute("id").value(), 40), problem));
    }

    // Binary search over newline offsets taken once: counting newlines from the start for
    // every element made large topologies quadratic.
    [[nodiscard]] int line_at(std::ptrdiff_t offset) const {
        if (offset < 0) return 1;
        const auto at = static_cast<std::size_t>(offset);
        return 1 + static_cast<int>(
                       std::lower_bound(newline_offsets_.begin(), newline_offsets_.end(), at) -
                       newline_offsets_.begin());
    }

    void check_attributes(const pugi::xml_node& element,
                          std::initializer_list<std::string_view> known) const {
        for (const pugi::xml_attribute a : element.attributes()) {
            if (std::find(known.begin(), known.end(), a.name()) == known.end()) {
                std::string list;
                for (std::string_view k : known)
                    list += fmt::format("{}{}", list.empty() ? "" : ", ", k);
                fail(element, fmt::format("<{}>: unknown attribute '{}' (known: {})",
                                          element.name(), excerpt(a.name()), list));
            }
        }
    }

    int attribute_int(const pugi::xml_node& element, const char* name) const {
        const pugi::xml_attribute a = element.attribute(name);
        if (!a) fail(element, fmt::format("<{}>: missing attribute {}", element.name(), name));
        const std::optional<int> value = detail::parse_int(trim(a.value()));
        if (!value) {
            fail(element, fmt::format("<{}>: {}=\"{}\" is not a whole number", element.name(), name,
                                      excerpt(a.value())));
        }
        return *value;
    }

    // PICCL resolves relative paths against its repository root; piccolo tries the topology's
    // folder, then each folder above it (which finds PICCL's root for files inside PICCL), then
    // the current directory. The first candidate keeps the topology's own spelling, so error
    // messages show the path the way the user wrote the topology's.
    // Many groups name the same file: each spelling is looked up once.
    std::filesystem::path resolve(const pugi::xml_node& group, std::string_view written) {
        const auto known = resolved_.find(std::string(written));
        if (known != resolved_.end()) return known->second;
        std::filesystem::path found = search(group, written);
        resolved_.emplace(std::string(written), found);
        return found;
    }

    std::filesystem::path search(const pugi::xml_node& group, std::string_view written) const {
        const std::filesystem::path path(written);
        if (path.is_absolute()) {
            if (input_file_exists(path)) return path;
        } else {
            const std::filesystem::path beside = file_.parent_path() / path;
            if (input_file_exists(beside)) return beside;
            std::error_code unknown_folder;
            std::filesystem::path folder =
                std::filesystem::absolute(file_, unknown_folder).parent_path();
            while (folder.has_relative_path()) {
                folder = folder.parent_path();
                if (input_file_exists(folder / path)) return folder / path;
            }
            if (input_file_exists(path)) return path;
        }
        fail_group(group, fmt::format("param_file \"{}\" not found (looked beside the topology, "
                                      "in the folders above it and in the current directory)",
                                      excerpt(written)));
    }

    void read_group(const pugi::xml_node& group, int expected_level) {
        check_attributes(group, {"level", "id", "param_file", "ports", "nics"});
        GroupInfo info;
        info.level = attribute_int(group, "level");
        if (info.level != expected_level) {
            fail_group(group, fmt::format("level must be {} here: each <group> nests in the "
                                          "group one level above it",
                                          expected_level));
        }
        attribute_int(group, "id");  // PICCL requires an integer id; piccolo does not use it
        info.line = line_at(group.offset_debug());
        const pugi::xml_attribute param = group.attribute("param_file");
        if (!param || trim(param.value()).empty()) {
            fail_group(group, "missing attribute param_file (a CSV profile s,L,o_s,o_r,g,G)");
        }
        info.param_file = resolve(group, trim(param.value()));
        if (group.attribute("ports")) {
            const int ports = attribute_int(group, "ports");
            if (ports == 0 || ports < -1) {
                fail_group(group,
                           fmt::format("ports=\"{}\": must be >= 1, or -1 for unlimited", ports));
            }
            info.ports = ports;
            if (ports > 0) info.radix = ports;
        } else if (info.level == 0) {
            info.radix = 1;  // parser.py: int(group.get("ports", 1))
        }

        for (const pugi::xml_node child : group.children()) {
            if (child.type() != pugi::node_element) continue;
            const std::string_view name = child.name();
            if (info.level == 0) {
                if (name != "node") {
                    fail_group(group, fmt::format("a level 0 group (one machine node) may only "
                                                  "contain <node id=\"rank\"/> elements (got <{}>)",
                                                  excerpt(name)));
                }
                check_attributes(child, {"id"});
                const int rank = attribute_int(child, "id");
                if (rank < 0) fail(child, fmt::format("<node id=\"{}\">: must be >= 0", rank));
                if (!device_node_.emplace(rank, std::pair{nodes_, line_at(child.offset_debug())})
                         .second) {
                    fail(child, fmt::format("<node id=\"{}\"> appears twice", rank));
                }
            } else {
                if (name != "group") {
                    fail_group(group, fmt::format("a group of level >= 1 may only contain "
                                                  "<group> elements (got <{}>)",
                                                  excerpt(name)));
                }
                read_group(child, info.level - 1);
            }
            ++info.children;
        }
        if (info.children == 0) fail_group(group, "is empty");
        if (info.level == 0) ++nodes_;
        groups_by_level_[static_cast<std::size_t>(info.level)].push_back(std::move(info));
    }

    Machine build(int top_level) const {
        Machine machine;
        machine.name = file_.stem().string();
        machine.description = fmt::format("imported from PICCL topology {}", file_.string());
        std::map<std::filesystem::path, LogGPTable> tables;
        for (int level = 0; level <= top_level; ++level) {
            const auto& groups = groups_by_level_[static_cast<std::size_t>(level)];
            const GroupInfo& first = groups.front();
            Level out;
            out.name = level == 0           ? "node"
                       : level == top_level ? "system"
                                            : fmt::format("group{}", level);
            out.radix = first.radix;
            // The outermost group is the whole system. A PICCL topology describes exactly its
            // groups, so its fanout bounds the system to them (RankLayout checks runs fit).
            out.fanout = static_cast<int>(first.children);
            for (const GroupInfo& g : groups) {
                if (g.children != first.children) {
                    throw InputError(fmt::format(
                        "{}:{}: level {} groups differ in size ({} here, {} in the group on line "
                        "{}); piccolo's machine model needs every group of a level to be the "
                        "same size",
                        file_.string(), g.line, level, g.children, first.children, first.line));
                }
                if (g.radix != first.radix) {
                    throw InputError(fmt::format(
                        "{}:{}: level {} groups differ in ports; piccolo has one radix per level "
                        "(line {} has a different value)",
                        file_.string(), g.line, level, first.line));
                }
                auto [it, inserted] = tables.try_emplace(g.param_file);
                if (inserted) it->second = load_loggp_csv(g.param_file, warnings_);
                if (g.param_file != first.param_file && it->second != tables.at(first.param_file)) {
                    throw InputError(fmt::format(
                        "{}:{}: level {} groups use different LogGP profiles ({} and {} on line "
                        "{}); piccolo has one table per level",
                        file_.string(), g.line, level, g.param_file.string(),
                        first.param_file.string(), first.line));
                }
            }
            out.loggp = tables.at(first.param_file);
            machine.levels.push_back(std::move(out));
        }
        if (top_level == 0) {
            // One machine node: add a system level of one node (its table is never used).
            Level system;
            system.name = "system";
            system.fanout = 1;
            system.loggp = machine.levels.front().loggp;
            machine.levels.push_back(std::move(system));
        }

        // Ranks must be 0..n-1. Block order (rank r on node r / devices) needs no list.
        const int devices = machine.levels.front().fanout;
        bool block = true;
        int expected_rank = 0;
        for (const auto& [rank, where] : device_node_) {
            if (rank != expected_rank) {
                throw InputError(fmt::format(
                    "{}:{}: <node id=\"{}\">: the ids must be the ranks 0..{} without gaps (rank "
                    "{} "
                    "is missing)",
                    file_.string(), where.second, rank, device_node_.size() - 1, expected_rank));
            }
            block = block && where.first == rank / devices;
            ++expected_rank;
        }
        if (!block) {
            machine.placement.kind = PlacementKind::explicit_list;
            for (const auto& [rank, where] : device_node_) {
                machine.placement.node_of_rank.push_back(where.first);
            }
        }
        try {
            validate_machine(machine);
        } catch (const InputError& error) {
            throw InputError(fmt::format("{}: {}", file_.string(), error.what()));
        }
        return machine;
    }

    std::filesystem::path file_;
    ImportWarnings* warnings_;  // may be null
    std::string text_;
    std::vector<std::size_t> newline_offsets_;               // of text_, ascending
    std::map<std::string, std::filesystem::path> resolved_;  // param_file as written -> found
    std::vector<std::vector<GroupInfo>> groups_by_level_;    // [level] in document order
    std::map<int, std::pair<int, int>> device_node_;  // PICCL <node id> (rank) -> (node, line)
    int nodes_ = 0;                                   // level 0 groups seen so far
};

}  // namespace

LogGPTable load_loggp_csv(const std::filesystem::path& csv_file, ImportWarnings* warnings) {
    return parse_loggp_csv(read_input_file(csv_file, "LogGP profile", kMaxMachineFileBytes),
                           csv_file.string(), warnings);
}

LogGPTable parse_loggp_csv(std::string_view csv_text, const std::string& file,
                           ImportWarnings* warnings) {
    const std::string text(strip_utf8_bom(csv_text));
    const std::string header_hint =
        "PICCL LogGP profiles are CSV with the header s,L,o_s,o_r,g,G (bytes, then seconds, "
        "G in seconds per byte)";
    std::vector<LogGPRow> rows;
    std::istringstream lines(text);
    std::string raw;
    int line_number = 0;
    bool header_seen = false;
    while (std::getline(lines, raw)) {
        ++line_number;
        const std::string_view line = trim(raw);
        if (line.empty()) continue;
        const std::vector<std::string_view> fields = split(line, ',');
        if (!header_seen) {
            if (!std::equal(fields.begin(), fields.end(), kCsvColumns.begin(), kCsvColumns.end())) {
                throw InputError(
                    fmt::format("{}:{}: expected the header s,L,o_s,o_r,g,G (got '{}'); "
                                "{}",
                                file, line_number, excerpt(line), header_hint));
            }
            header_seen = true;
            continue;
        }
        if (fields.size() != kCsvColumns.size()) {
            throw InputError(fmt::format("{}:{}: expected 6 columns s,L,o_s,o_r,g,G (got {})", file,
                                         line_number, fields.size()));
        }
        double values[6];
        for (std::size_t c = 0; c < fields.size(); ++c) {
            const std::optional<double> value = detail::parse_double(fields[c]);
            if (!value) {
                throw InputError(fmt::format("{}:{}: column {}: expected a number (got '{}')", file,
                                             line_number, kCsvColumns[c], excerpt(fields[c])));
            }
            if (auto problem = detail::nonnegative_problem(*value)) {
                throw InputError(fmt::format("{}:{}: column {}: {}", file, line_number,
                                             kCsvColumns[c], *problem));
            }
            values[c] = *value;
        }
        // PICCL's fit sets L = PRTT(1,0,s)/2, half a round trip, which already contains o_s + o_r;
        // piccolo's L is the wire latency alone (profiler/README.md), so the overheads come off
        // here rather than being counted twice in every message. Never below zero: the
        // overheads measured apart can exceed the half round trip; the user hears of it.
        const double wire_latency = std::max(0.0, values[1] - values[2] - values[3]);
        if (warnings != nullptr && values[1] - values[2] - values[3] < 0)
            warnings->push_back(negative_latency_warning(file, line_number, values));
        LogGPRow row{values[0], LogGP{wire_latency, values[2], values[3], values[4], values[5]}};
        if (!rows.empty() && !(row.bytes > rows.back().bytes)) {
            throw InputError(fmt::format(
                "{}:{}: column s: sizes must increase strictly ({} after {}); sort the rows by s "
                "and drop duplicates",
                file, line_number, detail::format_number(row.bytes),
                detail::format_number(rows.back().bytes)));
        }
        rows.push_back(row);
    }
    if (!header_seen) throw InputError(fmt::format("{}: empty file; {}", file, header_hint));
    if (rows.empty()) {
        throw InputError(
            fmt::format("{}: no data rows after the header (need at least one)", file));
    }
    return LogGPTable(std::move(rows));
}

Machine load_piccl_topology(const std::filesystem::path& xml_file, ImportWarnings* warnings) {
    return PicclTopologyReader(xml_file, warnings).read();
}

}  // namespace piccolo
