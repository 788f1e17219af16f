// piccolo's machine YAML: reader with one-line, field-naming errors, and a writer whose output
// reads back to an equal Machine. The schema is documented in configs/README.md.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <utility>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "detail.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/core/input_file.hpp"
#include "piccolo/core/text.hpp"
#include "piccolo/topologies/machine_io.hpp"

namespace piccolo {

namespace {

constexpr std::array<std::string_view, 8> kTopKeys{
    "name", "description", "device_radix", "levels", "compute", "placement", "sharing", "style"};
constexpr std::array<std::string_view, 13> kLevelKeys{
    "name", "fanout", "radix", "overhead", "rendezvous", "capacity", "reclaim_per_byte",
    "loggp", "L",     "o_s",   "o_r",      "g",          "G"};
constexpr std::array<std::string_view, 6> kRowKeys{"s", "L", "o_s", "o_r", "g", "G"};
constexpr std::array<std::string_view, 4> kComputeKeys{"reduce_per_byte", "permute_latency",
                                                       "permute_per_byte", "copy_per_byte"};

// The five LogGP parameters, their member and their unit (for "expected a number in ...").
struct ParameterInfo {
    std::string_view key;
    double LogGP::*member;
    std::string_view unit;
};
constexpr std::array<ParameterInfo, 5> kParameters{{
    {"L", &LogGP::L, "seconds"},
    {"o_s", &LogGP::o_s, "seconds"},
    {"o_r", &LogGP::o_r, "seconds"},
    {"g", &LogGP::g, "seconds"},
    {"G", &LogGP::G, "seconds per byte"},
}};

std::string join(std::span<const std::string_view> words) {
    std::string out;
    for (std::string_view word : words) {
        if (!out.empty()) out += ", ";
        out += word;
    }
    return out;
}

// A key of a YAML mapping with its value; the key node carries the line of the entry.
struct Entry {
    YAML::Node key;
    YAML::Node value;
};

class Entries {
  public:
    [[nodiscard]] const Entry* find(std::string_view key) const {
        for (const auto& [name, entry] : items_) {
            if (name == key) return &entry;
        }
        return nullptr;
    }
    void add(std::string name, Entry entry) { items_.emplace_back(std::move(name), entry); }
    [[nodiscard]] bool has(std::string_view key) const { return find(key) != nullptr; }

  private:
    std::vector<std::pair<std::string, Entry>> items_;
};

class YamlMachineReader {
  public:
    explicit YamlMachineReader(std::string origin) : origin_(std::move(origin)) {}

    Machine read(const YAML::Node& root) {
        if (!root.IsMap()) {
            fail(root, "",
                 fmt::format("expected a mapping with the keys {} (see configs/README.md)",
                             join(kTopKeys)));
        }
        const Entries top = entries(root, "", kTopKeys);
        Machine machine;
        machine.name = text(required(top, root, "", "name", "every machine needs a name"), "name");
        if (machine.name.empty()) fail(top.find("name")->value, "name", "must not be empty");
        if (const Entry* e = top.find("description")) machine.description = text(*e, "description");
        if (const Entry* e = top.find("device_radix")) {
            machine.device_radix = radix(*e, "device_radix");
        }
        machine.levels = levels(required(top, root, "", "levels",
                                         "list the levels innermost first (node, optional groups, "
                                         "system), each with name, fanout and loggp"));
        if (const Entry* e = top.find("compute")) machine.compute = compute(*e);
        if (const Entry* e = top.find("placement")) machine.placement = placement(*e);
        if (const Entry* e = top.find("sharing"))
            machine.sharing =
                word<Sharing>(*e, "sharing", {{"fifo", Sharing::fifo}, {"fair", Sharing::fair}});
        if (const Entry* e = top.find("style")) machine.style = style(*e);
        try {
            validate_machine(machine);  // the checks above should have caught everything
        } catch (const InputError& error) {
            throw InputError(fmt::format("{}: {}", origin_, error.what()));
        }
        return machine;
    }

  private:
    [[noreturn]] void fail(const YAML::Node& at, std::string_view path,
                           std::string_view problem) const {
        const YAML::Mark mark = at.Mark();
        std::string where = origin_;
        if (mark.line >= 0) where += fmt::format(":{}", mark.line + 1);
        if (path.empty()) throw InputError(fmt::format("{}: {}", where, problem));
        throw InputError(fmt::format("{}: {}: {}", where, path, problem));
    }

    // Errors about a value point at its own line, or at its key when the value is empty.
    [[nodiscard]] const YAML::Node& anchor(const Entry& entry) const {
        return entry.value.Mark().line >= 0 ? entry.value : entry.key;
    }

