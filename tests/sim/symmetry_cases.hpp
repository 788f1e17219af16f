#pragma once
// The symmetry tests' pieces (symmetry_tests.cpp, symmetry_collectives_tests.cpp): one schedule
// checked both ways (the generated quotient is the folded full schedule, task by task, and both
// replays agree bit for bit) and the machines they run on.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "piccolo/engine/engine.hpp"
#include "piccolo/engine/symmetric.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/quotient.hpp"
#include "piccolo/topologies/machine_io.hpp"

namespace piccolo::symmetry_test {

inline std::vector<TaskId> sorted(std::span<const TaskId> row) {
    std::vector<TaskId> v(row.begin(), row.end());
    std::sort(v.begin(), v.end());
    return v;
}

// The generated quotient is the folded full schedule, task by task.
inline void check_same_quotient(const QuotientSchedule& a, const QuotientSchedule& b,
                                const std::string& where) {
    INFO(where);
    REQUIRE(a.schedule.size() == b.schedule.size());
    REQUIRE(a.representatives == b.representatives);
    REQUIRE(a.destination == b.destination);
    REQUIRE(a.full_id == b.full_id);
    REQUIRE(a.schedule.has_payload() == b.schedule.has_payload());
    for (TaskId t = 0; t < a.schedule.size(); ++t) {
        INFO("task " << t);
        REQUIRE(a.schedule.kind[t] == b.schedule.kind[t]);
        REQUIRE(a.schedule.src[t] == b.schedule.src[t]);
        REQUIRE(a.schedule.dst[t] == b.schedule.dst[t]);
        REQUIRE(a.schedule.bytes(t) == b.schedule.bytes(t));
        REQUIRE(sorted(a.schedule.deps.row(t)) == sorted(b.schedule.deps.row(t)));
        REQUIRE(sorted(a.schedule.sent_deps_of(t)) == sorted(b.schedule.sent_deps_of(t)));
        if (a.schedule.has_payload()) {
            const auto pa = a.schedule.payload.row(t), pb = b.schedule.payload.row(t);
            REQUIRE(std::equal(pa.begin(), pa.end(), pb.begin(), pb.end()));
        }
    }
}

struct Tally {
    int reduced = 0, refused = 0;
    std::map<std::string, int> by_kind;  // reduced schedules per label the caller chooses
};

// Where the symmetry check passes `request` on nodes x ppn ranks of `m`: the quotient is the
// folded full schedule and both replays agree. Returns whether it was reduced.
inline bool check_case(const Machine& m, const RankLayout& layout, const GenerateRequest& request,
                       const SimOptions& options, Tally& tally) {
    const SymmetryCheck check = check_symmetry(request, m, layout, options);
    if (check.representatives == 0) {
        ++tally.refused;
        return false;
    }
    const std::string where = fmt::format(
        "{} {} k={} {} {} p={} ({} nodes) contention={} bytes={}", m.name, request.algorithm,
        request.k, to_string(request.collective), to_string(request.style), request.ranks,
        layout.nodes(), options.contention, request.bytes);
    const Schedule full = generate(request);
    const QuotientSchedule q = generate_quotient(request, check.representatives);
    check_same_quotient(q, fold_schedule(full, check.representatives), where);
    const SimResult a = simulate(full, m, layout, options);
    const SimResult b = simulate_quotient(q, q.schedule.successors(), m, layout, options);
    INFO(where);
    CHECK(a.makespan == b.makespan);
    CHECK(a.rank_finish == b.rank_finish);
    CHECK(a.transfers == b.transfers);
    CHECK(a.computes == b.computes);
    ++tally.reduced;
    return true;
}

// delta with a group level of two nodes whose lanes (one per group) are a contention point and
// whose latency lies between the node's and the system's. `sharing` and the node's radix as
// given (FIFO: the group's lanes alone, or the nodes' too).
inline Machine grouped(std::optional<Sharing> sharing = std::nullopt,
                       std::optional<std::optional<int>> node_radix = std::nullopt) {
    Machine m = load_preset("delta");
    Level group = m.levels.back();
    group.name = "group";
    group.fanout = 2;
    group.radix = 1;
    std::vector<LogGPRow> rows(group.loggp.rows().begin(), group.loggp.rows().end());
    for (LogGPRow& row : rows) row.params.L *= 0.5;
    group.loggp = LogGPTable(rows);
    m.levels.insert(m.levels.end() - 1, group);
    m.name = "delta-grouped";
    if (sharing) {
        m.sharing = *sharing;
        m.name += *sharing == Sharing::fifo ? "-fifo" : "-fair";
    }
    if (node_radix) {
        m.levels.front().radix = *node_radix;
        m.name += *node_radix ? "-node-lanes" : "-no-node-lanes";
    }
    validate_machine(m);
    return m;
}

// delta with fair sharing and a node capacity below two transfers at full speed.
inline Machine fair_capacity() {
    Machine m = load_preset("delta");
    m.sharing = Sharing::fair;
    m.levels.front().capacity = 1.5e11;
    m.name = "delta-fair";
    validate_machine(m);
    return m;
}

// delta with FIFO lanes (`--set sharing=fifo`): one NIC lane per node, 8 device slots.
inline Machine delta_fifo() {
    Machine m = load_preset("delta");
    m.sharing = Sharing::fifo;
    m.name = "delta-fifo";
    validate_machine(m);
    return m;
}

// delta without a device radix: no receive slots, so no queue at a rank's receiving side.
inline Machine delta_unlimited_slots(Sharing sharing) {
    Machine m = load_preset("delta");
    m.sharing = sharing;
    m.device_radix.reset();
    m.name = sharing == Sharing::fair ? "delta-no-slots" : "delta-fifo-no-slots";
    validate_machine(m);
    return m;
}

// laptop-mpi's cpu overheads and rendezvous on a machine of any number of nodes, one NIC each.
inline Machine cpu_nodes() {
    Machine m = load_preset("laptop-mpi");
    m.levels.back().fanout = 0;
    m.levels.front().radix = 1;
    m.name = "laptop-mpi-nodes";
    validate_machine(m);
    return m;
}

// delta with cpu overheads on every level: one rank per node makes units of one rank.
inline Machine cpu_everywhere() {
    Machine m = load_preset("delta");
    for (Level& level : m.levels) level.overhead = OverheadModel::cpu;
    m.name = "delta-cpu";
    validate_machine(m);
    return m;
}

// delta whose reductions into just-sent data pay a reclaim cost at both levels (the quotient's
// transfers keep the level of their true destination, and so their reclaim).
inline Machine reclaiming() {
    Machine m = load_preset("delta");
    m.levels[0].reclaim_per_byte = 3e-10;
    m.levels[1].reclaim_per_byte = 1e-10;
    m.name = "delta-reclaim";
    validate_machine(m);
    return m;
}

}  // namespace piccolo::symmetry_test
