#include "piccolo/topologies/machine.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "detail.hpp"
#include "piccolo/core/error.hpp"

namespace piccolo {

namespace detail {

std::string format_number(double value) {
    return fmt::format("{}", value);
}

std::optional<std::string> nonnegative_problem(double value) {
    if (std::isfinite(value) && value >= 0) return std::nullopt;
    return fmt::format("must be finite and >= 0 (got {})", format_number(value));
}

std::optional<double> parse_double(std::string_view text) {
    // YAML 1.2 spells the special values .nan/.inf; accept them so a file written by another
    // YAML tool still loads (validation then rejects them with a clear message).
    if (text == ".nan" || text == ".NaN" || text == ".NAN") {
        return std::numeric_limits<double>::quiet_NaN();
    }
    if (text == ".inf" || text == ".Inf" || text == ".INF" || text == "+.inf") {
        return std::numeric_limits<double>::infinity();
    }
    if (text == "-.inf" || text == "-.Inf" || text == "-.INF") {
        return -std::numeric_limits<double>::infinity();
    }
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    if (text.empty()) return std::nullopt;
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    return value;
}

std::optional<int> parse_int(std::string_view text) {
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    if (text.empty()) return std::nullopt;
    int value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    return value;
}

}  // namespace detail

namespace {

constexpr std::array<std::pair<const char*, double LogGP::*>, 5> kParameters{{
    {"L", &LogGP::L},
    {"o_s", &LogGP::o_s},
    {"o_r", &LogGP::o_r},
    {"g", &LogGP::g},
    {"G", &LogGP::G},
}};

// v0 + t (v1 - v0): exact at t = 0, monotone in t, no cancellation when v0 == v1.
double lerp(double v0, double v1, double t) {
    return v0 + t * (v1 - v0);
}

}  // namespace

LogGPTable::LogGPTable(std::vector<LogGPRow> rows) : rows_(std::move(rows)) {
    if (rows_.empty()) {
        throw InputError("LogGP table: needs at least one row (s, L, o_s, o_r, g, G)");
    }
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        const LogGPRow& row = rows_[i];
        if (auto problem = detail::nonnegative_problem(row.bytes)) {
            throw InputError(fmt::format("LogGP table row {}: s: {}", i, *problem));
        }
        for (const auto& [name, member] : kParameters) {
            if (auto problem = detail::nonnegative_problem(row.params.*member)) {
                throw InputError(fmt::format("LogGP table row {}: {}: {}", i, name, *problem));
            }
        }
        if (i > 0 && !(row.bytes > rows_[i - 1].bytes)) {
            throw InputError(fmt::format(
                "LogGP table row {}: s: sizes must increase strictly ({} after {}); sort the "
                "rows by s and drop duplicates",
                i, detail::format_number(row.bytes), detail::format_number(rows_[i - 1].bytes)));
        }
    }
}

LogGP LogGPTable::at(double bytes) const {
    if (rows_.empty()) return {};
    // Flat outside the measured range: the nearest end row (NaN sizes take the first row).
    if (!(bytes > rows_.front().bytes)) return rows_.front().params;
    if (bytes >= rows_.back().bytes) return rows_.back().params;
    const auto upper =
        std::upper_bound(rows_.begin(), rows_.end(), bytes,
                         [](double size, const LogGPRow& row) { return size < row.bytes; });
    const LogGPRow& hi = *upper;
    const LogGPRow& lo = *(upper - 1);
    if (bytes == lo.bytes) return lo.params;
    const double t = (bytes - lo.bytes) / (hi.bytes - lo.bytes);
    LogGP result;
    for (const auto& [name, member] : kParameters) {
        result.*member = lerp(lo.params.*member, hi.params.*member, t);
    }
    return result;
}

