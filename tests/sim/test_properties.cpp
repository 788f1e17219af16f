// The engine's invariances (sim/engine/README.md, "Time" and "Events and ties") over random
// schedules on random machines (random_cases.hpp): what a result must not depend on. Each case
// below draws its own 1,000 graphs of up to 30 tasks from a fixed seed, so a failure names the seed
// and the graph that shows it; the five cases take well under a second in a release build.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numeric>

#include "piccolo/topologies/machine_io.hpp"
#include "random_cases.hpp"

using namespace piccolo;
using namespace piccolo::random_case;

namespace {

constexpr int graphs_per_case = 1000;
constexpr int max_tasks = 30;

// A random machine and a schedule for its ranks, and where they came from.
struct Case {
    RandomMachine machine;
    std::vector<Task> tasks;
    Schedule schedule;
    std::string name;
};

Case draw(Random& random, std::uint64_t seed, int index) {
    Case c;
    c.machine = random_machine(random);
    c.tasks = random_graph(random, c.machine.ranks(), max_tasks);
    c.schedule = to_schedule(c.tasks, c.machine.ranks());
    c.name = fmt::format("seed {} graph {}", seed, index);
    return c;
}

// With PICCOLO_PROPERTY_CASES set to a folder, every case drawn is also written there as
// seed-S-I.xml and seed-S-I.yaml (its schedule and machine, as `piccolo sim FILE -m MACHINE`
// reads them), for tests/sim/docs_engine to replay from the docs alone.
void dump(const Case& c, std::uint64_t seed, int index) {
    const char* folder = std::getenv("PICCOLO_PROPERTY_CASES");
    if (folder == nullptr) return;
    const std::string base = fmt::format("{}/seed-{}-{}", folder, seed, index);
    std::ofstream(base + ".xml") << schedule_to_xml(c.schedule);
    std::ofstream(base + ".yaml") << machine_to_yaml(c.machine.machine);
}

// Draws graphs_per_case cases from `seed` and checks each.
template <class Check>
void for_random_cases(std::uint64_t seed, Check check) {
    Random random(seed);
    for (int i = 0; i < graphs_per_case; ++i) {
        const Case c = draw(random, seed, i);
        dump(c, seed, i);
        INFO(c.name);
        check(c, random);
    }
}

// Finishes equal to `factor` times the base ones: exact in femtoseconds, so only the conversion
// to seconds may differ (a flipped tie would move a finish by at least a quarter tick).
bool scaled_by(const std::vector<double>& base, const std::vector<double>& t, double factor) {
    if (base.size() != t.size()) return false;
    for (std::size_t r = 0; r < base.size(); ++r)
        if (std::abs(t[r] - factor * base[r]) > 1e-12 * factor * base[r] + 1e-18) return false;
    return true;
}

// The run's ranks under new numbers (a random permutation), each on its old node, and nodes
// under new numbers inside their group (a level-1 unit: two nodes on three levels, all of them
// on two); placement lists them.
struct Renumbering {
    std::vector<Rank> rank_of;  // old rank -> new
    Machine machine;
};

Renumbering renumbered(const Case& c, Random& random) {
    const RandomMachine& r = c.machine;
    Renumbering out{std::vector<Rank>(static_cast<std::size_t>(r.ranks())), r.machine};
    std::iota(out.rank_of.begin(), out.rank_of.end(), 0);
    std::shuffle(out.rank_of.begin(), out.rank_of.end(), random);
    std::vector<int> node_of(static_cast<std::size_t>(r.nodes));
    std::iota(node_of.begin(), node_of.end(), 0);
    const int group = r.machine.levels.size() == 3 ? r.machine.levels[1].fanout : r.nodes;
    for (int first = 0; first < r.nodes; first += group)
        std::shuffle(node_of.begin() + first, node_of.begin() + std::min(first + group, r.nodes),
                     random);
    out.machine.placement.kind = PlacementKind::explicit_list;
    out.machine.placement.node_of_rank.assign(out.rank_of.size(), 0);
    for (Rank old = 0; old < r.ranks(); ++old)
        out.machine.placement.node_of_rank[out.rank_of[old]] = node_of[old / r.ppn];
    return out;
}

int transfers(const Case& c) {
    return static_cast<int>(std::count_if(c.tasks.begin(), c.tasks.end(),
                                          [](const Task& t) { return t.kind == "transfer"; }));
}

}  // namespace

TEST_CASE("random graphs: every time parameter x10 and x1000 scales every rank's finish") {
    for_random_cases(4201, [](const Case& c, Random&) {
        for (const bool contention : {true, false}) {
            const SimResult base = run(c.schedule, c.machine, contention);
            for (const double factor : {10.0, 1000.0}) {
                RandomMachine m = c.machine;
                m.machine = scaled(m.machine, factor);
                INFO(fmt::format("x{} contention {}", factor, contention));
                CHECK(scaled_by(base.rank_finish, run(c.schedule, m, contention).rank_finish,
                                factor));
            }
        }
    });
}

