#pragma once
// Random schedules and machines for the property tests (test_properties.cpp). Every time
// parameter is a small multiple of `tick` (G a quarter of one), so every time of a replay is an
// exact number of femtoseconds at every scale the tests try, and ties are real ties.
#include <algorithm>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/schedule_xml.hpp"

namespace piccolo::random_case {

inline constexpr double tick = 1e-3;  // seconds; x1000 keeps the longest replay under 4000 s

using Random = std::mt19937_64;

inline int pick(Random& random, int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
}
inline bool chance(Random& random, double p) {
    return std::bernoulli_distribution(p)(random);
}

// One task as the file would hold it: deps and sent_deps are indices of earlier tasks.
struct Task {
    std::string kind = "transfer";  // or reduce, permute, copy
    Rank src = 0, dst = 0;          // a compute: its rank twice
    int bytes = 1;
    std::vector<int> deps, sent_deps;
};

// p ranks, 3..max_tasks tasks: three in four transfers, the rest computes. A task depends on up
// to two earlier ones, and may wait for an earlier send of its own rank to be sent.
inline std::vector<Task> random_graph(Random& random, Rank p, int max_tasks) {
    const int n = pick(random, 3, max_tasks);
    static constexpr int sizes[] = {1, 1, 2, 3, 5, 9, 17, 33};
    static constexpr const char* computes[] = {"reduce", "permute", "copy"};
    std::vector<Task> tasks(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        Task& t = tasks[static_cast<std::size_t>(i)];
        t.src = pick(random, 0, p - 1);
        t.dst = t.src;
        if (chance(random, 0.75))
            t.dst = (t.src + pick(random, 1, p - 1)) % p;
        else
            t.kind = computes[pick(random, 0, 2)];
        t.bytes = sizes[pick(random, 0, 7)];
        for (int d = pick(random, 0, 2); d > 0 && i > 0; --d) {
            const int dep = pick(random, 0, i - 1);
            if (std::find(t.deps.begin(), t.deps.end(), dep) == t.deps.end()) t.deps.push_back(dep);
        }
        std::vector<int> own_sends;  // only a rank's own sends can be waited for as sent
        for (int j = 0; j < i; ++j)
            if (tasks[j].kind == "transfer" && tasks[j].src == t.src) own_sends.push_back(j);
        if (!own_sends.empty() && chance(random, 0.3))
            t.sent_deps.push_back(
                own_sends[pick(random, 0, static_cast<int>(own_sends.size()) - 1)]);
    }
    return tasks;
}

inline std::string id_list(const std::vector<int>& tasks, const std::vector<long>& ids) {
    std::string out;
    for (int t : tasks) out += (out.empty() ? "" : ",") + std::to_string(ids[t]);
    return out;
}

// The tasks as a schedule file: task i gets id ids[i] and rank r is written rank_of[r]; the
// elements are written in `order` (indices into tasks).
inline Schedule to_schedule(const std::vector<Task>& tasks, Rank p, const std::vector<long>& ids,
                            const std::vector<Rank>& rank_of, const std::vector<int>& order) {
    std::string xml = "<collective name=\"allgather\" nodes=\"" + std::to_string(p) +
                      "\" buffer_size=\"" + std::to_string(p) + "\">\n";
    for (int i : order) {
        const Task& t = tasks[static_cast<std::size_t>(i)];
        const std::string deps = t.deps.empty() ? "-1" : id_list(t.deps, ids);
        const std::string head = "id=\"" + std::to_string(ids[i]) + "\" size=\"" +
                                 std::to_string(t.bytes) + "\" deps=\"" + deps + "\"";
        if (t.kind == "transfer")
            xml += "<transfer " + head + " src=\"" + std::to_string(rank_of[t.src]) + "\" dst=\"" +
                   std::to_string(rank_of[t.dst]) + "\"";
        else
            xml += "<compute " + head + " rank=\"" + std::to_string(rank_of[t.src]) + "\" kind=\"" +
                   t.kind + "\"";
        if (!t.sent_deps.empty()) xml += " sent_deps=\"" + id_list(t.sent_deps, ids) + "\"";
        xml += "/>\n";
    }
    return parse_schedule_xml(xml + "</collective>\n", "random.xml").schedule;
}

// Ids 0..n-1, ranks as they are, elements in id order.
inline Schedule to_schedule(const std::vector<Task>& tasks, Rank p) {
    std::vector<long> ids(tasks.size());
    std::iota(ids.begin(), ids.end(), 0L);
    std::vector<Rank> ranks(static_cast<std::size_t>(p));
    std::iota(ranks.begin(), ranks.end(), 0);
    std::vector<int> order(tasks.size());
    std::iota(order.begin(), order.end(), 0);
    return to_schedule(tasks, p, ids, ranks, order);
}

inline LogGP random_loggp(Random& random) {
    auto ticks = [&](int high) { return pick(random, 0, high) * tick; };
    return {ticks(3), ticks(2), ticks(2), ticks(4), pick(random, 0, 4) * tick / 4};
}

// A machine and the run's shape: 1..3 levels (node, group, system), 1..3 devices per node,
// radices (or none) of 1..2, offload or cpu overheads, eager or rendezvous, FIFO or fair
// sharing (with capacities), compute costs.
struct RandomMachine {
    Machine machine;
    int nodes = 1, ppn = 2;
    [[nodiscard]] Rank ranks() const { return nodes * ppn; }
};

inline RandomMachine random_machine(Random& random) {
    RandomMachine r;
    Machine& m = r.machine;
    m.name = "random";
    const int levels = pick(random, 1, 3);
    r.ppn = pick(random, levels == 1 ? 2 : 1, 3);
    r.nodes = levels == 1 ? 1 : pick(random, 2, 4);
    m.sharing = chance(random, 0.3) ? Sharing::fair : Sharing::fifo;
    if (chance(random, 0.4)) m.device_radix = pick(random, 1, 2);
    static constexpr const char* names[] = {"node", "group", "system"};
    for (int l = 0; l < levels; ++l) {
        Level level{names[l == levels - 1 ? 2 : l], l == 0 ? r.ppn : (l == levels - 1 ? 0 : 2),
                    std::nullopt, LogGPTable({{0, random_loggp(random)}})};
        if (l == 0 && levels == 1) level.name = "node";
        if (l + 1 < levels && chance(random, 0.5)) level.radix = pick(random, 1, 2);
        if (chance(random, 0.3)) level.overhead = OverheadModel::cpu;
        if (chance(random, 0.3)) level.rendezvous = static_cast<std::uint64_t>(pick(random, 2, 9));
        if (m.sharing == Sharing::fair && chance(random, 0.4))
            level.capacity = pick(random, 1, 3) * 1000.0;  // bytes per second: 1..3 B per tick
        m.levels.push_back(level);
    }
    m.compute = {pick(random, 0, 2) * tick / 4, pick(random, 0, 2) * tick,
                 pick(random, 0, 2) * tick / 4, pick(random, 0, 2) * tick / 4};
    validate_machine(m);
    return r;
}

// Every time parameter times `factor`: LogGP's seconds and seconds per byte, compute costs;
// capacities (bytes per second) divided by it.
inline Machine scaled(Machine m, double factor) {
    for (Level& level : m.levels) {
        std::vector<LogGPRow> rows(level.loggp.rows().begin(), level.loggp.rows().end());
        for (LogGPRow& row : rows)
            for (double* p :
                 {&row.params.L, &row.params.o_s, &row.params.o_r, &row.params.g, &row.params.G})
                *p *= factor;
        level.loggp = LogGPTable(rows);
        if (level.capacity) *level.capacity /= factor;
    }
    ComputeCosts& c = m.compute;
    for (double* p :
         {&c.reduce_per_byte, &c.permute_latency, &c.permute_per_byte, &c.copy_per_byte})
        *p *= factor;
    validate_machine(m);
    return m;
}

inline SimResult run(const Schedule& s, const RandomMachine& r, bool contention = true) {
    SimOptions options;
    options.contention = contention;
    return simulate(s, r.machine, RankLayout(r.machine, r.nodes, r.ppn), options);
}

}  // namespace piccolo::random_case
