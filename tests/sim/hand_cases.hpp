#pragma once
// Tiny machines and schedules for cases computed by hand. Parameters are small integers (or
// powers of two) in seconds, so that every time is exact and a test can compare with ==.
#include <string>
#include <utility>
#include <vector>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/schedule_xml.hpp"

namespace piccolo::hand {

// L = 1, o_s = 1, o_r = 1, g = 0, G = 1 s/B: a message of m bytes has (m-1)G = m - 1.
inline constexpr LogGP unit{1, 1, 1, 0, 1};

// A node of `devices_per_node` devices under one system level, both priced with `params`.
inline Machine machine(int devices_per_node, std::optional<int> device_radix,
                       std::optional<int> node_radix, LogGP params = unit) {
    Machine m;
    m.name = "hand";
    m.device_radix = device_radix;
    m.levels.push_back({"node", devices_per_node, node_radix, LogGPTable({{0, params}})});
    m.levels.push_back({"system", 0, std::nullopt, LogGPTable({{0, params}})});
    validate_machine(m);
    return m;
}

struct Message {
    Rank from = 0, to = 0;
    int bytes = 0;
    std::string deps = "-1";  // delivered-dependencies, as the XML attribute
    std::string sent_deps{};  // sent-dependencies; empty: none
};

// The messages as a schedule file, ids in order.
inline Schedule schedule(Rank ranks, const std::vector<Message>& messages) {
    std::string xml = "<collective name=\"allgather\" nodes=\"" + std::to_string(ranks) +
                      "\" buffer_size=\"" + std::to_string(ranks) + "\">\n";
    int id = 0;
    for (const Message& m : messages) {
        xml += "<transfer id=\"" + std::to_string(id++) + "\" size=\"" + std::to_string(m.bytes) +
               "\" src=\"" + std::to_string(m.from) + "\" dst=\"" + std::to_string(m.to) +
               "\" deps=\"" + m.deps + "\"";
        if (!m.sent_deps.empty()) xml += " sent_deps=\"" + m.sent_deps + "\"";
        xml += "/>\n";
    }
    return parse_schedule_xml(xml + "</collective>\n", "hand.xml").schedule;
}

// Concurrent messages without dependencies, given as (src, dst) pairs, `bytes` each.
inline Schedule concurrent(Rank ranks, const std::vector<std::pair<Rank, Rank>>& pairs, int bytes) {
    std::vector<Message> messages;
    for (auto [from, to] : pairs) messages.push_back({from, to, bytes});
    return schedule(ranks, messages);
}

inline SimResult run(const Schedule& s, const Machine& m, int nodes, int ppn,
                     bool contention = true) {
    SimOptions options;
    options.contention = contention;
    options.record_trace = true;
    return simulate(s, m, RankLayout(m, nodes, ppn), options);
}

}  // namespace piccolo::hand