namespace {

// levels[l] of the machine `who` names; `last`: the outermost level.
void validate_level(const Machine& machine, std::size_t l, const std::string& who) {
    const Level& level = machine.levels[l];
    const bool last = l + 1 == machine.levels.size();
    if (level.name.empty()) {
        throw InputError(fmt::format("{}: levels[{}].name: must not be empty", who, l));
    }
    // levels[0] holds the devices, even when it is also the last level (a machine of one
    // level: one node whose table prices every message).
    const bool any_size = last && l > 0;
    if (any_size ? level.fanout < 0 : level.fanout < 1) {
        throw InputError(fmt::format("{}: levels[{}].fanout: must be {} (got {})", who, l,
                                     any_size ? ">= 0 (0 = any)" : ">= 1", level.fanout));
    }
    if (level.radix && (*level.radix < 1 || *level.radix > kMaxRadix)) {
        throw InputError(fmt::format("{}: levels[{}].radix: must be 1..{} or unset (got {})", who,
                                     l, kMaxRadix, *level.radix));
    }
    if (level.rendezvous && *level.rendezvous < 1) {
        throw InputError(
            fmt::format("{}: levels[{}].rendezvous: must be >= 1 byte or unset", who, l));
    }
    if (level.capacity && !(std::isfinite(*level.capacity) && *level.capacity > 0)) {
        throw InputError(
            fmt::format("{}: levels[{}].capacity: must be finite and > 0 bytes per second (got {})",
                        who, l, detail::format_number(*level.capacity)));
    }
    if (!(std::isfinite(level.reclaim_per_byte) && level.reclaim_per_byte >= 0)) {
        throw InputError(fmt::format(
            "{}: levels[{}].reclaim_per_byte: must be finite and >= 0 seconds per byte (got {})",
            who, l, detail::format_number(level.reclaim_per_byte)));
    }
    if (level.capacity && machine.sharing != Sharing::fair) {
        throw InputError(fmt::format(
            "{}: levels[{}].capacity: an internal capacity is shared fairly; add 'sharing: "
            "fair' to the machine",
            who, l));
    }
    try {
        // A default-constructed table has no rows; re-validating the rows catches both that
        // and hand-built tables.
        LogGPTable check(
            std::vector<LogGPRow>(level.loggp.rows().begin(), level.loggp.rows().end()));
    } catch (const InputError& error) {
        throw InputError(fmt::format("{}: levels[{}].loggp: {}", who, l, error.what()));
    }
}

}  // namespace

bool prices_reclaim(const Machine& machine) {
    return std::any_of(machine.levels.begin(), machine.levels.end(),
                       [](const Level& level) { return level.reclaim_per_byte > 0; });
}

void validate_machine(const Machine& machine) {
    const std::string who = fmt::format("machine '{}'", machine.name);
    if (machine.levels.empty()) {
        throw InputError(fmt::format(
            "{}: levels: needs at least 1 level, innermost first (node, optional groups, "
            "system); got 0",
            who));
    }
    if (machine.levels.size() > kMaxLevels) {
        throw InputError(fmt::format("{}: levels: at most {} levels (got {})", who, kMaxLevels,
                                     machine.levels.size()));
    }
    if (machine.device_radix && (*machine.device_radix < 1 || *machine.device_radix > kMaxRadix)) {
        throw InputError(fmt::format("{}: device_radix: must be 1..{} or unset (got {})", who,
                                     kMaxRadix, *machine.device_radix));
    }
    for (std::size_t l = 0; l < machine.levels.size(); ++l) validate_level(machine, l, who);
    const std::pair<const char*, double> costs[] = {
        {"reduce_per_byte", machine.compute.reduce_per_byte},
        {"permute_latency", machine.compute.permute_latency},
        {"permute_per_byte", machine.compute.permute_per_byte},
        {"copy_per_byte", machine.compute.copy_per_byte},
    };
    for (const auto& [name, value] : costs) {
        if (auto problem = detail::nonnegative_problem(value)) {
            throw InputError(fmt::format("{}: compute.{}: {}", who, name, *problem));
        }
    }
    const auto& list = machine.placement.node_of_rank;
    if (machine.placement.kind == PlacementKind::explicit_list) {
        if (list.empty()) {
            throw InputError(fmt::format(
                "{}: placement.list: must name the node of every rank (got an empty list)", who));
        }
        for (std::size_t r = 0; r < list.size(); ++r) {
            if (list[r] < 0) {
                throw InputError(
                    fmt::format("{}: placement.list[{}]: must be >= 0 (got {})", who, r, list[r]));
            }
        }
    } else if (!list.empty()) {
        throw InputError(fmt::format(
            "{}: placement: a node list is only allowed with the explicit list placement", who));
    }
}

