#include "piccolo/select/select_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>
#include <utility>

namespace piccolo::detail {

std::string scale_label(const Scale& s) {
    return fmt::format("{} node{} x {} = {} rank{}", s.nodes, s.nodes == 1 ? "" : "s",
                       s.ranks_per_node, s.ranks(), s.ranks() == 1 ? "" : "s");
}

std::string size_label(std::uint64_t bytes) {
    for (auto [name, shift] : {std::pair{"GiB", 30}, {"MiB", 20}, {"KiB", 10}})
        if (bytes >= (1ULL << shift) && bytes % (1ULL << shift) == 0)
            return fmt::format("{} {}", bytes >> shift, name);
    return fmt::format("{} B", bytes);
}

std::string time_label(double seconds) {
    if (!(seconds > 0)) return "-";
    struct Magnitude {
        const char* name;
        double scale;
    };
    for (Magnitude u :
         {Magnitude{"s", 1}, Magnitude{"ms", 1e-3}, Magnitude{"us", 1e-6}, Magnitude{"ns", 1e-9}}) {
        if (seconds < u.scale && u.scale > 1e-9) continue;
        const double v = seconds / u.scale;
        // 4 significant digits: 1.234, 12.34, 123.4
        const int decimals = v >= 100 ? 1 : v >= 10 ? 2 : 3;
        return fmt::format("{:.{}f} {}", v, decimals, u.name);
    }
    return "-";
}

std::string choice_label(const AlgorithmOutcome& o) {
    if (!o.available) return "-";
    return o.has_radix ? fmt::format("{} k={}", o.algorithm, o.k) : o.algorithm;
}

std::string choice_label(const Choice& c) {
    return c.has_radix ? fmt::format("{} k={}", c.algorithm, c.k) : c.algorithm;
}

std::string candidate_label(Collective collective, std::string_view algorithm, bool has_radix,
                            int k, Rank ranks) {
    return fmt::format("{} {}{} at p = {}", to_string(collective), algorithm,
                       has_radix ? fmt::format(" k = {}", k) : "", ranks);
}

std::string k_list_label(const std::vector<int>& ks) {
    std::string out;
    for (std::size_t i = 0; i < ks.size();) {
        std::size_t j = i;
        while (j + 1 < ks.size() && ks[j + 1] == ks[j] + 1) ++j;
        if (!out.empty()) out += ", ";
        out += j > i + 1 ? fmt::format("{}-{}", ks[i], ks[j])
               : j == i  ? fmt::format("{}", ks[i])
                         : fmt::format("{}, {}", ks[i], ks[j]);
        i = j + 1;
    }
    return out;
}

std::string size_semantics(const SelectResult& result) {
    std::string out = "message size =";
    bool first = true;
    for (Collective c : result.collectives) {
        out += fmt::format("{} {} for {}", first ? "" : ";", selection_size_meaning(c), to_string(c));
        first = false;
    }
    for (Collective c : result.collectives)
        if (c == Collective::allreduce) out += " (MPICH's avg_msg_size)";
    return out;
}

bool has_newer_collectives(const std::vector<Collective>& collectives) {
    return std::any_of(collectives.begin(), collectives.end(), [](Collective c) {
        return c != Collective::allgather && c != Collective::allreduce;
    });
}

std::string baseline_phrase(const std::vector<Collective>& collectives) {
    if (!has_newer_collectives(collectives)) return "the faster of ring and rd";
    // Collectives of one baseline named together, in the order they first come.
    std::vector<std::pair<std::string, std::vector<std::string_view>>> groups;
    for (Collective c : collectives) {
        std::vector<std::string_view> names;
        for (const char* name : baseline_algorithms_of(c)) names.emplace_back(name);
        const std::string baseline = fmt::format("{}", fmt::join(names, " and "));
        auto at = std::find_if(groups.begin(), groups.end(),
                               [&](const auto& g) { return g.first == baseline; });
        if (at == groups.end()) at = groups.insert(groups.end(), {baseline, {}});
        at->second.push_back(to_string(c));
    }
    std::string out = "the faster of the collective's baseline algorithms:";
    for (std::size_t i = 0; i < groups.size(); ++i)
        out += fmt::format("{} {} for {}", i == 0 ? "" : ",", groups[i].first,
                           fmt::join(groups[i].second, " and "));
    return out;
}

}  // namespace piccolo::detail
