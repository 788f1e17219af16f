#include "piccolo/topologies/machine_override.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "detail.hpp"
#include "piccolo/core/error.hpp"

namespace piccolo {

namespace {

[[noreturn]] void fail(const MachineOverride& o, std::string_view problem) {
    throw InputError(fmt::format("--set {}: {}", o.text, problem));
}

constexpr std::array<std::pair<const char*, double LogGP::*>, 5> kLogGP{{
    {"L", &LogGP::L},
    {"o_s", &LogGP::o_s},
    {"o_r", &LogGP::o_r},
    {"g", &LogGP::g},
    {"G", &LogGP::G},
}};
constexpr const char* kLevelKeys[] = {"L",          "o_s",      "o_r",  "g",
                                      "G",          "radix",    "fanout", "overhead",
                                      "rendezvous", "capacity", "reclaim_per_byte"};
constexpr const char* kTopKeys[] = {"device_radix",
                                    "sharing",
                                    "style",
                                    "placement",
                                    "compute.reduce_per_byte",
                                    "compute.permute_latency",
                                    "compute.permute_per_byte",
                                    "compute.copy_per_byte"};

double parsed_number(const MachineOverride& o) {
    const std::optional<double> value = detail::parse_double(o.value);
    if (!value) fail(o, fmt::format("'{}' is not a number", o.value));
    return *value;
}

// The new value of a number: the given one, or the current one times the factor.
double new_number(const MachineOverride& o, double current) {
    return o.op == MachineOverride::Op::scale ? current * o.factor : parsed_number(o);
}

// A whole number, for radices, fanouts and byte counts (a scaled 3 * 0.5 is not one).
std::int64_t whole(const MachineOverride& o, double value) {
    if (!(std::isfinite(value) && std::floor(value) == value && std::abs(value) < 1e15))
        fail(o, fmt::format("{} is not a whole number", detail::format_number(value)));
    return static_cast<std::int64_t>(value);
}

int whole_int(const MachineOverride& o, double value) {
    const std::int64_t v = whole(o, value);
    if (v > std::numeric_limits<int>::max() || v < std::numeric_limits<int>::min())
        fail(o, fmt::format("{} is out of range", v));
    return static_cast<int>(v);
}

// A limit that may be absent: `unlimited` (or `none`) removes it; scaling an absent one is an
// error, since there is nothing to scale.
template <class T, class Convert>
void apply_limit(std::optional<T>& field, const MachineOverride& o, Convert convert) {
    if (o.op == MachineOverride::Op::set && (o.value == "unlimited" || o.value == "none")) {
        field.reset();
        return;
    }
    if (o.op == MachineOverride::Op::scale && !field)
        fail(o, "is unlimited here, nothing to scale; set a value with =");
    field = convert(new_number(o, field ? static_cast<double>(*field) : 0.0));
}

void apply_int(int& field, const MachineOverride& o) {
    field = whole_int(o, new_number(o, field));
}

void apply_real(double& field, const MachineOverride& o) {
    field = new_number(o, field);
}

template <class E>
void apply_word(E& field, const MachineOverride& o,
                std::initializer_list<std::pair<std::string_view, E>> words) {
    std::vector<std::string_view> names;
    for (const auto& [name, value] : words) {
        if (o.op == MachineOverride::Op::set && o.value == name) {
            field = value;
            return;
        }
        names.push_back(name);
    }
    if (o.op == MachineOverride::Op::scale) fail(o, "is not a number; set it with =");
    fail(o, fmt::format("expected {} (got '{}')", fmt::join(names, " or "), o.value));
}

// L, o_s, o_r, g or G on every row of the level's table.
void apply_loggp(Level& level, double LogGP::*member, const MachineOverride& o) {
    std::vector<LogGPRow> rows(level.loggp.rows().begin(), level.loggp.rows().end());
    for (LogGPRow& row : rows) row.params.*member = new_number(o, row.params.*member);
    try {
        level.loggp = LogGPTable(std::move(rows));
    } catch (const InputError& error) {
        fail(o, error.what());
    }
}

bool apply_level_key(Level& level, std::string_view key, const MachineOverride& o) {
    for (const auto& [name, member] : kLogGP) {
        if (key == name) {
            apply_loggp(level, member, o);
            return true;
        }
    }
    if (key == "radix") {
        apply_limit(level.radix, o, [&](double v) { return whole_int(o, v); });
    } else if (key == "fanout") {
        apply_int(level.fanout, o);
    } else if (key == "overhead") {
        apply_word(level.overhead, o,
                   {{"offload", OverheadModel::offload}, {"cpu", OverheadModel::cpu}});
    } else if (key == "rendezvous") {
        apply_limit(level.rendezvous, o, [&](double v) {
            const std::int64_t bytes = whole(o, v);
            if (bytes < 1) fail(o, "rendezvous must be a whole number of bytes >= 1");
            return static_cast<std::uint64_t>(bytes);
        });
    } else if (key == "capacity") {
        apply_limit(level.capacity, o, [](double v) { return v; });
    } else if (key == "reclaim_per_byte") {
        level.reclaim_per_byte = new_number(o, level.reclaim_per_byte);
    } else {
        return false;
    }
    return true;
}

bool apply_top_key(Machine& m, std::string_view path, const MachineOverride& o) {
    if (path == "device_radix") {
        apply_limit(m.device_radix, o, [&](double v) { return whole_int(o, v); });
    } else if (path == "sharing") {
        apply_word(m.sharing, o, {{"fifo", Sharing::fifo}, {"fair", Sharing::fair}});
    } else if (path == "style") {
        if (o.op == MachineOverride::Op::scale) fail(o, "is not a number; set it with =");
        try {
            m.style = parse_style(o.value);
        } catch (const InputError& error) {
            fail(o, error.what());
        }
    } else if (path == "placement") {
        PlacementKind kind = m.placement.kind;
        apply_word(kind, o,
                   {{"block", PlacementKind::block}, {"round-robin", PlacementKind::round_robin}});
        m.placement = {kind, {}};
    } else if (path == "compute.reduce_per_byte") {
        apply_real(m.compute.reduce_per_byte, o);
    } else if (path == "compute.permute_latency") {
        apply_real(m.compute.permute_latency, o);
    } else if (path == "compute.permute_per_byte") {
        apply_real(m.compute.permute_per_byte, o);
    } else if (path == "compute.copy_per_byte") {
        apply_real(m.compute.copy_per_byte, o);
    } else {
        return false;
    }
    return true;
}

std::vector<std::string_view> level_names(const Machine& m) {
    std::vector<std::string_view> names;
    for (const Level& level : m.levels) names.push_back(level.name);
    return names;
}

void apply_one(Machine& m, const MachineOverride& o) {
    if (apply_top_key(m, o.path, o)) return;
    const std::size_t dot = o.path.find('.');
    const std::string_view level_name = std::string_view(o.path).substr(0, dot);
    const auto level = std::find_if(m.levels.begin(), m.levels.end(),
                                    [&](const Level& l) { return l.name == level_name; });
    if (dot == std::string::npos || level == m.levels.end())
        fail(o, fmt::format("unknown path '{}' (known: LEVEL.KEY with LEVEL one of {} and KEY one "
                            "of {}; or {})",
                            o.path, fmt::join(level_names(m), ", "), fmt::join(kLevelKeys, ", "),
                            fmt::join(kTopKeys, ", ")));
    const std::string_view key = std::string_view(o.path).substr(dot + 1);
    if (!apply_level_key(*level, key, o))
        fail(o, fmt::format("unknown key '{}' of level '{}' (known: {})", key, level->name,
                            fmt::join(kLevelKeys, ", ")));
}

std::string validation_error(const Machine& m) {
    try {
        validate_machine(m);
    } catch (const InputError& error) {
        return error.what();
    }
    return {};
}

}  // namespace

MachineOverride parse_override(std::string_view text) {
    MachineOverride o;
    o.text = std::string(text);
    const std::size_t at = text.find_first_of("=*");
    if (at == std::string_view::npos || at == 0 || at + 1 == text.size())
        throw InputError(fmt::format(
            "--set {}: expected PATH=VALUE or PATH*FACTOR (e.g. system.G*0.5, node.radix=2)",
            text));
    o.path = std::string(text.substr(0, at));
    o.value = std::string(text.substr(at + 1));
    if (text[at] == '*') {
        o.op = MachineOverride::Op::scale;
        const std::optional<double> factor = detail::parse_double(o.value);
        if (!factor || !std::isfinite(*factor))
            throw InputError(
                fmt::format("--set {}: factor '{}' is not a finite number", text, o.value));
        o.factor = *factor;
    }
    return o;
}

Machine apply_overrides(Machine machine, std::span<const MachineOverride> overrides) {
    if (overrides.empty()) return machine;
    std::vector<std::string> texts;
    for (const MachineOverride& o : overrides) texts.push_back(o.text);
    machine.name = fmt::format("{}[{}]", machine.name, fmt::join(texts, ","));
    // Overrides act together (capacity needs sharing=fair, in either order), so the machine is
    // validated once at the end; the override blamed is the first after which it already fails
    // with the final error.
    std::vector<Machine> steps;
    for (const MachineOverride& o : overrides) {
        apply_one(machine, o);
        steps.push_back(machine);
    }
    const std::string final_error = validation_error(machine);
    if (final_error.empty()) return machine;
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (validation_error(steps[i]) == final_error) fail(overrides[i], final_error);
    fail(overrides.back(), final_error);
}

std::vector<std::string> split_overrides(std::string_view text) {
    std::vector<std::string> texts;
    std::string word;
    for (const char c : text) {
        if (c == ',' || c == ' ' || c == '\t') {
            if (!word.empty()) texts.push_back(std::move(word));
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty()) texts.push_back(std::move(word));
    return texts;
}

std::vector<MachineOverride> parse_vary(std::string_view spec) {
    auto bad = [&](std::string_view problem) {
        return InputError(fmt::format("--vary {}: {}", spec, problem));
    };
    const std::size_t eq = spec.find('=');
    const std::size_t dots = spec.find("..");
    const std::size_t colon = spec.rfind(':');
    if (eq == std::string_view::npos || eq == 0 || dots == std::string_view::npos || dots < eq ||
        colon == std::string_view::npos || colon < dots)
        throw bad(
            "expected PATH=A..B:N (e.g. system.G=0.25x..4x:5 for factors, node.radix=1..4:4)");
    const std::string_view path = spec.substr(0, eq);
    std::string_view from = spec.substr(eq + 1, dots - eq - 1);
    std::string_view to = spec.substr(dots + 2, colon - dots - 2);
    const std::optional<int> count = detail::parse_int(spec.substr(colon + 1));
    if (!count || *count < 2 || *count > 1000) throw bad("N must be a whole number from 2 to 1000");
    const bool factors = !from.empty() && from.back() == 'x';
    if (factors != (!to.empty() && to.back() == 'x'))
        throw bad("give both ends as factors (0.5x..2x) or both as values (1..4)");
    if (factors) from.remove_suffix(1), to.remove_suffix(1);
    const std::optional<double> a = detail::parse_double(from), b = detail::parse_double(to);
    if (!a || !b || !std::isfinite(*a) || !std::isfinite(*b))
        throw bad(fmt::format("'{}' and '{}' must be finite numbers", from, to));
    if (factors && !(*a > 0 && *b > 0)) throw bad("factors must be > 0");
    std::vector<MachineOverride> points;
    for (int i = 0; i < *count; ++i) {
        const double t = static_cast<double>(i) / (*count - 1);
        double v = factors ? *a * std::pow(*b / *a, t) : *a + t * (*b - *a);
        if (i == *count - 1) v = *b;  // the end exactly as given
        points.push_back(parse_override(
            fmt::format("{}{}{}", path, factors ? '*' : '=', detail::format_number(v))));
    }
    return points;
}

std::vector<std::string> override_paths(const Machine& machine) {
    std::vector<std::string> paths;
    for (const Level& level : machine.levels)
        for (const char* key : kLevelKeys) paths.push_back(fmt::format("{}.{}", level.name, key));
    for (const char* key : kTopKeys) paths.emplace_back(key);
    return paths;
}

}  // namespace piccolo