TEST_CASE("random graphs: element order and ids that keep their order change no finish") {
    for_random_cases(4202, [](const Case& c, Random& random) {
        const SimResult base = run(c.schedule, c.machine);
        std::vector<long> ids(c.tasks.size());
        long id = pick(random, 0, 5);  // increasing, with gaps
        for (long& next : ids) next = id += pick(random, 1, 4);
        std::vector<int> order(c.tasks.size());
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), random);
        std::vector<Rank> ranks(static_cast<std::size_t>(c.machine.ranks()));
        std::iota(ranks.begin(), ranks.end(), 0);
        const Schedule file = to_schedule(c.tasks, c.machine.ranks(), ids, ranks, order);
        CHECK(run(file, c.machine).rank_finish == base.rank_finish);
    });
}

TEST_CASE("random graphs: renumbering ranks and nodes renumbers the finishes, nothing else") {
    for_random_cases(4203, [](const Case& c, Random& random) {
        const SimResult base = run(c.schedule, c.machine);
        const Renumbering n = renumbered(c, random);
        std::vector<long> ids(c.tasks.size());
        std::iota(ids.begin(), ids.end(), 0L);
        std::vector<int> order(c.tasks.size());
        std::iota(order.begin(), order.end(), 0);
        RandomMachine m = c.machine;
        m.machine = n.machine;
        const SimResult moved =
            run(to_schedule(c.tasks, c.machine.ranks(), ids, n.rank_of, order), m);
        std::vector<double> expected(base.rank_finish.size());
        for (std::size_t r = 0; r < expected.size(); ++r)
            expected[static_cast<std::size_t>(n.rank_of[r])] = base.rank_finish[r];
        CHECK(moved.rank_finish == expected);
    });
}

namespace {

// Under fair sharing a limit that never binds still turns its transfers into flows, whose times
// are computed in floating point: within a few femtoseconds (a flipped tie would move a finish by
// a quarter tick). Their ends are known only when their last bytes leave, and a cpu send port
// freed g - o_s after the end is never freed before it is known: machines with cpu overheads
// and fair sharing are left out (sim/engine/README.md, "Fair sharing").
bool unchanged(const Case& c, const SimResult& base, const RandomMachine& m) {
    const std::vector<double> finish = run(c.schedule, m).rank_finish;
    if (c.machine.machine.sharing == Sharing::fifo) return finish == base.rank_finish;
    for (std::size_t r = 0; r < finish.size(); ++r)
        if (std::abs(finish[r] - base.rank_finish[r]) > 1e-14) return false;
    return finish.size() == base.rank_finish.size();
}

bool fair_with_cpu(const Machine& m) {
    return m.sharing == Sharing::fair &&
           std::any_of(m.levels.begin(), m.levels.end(),
                       [](const Level& l) { return l.overhead == OverheadModel::cpu; });
}

}  // namespace

TEST_CASE("random graphs: a radix that never binds, added to any level, changes no finish") {
    int added = 0, fair = 0;
    for_random_cases(4204, [&](const Case& c, Random&) {
        if (fair_with_cpu(c.machine.machine)) return;
        fair += c.machine.machine.sharing == Sharing::fair;
        const SimResult base = run(c.schedule, c.machine);
        // As many lanes as transfers: every transfer finds one free.
        const int never_binds = std::max(1, transfers(c));
        RandomMachine all = c.machine;
        for (std::size_t l = 0; l + 1 < c.machine.machine.levels.size(); ++l) {
            if (c.machine.machine.levels[l].radix) continue;
            RandomMachine one = c.machine;
            one.machine.levels[l].radix = all.machine.levels[l].radix = never_binds;
            INFO(fmt::format("radix {} on level {}", never_binds, l));
            CHECK(unchanged(c, base, one));
            ++added;
        }
        CHECK(unchanged(c, base, all));
    });
    // Most draws leave some level without a radix; a sixth are fair with offload overheads.
    CHECK(added >= graphs_per_case / 3);
    CHECK(fair >= graphs_per_case / 8);
}

TEST_CASE("random graphs: an outer level that prices no message changes no finish") {
    for_random_cases(4205, [](const Case& c, Random& random) {
        const SimResult base = run(c.schedule, c.machine);
        // The system becomes a group holding every node, under a new system with other
        // parameters: every message is priced, and limited, where it was.
        RandomMachine m = c.machine;
        Level& old_system = m.machine.levels.back();
        old_system.name = "all";
        if (old_system.fanout == 0) old_system.fanout = c.machine.nodes;
        if (m.machine.levels.size() == 3) old_system.fanout = (c.machine.nodes + 1) / 2;
        if (m.machine.levels.size() == 1) old_system.fanout = c.machine.ppn;
        old_system.radix = std::nullopt;  // the system's radix limits nothing; a group's would
        m.machine.levels.push_back(
            {"system", 0, std::nullopt, LogGPTable({{0, random_loggp(random)}})});
        validate_machine(m.machine);
        CHECK(run(c.schedule, m).rank_finish == base.rank_finish);
    });
}
