// What a result must not depend on: the unit of time (every time parameter scaled by 10 or 1000
// scales every makespan by exactly that, so no tie flips), the order of a schedule file's
// elements, and how nodes (and with them their lanes) are numbered.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "random_cases.hpp"

using namespace piccolo;

namespace {

using random_case::scaled;

struct Worst {
    double error = 0;
    std::string where;
};

// Every algorithm, valid k, style and collective for p = 2..max_p on `m`, its devices per node
// filled in order.
void check_scaling(const Machine& m, Rank max_p, std::uint64_t bytes, Worst& worst) {
    const Machine by10 = scaled(m, 10), by1000 = scaled(m, 1000);
    for (const AlgorithmInfo& info : algorithms())
        for (Rank p = 2; p <= max_p; ++p)
            for (int k = info.has_radix ? 2 : 0; k <= (info.has_radix ? p : 0); ++k) {
                if (info.name == "k-ring" && p % k != 0) continue;
                for (Collective c : {Collective::allgather, Collective::allreduce})
                    for (Style style : all_styles) {
                        if (!builds(info, c)) continue;
                        GenerateRequest request{c, std::string(info.name), k, p, bytes, false};
                        request.style = style;
                        const Schedule s = generate(request);
                        const auto successors = s.successors();
                        const int ppn = m.devices_per_node();
                        const RankLayout layout(m, (p + ppn - 1) / ppn, ppn);
                        const double base = simulate(s, successors, m, layout, {}).makespan;
                        for (const auto& [factor, machine] :
                             {std::pair{10.0, &by10}, std::pair{1000.0, &by1000}}) {
                            const double t = simulate(s, successors, *machine, layout, {}).makespan;
                            const double error = std::abs(t / (factor * base) - 1);
                            if (error > worst.error)
                                worst = {error,
                                         fmt::format("{} {} {} k={} p={} {} B x{}", m.name,
                                                     to_string(c), info.name, k, p, bytes, factor)};
                        }
                    }
            }
}

SimResult run(const Schedule& s, const Machine& m, int nodes, int ppn) {
    return simulate(s, m, RankLayout(m, nodes, ppn));
}

}  // namespace

TEST_CASE("scaling every time parameter by 10 or 1000 scales every makespan, contention on") {
    Machine fair_delta = load_preset("delta");
    fair_delta.name = "delta-fair";
    fair_delta.sharing = Sharing::fair;
    fair_delta.levels[0].capacity = 50e9;
    for (const auto& [m, max_p] : {std::pair{load_preset("delta"), 16}, std::pair{fair_delta, 16},
                                   std::pair{load_preset("laptop-mpi"), 8}})
        for (std::uint64_t bytes : {64, 1000, 1 << 20}) {
            Worst worst;
            check_scaling(m, max_p, bytes, worst);
            INFO(fmt::format("worst relative error {:.3g} at {}", worst.error, worst.where));
            CHECK(worst.error <= 1e-9);
        }
}

TEST_CASE("reordering the elements of a schedule file changes no result") {
    GenerateRequest request{Collective::allreduce, "prm", 3, 9, 4096, true};
    const Schedule s = generate(request);
    std::istringstream xml(schedule_to_xml(s));
    std::vector<std::string> lines;
    for (std::string line; std::getline(xml, line);) lines.push_back(line);
    // First and last lines are the collective's; every line between is one task.
    std::shuffle(lines.begin() + 1, lines.end() - 1, std::mt19937(20261123));
    std::string shuffled;
    for (const std::string& line : lines) shuffled += line + "\n";
    const Schedule reordered = parse_schedule_xml(shuffled, "shuffled.xml").schedule;
    const Machine delta = load_preset("delta");
    const SimResult a = run(s, delta, 3, 4), b = run(reordered, delta, 3, 4);
    CHECK(a.makespan == b.makespan);
    CHECK(a.rank_finish == b.rank_finish);
}

TEST_CASE("results do not depend on how nodes and their lanes are numbered") {
    // The same ranks share the same nodes, under other node numbers: every unit's lanes sit
    // elsewhere in the engine's arrays, and ties between them must not notice.
    auto renumbered = [](Machine m, int nodes, int ppn, int per_group) {
        m.placement.kind = PlacementKind::explicit_list;
        for (int r = 0; r < nodes * ppn; ++r) {
            const int node = r / ppn;  // block placement, nodes reversed inside each group
            m.placement.node_of_rank.push_back(node / per_group * per_group + per_group - 1 -
                                               node % per_group);
        }
        return m;
    };
    const Machine delta = load_preset("delta"), aurora = load_preset("aurora");
    for (const auto& [algorithm, k, bytes] :
         {std::tuple{"prm", 4, 1024ULL}, std::tuple{"rm", 4, 1ULL << 20},
          std::tuple{"k-ring", 4, 1ULL}}) {
        const Schedule s = generate({Collective::allgather, algorithm, k, 64, bytes, false});
        CHECK(run(s, delta, 16, 4).makespan ==
              run(s, renumbered(delta, 16, 4, 16), 16, 4).makespan);
    }
    // Many lanes per node (8) and an incast of 26 messages per rank.
    const Schedule s = generate({Collective::allgather, "rm", 27, 27, 1, false});
    CHECK(run(s, aurora, 3, 9).makespan == run(s, renumbered(aurora, 3, 9, 3), 3, 9).makespan);
}