RankLayout::RankLayout(const Machine& machine, int nodes, int ranks_per_node) : nodes_(nodes) {
    validate_machine(machine);
    const std::string who = fmt::format("machine '{}'", machine.name);
    const int devices = machine.devices_per_node();
    if (nodes < 1) throw InputError(fmt::format("{}: nodes must be >= 1 (got {})", who, nodes));
    if (ranks_per_node < 1 || ranks_per_node > devices) {
        throw InputError(fmt::format(
            "{}: ranks per node must be between 1 and the {} devices per node (got {}); use "
            "fewer ranks per node or more nodes",
            who, devices, ranks_per_node));
    }
    const std::int64_t ranks = std::int64_t{nodes} * ranks_per_node;
    if (ranks > kMaxRanks) {
        throw InputError(fmt::format("{}: {} nodes x {} ranks per node exceeds {} ranks", who,
                                     nodes, ranks_per_node, kMaxRanks));
    }

    if (machine.levels.size() == 1 && nodes > 1) {
        throw InputError(fmt::format(
            "{}: {} nodes do not fit: a machine of one level is a single node; run 1 node, or "
            "add a system level above the node",
            who, nodes));
    }
    // Nodes a system of bounded size can hold: product of the fanouts above the node level.
    if (machine.levels.back().fanout > 0) {
        std::int64_t capacity = 1;
        for (std::size_t l = 1; l < machine.levels.size() && capacity <= nodes; ++l) {
            capacity *= machine.levels[l].fanout;
        }
        if (nodes > capacity) {
            throw InputError(fmt::format(
                "{}: {} nodes do not fit: the machine holds at most {} nodes (product of the "
                "fanouts of levels[1..{}])",
                who, nodes, capacity, machine.levels.size() - 1));
        }
    }

    level_fanout_.reserve(machine.levels.size());
    for (const Level& level : machine.levels) level_fanout_.push_back(level.fanout);

    node_.resize(static_cast<std::size_t>(ranks));
    switch (machine.placement.kind) {
        case PlacementKind::block:
            for (int r = 0; r < ranks; ++r) node_[r] = r / ranks_per_node;
            break;
        case PlacementKind::round_robin:
            for (int r = 0; r < ranks; ++r) node_[r] = r % nodes;
            break;
        case PlacementKind::explicit_list: {
            const auto& list = machine.placement.node_of_rank;
            if (static_cast<std::int64_t>(list.size()) != ranks) {
                throw InputError(fmt::format(
                    "{}: placement list has {} entries but the run has {} ranks ({} nodes x {} "
                    "per node); give one node index per rank",
                    who, list.size(), ranks, nodes, ranks_per_node));
            }
            std::vector<int> load(static_cast<std::size_t>(nodes), 0);
            for (int r = 0; r < ranks; ++r) {
                const int node = list[r];
                if (node < 0 || node >= nodes) {
                    throw InputError(
                        fmt::format("{}: placement list[{}] = {} is not a node of this run (0..{})",
                                    who, r, node, nodes - 1));
                }
                if (++load[node] > devices) {
                    throw InputError(fmt::format(
                        "{}: placement list puts more than {} ranks on node {}, which has {} "
                        "devices",
                        who, devices, node, devices));
                }
                node_[r] = node;
            }
            break;
        }
    }
}

int RankLayout::unit_of(int rank, std::size_t level) const {
    if (level + 1 >= level_fanout_.size()) return 0;  // the last level is one unit: the system
    int unit = node_[rank];
    for (std::size_t l = 1; l <= level; ++l) unit /= level_fanout_[l];
    return unit;
}

std::size_t RankLayout::common_level(int a, int b) const {
    int unit_a = node_[a];
    int unit_b = node_[b];
    const std::size_t last = level_fanout_.size() - 1;
    for (std::size_t l = 0; l < last; ++l) {
        if (l > 0) {
            unit_a /= level_fanout_[l];
            unit_b /= level_fanout_[l];
        }
        if (unit_a == unit_b) return l;
    }
    return last;
}

}  // namespace piccolo