    static std::string child(std::string_view path, std::string_view key) {
        return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
    }

    Entries entries(const YAML::Node& map, std::string_view path,
                    std::span<const std::string_view> known) const {
        Entries result;
        for (const auto& item : map) {
            const YAML::Node& key = item.first;
            if (!key.IsScalar()) fail(key, path, "keys must be plain words");
            const std::string name = key.Scalar();
            if (std::find(known.begin(), known.end(), name) == known.end()) {
                fail(key, child(path, excerpt(name)),
                     fmt::format("unknown key (known keys here: {})", join(known)));
            }
            if (result.has(name)) {
                fail(key, child(path, name), "duplicate key (give each key once)");
            }
            result.add(name, Entry{key, item.second});
        }
        return result;
    }

    const Entry& required(const Entries& map, const YAML::Node& parent, std::string_view path,
                          std::string_view key, std::string_view why) const {
        if (const Entry* e = map.find(key)) return *e;
        fail(parent, child(path, key), fmt::format("missing ({})", why));
    }

    std::string text(const Entry& entry, std::string_view path) const {
        if (!entry.value.IsScalar()) fail(anchor(entry), path, "expected a text value");
        // The writer emits UTF-8 only; other bytes would not read back the same.
        if (!is_utf8(entry.value.Scalar()))
            fail(anchor(entry), path, "not valid UTF-8 text (save the file as UTF-8)");
        return entry.value.Scalar();
    }

    double number(const Entry& entry, std::string_view path, std::string_view unit) const {
        if (!entry.value.IsScalar()) {
            fail(anchor(entry), path, fmt::format("expected a number in {}", unit));
        }
        const std::string& scalar = entry.value.Scalar();
        const std::optional<double> value = detail::parse_double(scalar);
        if (!value) {
            fail(anchor(entry), path,
                 fmt::format("expected a number in {} (got '{}')", unit, excerpt(scalar)));
        }
        if (auto problem = detail::nonnegative_problem(*value)) fail(anchor(entry), path, *problem);
        return *value;
    }

    int integer(const Entry& entry, std::string_view path, int minimum,
                std::string_view meaning) const {
        const std::string scalar = entry.value.IsScalar() ? entry.value.Scalar() : std::string();
        const std::optional<int> value = detail::parse_int(scalar);
        if (!entry.value.IsScalar() || !value) {
            fail(anchor(entry), path,
                 fmt::format("expected a whole number >= {} ({}), got '{}'", minimum, meaning,
                             excerpt(scalar)));
        }
        if (*value < minimum) {
            fail(anchor(entry), path,
                 fmt::format("must be >= {} ({}), got {}", minimum, meaning, *value));
        }
        return *value;
    }

    // One of a few words, e.g. sharing: fifo | fair.
    template <class Enum>
    Enum word(const Entry& entry, std::string_view path,
              std::initializer_list<std::pair<std::string_view, Enum>> choices) const {
        const std::string value = entry.value.IsScalar() ? entry.value.Scalar() : std::string();
        std::string known;
        for (const auto& [name, choice] : choices) {
            if (value == name) return choice;
            known += known.empty() ? "" : " or ";
            known += name;
        }
        fail(anchor(entry), path, fmt::format("expected {} (got '{}')", known, excerpt(value)));
    }

    Style style(const Entry& entry) const {
        const std::string value = entry.value.IsScalar() ? entry.value.Scalar() : std::string();
        try {
            return parse_style(value);
        } catch (const InputError& error) {
            fail(anchor(entry), "style", error.what());
        }
    }

    // A whole number of bytes >= 1 (sizes come as YAML numbers, e.g. 65536 or 6.5e4).
    double whole_bytes(const Entry& entry, std::string_view path, std::string_view meaning) const {
        const double value = number(entry, path, "bytes");
        if (value < 1 || value > 1e18 || value != std::floor(value))
            fail(anchor(entry), path,
                 fmt::format("expected a whole number of bytes >= 1 ({})", meaning));
        return value;
    }

    std::optional<int> radix(const Entry& entry, std::string_view path) const {
        if (entry.value.IsScalar() && entry.value.Scalar() == "unlimited") return std::nullopt;
        const int value = integer(entry, path, 1,
                                  "concurrent transfers per direction; 'unlimited' or omit the key "
                                  "for no limit");
        if (value > kMaxRadix)
            fail(anchor(entry), path,
                 fmt::format("must be <= {} concurrent transfers per direction, got {}; use "
                             "'unlimited' or omit the key for no limit",
                             kMaxRadix, value));
        return value;
    }

    std::vector<Level> levels(const Entry& entry) const {
        const std::string path = "levels";
        if (!entry.value.IsSequence()) {
            fail(anchor(entry), path,
                 "expected a list of levels, innermost first (node, optional groups, system)");
        }
        if (entry.value.size() > kMaxLevels) {
            fail(anchor(entry), path,
                 fmt::format("at most {} levels (got {})", kMaxLevels, entry.value.size()));
        }
        if (entry.value.size() < 1) {
            fail(anchor(entry), path,
                 "needs at least 1 level, innermost first (node, optional groups, system); got 0");
        }
        std::vector<Level> result;
        for (std::size_t i = 0; i < entry.value.size(); ++i) {
            // The first level holds the devices: its fanout is required even when it is the
            // only level.
            const bool last = i > 0 && i + 1 == entry.value.size();
            result.push_back(level(entry.value[i], fmt::format("levels[{}]", i), last));
        }
        return result;
    }

    Level level(const YAML::Node& node, const std::string& path, bool last) const {
        if (!node.IsMap()) {
            fail(node, path, fmt::format("expected a mapping with the keys {}", join(kLevelKeys)));
        }
        const Entries map = entries(node, path, kLevelKeys);
        Level level;
        level.name = text(required(map, node, path, "name", "e.g. node, group, system"),
                          child(path, "name"));
        if (level.name.empty())
            fail(map.find("name")->value, child(path, "name"), "must not be empty");
        if (const Entry* e = map.find("fanout")) {
            level.fanout = integer(*e, child(path, "fanout"), last ? 0 : 1,
                                   last ? "most children of the whole system; 0 = any"
                                        : "children per unit: devices per node, nodes per group");
        } else if (!last) {
            fail(node, child(path, "fanout"),
                 "missing (children per unit: devices per node for the first level, nodes per "
                 "group, ...)");
        }
        if (const Entry* e = map.find("radix")) level.radix = radix(*e, child(path, "radix"));
        if (const Entry* e = map.find("overhead"))
            level.overhead = word<OverheadModel>(
                *e, child(path, "overhead"),
                {{"offload", OverheadModel::offload}, {"cpu", OverheadModel::cpu}});
        if (const Entry* e = map.find("rendezvous"))
            level.rendezvous = static_cast<std::uint64_t>(
                whole_bytes(*e, child(path, "rendezvous"), "the smallest rendezvous message"));
        if (const Entry* e = map.find("capacity")) {
            level.capacity = number(*e, child(path, "capacity"), "bytes per second");
            if (*level.capacity <= 0)
                fail(anchor(*e), child(path, "capacity"),
                     "must be > 0 bytes per second (omit the key for no limit)");
        }
        if (const Entry* e = map.find("reclaim_per_byte"))
            level.reclaim_per_byte = number(*e, child(path, "reclaim_per_byte"), "seconds per byte");

        const bool shortcut = std::any_of(kParameters.begin(), kParameters.end(),
                                          [&](const ParameterInfo& p) { return map.has(p.key); });
        const Entry* table = map.find("loggp");
        if (table && shortcut) {
            fail(table->key, child(path, "loggp"),
                 "give either a loggp table or the keys L, o_s, o_r, g, G on the level, not both");
        }
        if (table) {
            level.loggp = loggp_table(*table, child(path, "loggp"));
        } else if (shortcut) {
            LogGPRow row;
            row.params = parameters(map, node, path);
            level.loggp = LogGPTable({row});
        } else {
            fail(node, child(path, "loggp"),
                 "missing (give loggp: [{s, L, o_s, o_r, g, G}, ...] or L, o_s, o_r, g, G on the "
                 "level)");
        }
        return level;
    }

    LogGP parameters(const Entries& map, const YAML::Node& parent, std::string_view path) const {
        LogGP params;
        for (const ParameterInfo& p : kParameters) {
            const Entry& e = required(map, parent, path, p.key,
                                      fmt::format("every LogGP row needs L, o_s, o_r, g and G; {} "
                                                  "is in {}",
                                                  p.key, p.unit));
            params.*(p.member) = number(e, child(path, p.key), p.unit);
        }
        return params;
    }

    LogGPRow row(const YAML::Node& node, const std::string& path, bool size_required) const {
        if (!node.IsMap()) {
            fail(node, path, fmt::format("expected a row {{{}}}", join(kRowKeys)));
        }
        const Entries map = entries(node, path, kRowKeys);
        LogGPRow result;
        if (const Entry* e = map.find("s")) {
            result.bytes = number(*e, child(path, "s"), "bytes");
        } else if (size_required) {
            fail(node, child(path, "s"), "missing (the message size in bytes this row holds for)");
        }
        result.params = parameters(map, node, path);
        return result;
    }

    LogGPTable loggp_table(const Entry& entry, const std::string& path) const {
        std::vector<LogGPRow> rows;
        if (entry.value.IsMap()) {
            rows.push_back(row(entry.value, path, false));
        } else if (entry.value.IsSequence()) {
            if (entry.value.size() == 0) {
                fail(anchor(entry), path, "needs at least one row {s, L, o_s, o_r, g, G}");
            }
            const bool several = entry.value.size() > 1;
            for (std::size_t i = 0; i < entry.value.size(); ++i) {
                const YAML::Node node = entry.value[i];
                const std::string row_path = fmt::format("{}[{}]", path, i);
                rows.push_back(row(node, row_path, several));
                if (i > 0 && !(rows[i].bytes > rows[i - 1].bytes)) {
                    fail(node, child(row_path, "s"),
                         fmt::format("sizes must increase strictly ({} after {}); sort the rows "
                                     "by s and drop duplicates",
                                     detail::format_number(rows[i].bytes),
                                     detail::format_number(rows[i - 1].bytes)));
                }
            }
        } else {
            fail(anchor(entry), path,
                 "expected a list of rows {s, L, o_s, o_r, g, G} or one mapping {L, o_s, o_r, g, "
                 "G}");
        }
        return LogGPTable(std::move(rows));
    }

    ComputeCosts compute(const Entry& entry) const {
        const std::string path = "compute";
        if (!entry.value.IsMap()) {
            fail(anchor(entry), path,
                 fmt::format("expected a mapping with the keys {}", join(kComputeKeys)));
        }
        const Entries map = entries(entry.value, path, kComputeKeys);
        ComputeCosts costs;
        const std::pair<std::string_view, double ComputeCosts::*> fields[] = {
            {"reduce_per_byte", &ComputeCosts::reduce_per_byte},
            {"permute_latency", &ComputeCosts::permute_latency},
            {"permute_per_byte", &ComputeCosts::permute_per_byte},
            {"copy_per_byte", &ComputeCosts::copy_per_byte},
        };
        for (const auto& [key, member] : fields) {
            if (const Entry* e = map.find(key)) {
                costs.*member = number(*e, child(path, key),
                                       key == "permute_latency" ? "seconds" : "seconds per byte");
            }
        }
        return costs;
    }

    Placement placement(const Entry& entry) const {
        const std::string path = "placement";
        constexpr std::string_view expected =
            "expected block, round-robin or {list: [node of rank 0, node of rank 1, ...]}";
        Placement result;
        if (entry.value.IsScalar()) {
            const std::string& kind = entry.value.Scalar();
            if (kind == "block") return result;
            if (kind == "round-robin") {
                result.kind = PlacementKind::round_robin;
                return result;
            }
            fail(anchor(entry), path, fmt::format("{} (got '{}')", expected, excerpt(kind)));
        }
        if (!entry.value.IsMap()) fail(anchor(entry), path, expected);
        constexpr std::array<std::string_view, 1> keys{"list"};
        const Entries map = entries(entry.value, path, keys);
        const Entry& list = required(map, entry.value, path, "list", expected);
        const std::string list_path = child(path, "list");
        if (!list.value.IsSequence() || list.value.size() == 0) {
            fail(anchor(list), list_path, "expected a non-empty list with the node of each rank");
        }
        result.kind = PlacementKind::explicit_list;
        for (std::size_t r = 0; r < list.value.size(); ++r) {
            const Entry item{list.key, list.value[r]};
            result.node_of_rank.push_back(
                integer(item, fmt::format("{}[{}]", list_path, r), 0, "node index of the rank"));
        }
        return result;
    }

    std::string origin_;
};

}  // namespace

Machine parse_machine_yaml(std::string_view text, const std::string& origin) {
    YAML::Node root;
    try {
        root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& error) {
        const std::string where =
            error.mark.line >= 0 ? fmt::format("{}:{}", origin, error.mark.line + 1) : origin;
        throw InputError(fmt::format("{}: YAML syntax error: {}", where, error.msg));
    }
    try {
        return YamlMachineReader(origin).read(root);
    } catch (const YAML::Exception& error) {
        // yaml-cpp reports malformed structures lazily; keep the one-line contract.
        const std::string where =
            error.mark.line >= 0 ? fmt::format("{}:{}", origin, error.mark.line + 1) : origin;
        throw InputError(fmt::format("{}: YAML error: {}", where, error.msg));
    }
}

Machine load_machine_yaml(const std::filesystem::path& file) {
    return parse_machine_yaml(read_input_file(file, "machine file", kMaxMachineFileBytes),
                              file.string());
}

}  // namespace piccolo
