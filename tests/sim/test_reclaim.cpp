// Reclaim (sim/engine/src/reclaim.hpp): a reduction that writes into data its rank has just sent
// pays Level::reclaim_per_byte per byte of the send's level on top of gamma. Recursive doubling's
// Allreduce reduces into the vector it has just sent in every round; the ring's and recursive
// halving's reductions write pieces the rank never sent, and pay nothing.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "piccolo/core/error.hpp"
#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"

using namespace piccolo;

namespace {

// Two levels with the same LogGP row (g below o_s + L + o_r, so a round costs
// o_s + (m-1)G + L + o_r and its reduction adds after it) and their own reclaim costs.
Machine two_levels(int devices_per_node, double node_reclaim, double system_reclaim) {
    const LogGP x{1.5e-6, 0.4e-6, 0.3e-6, 0.5e-6, 2e-10};  // L, o_s, o_r, g, G
    Machine m;
    m.name = "reclaim";
    m.levels.push_back({"node", devices_per_node, std::nullopt, LogGPTable({{0, x}})});
    m.levels.push_back({"system", 0, std::nullopt, LogGPTable({{0, x}})});
    m.levels[0].reclaim_per_byte = node_reclaim;
    m.levels[1].reclaim_per_byte = system_reclaim;
    m.compute.reduce_per_byte = 1e-10;
    validate_machine(m);
    return m;
}

double makespan(const char* algorithm, Rank p, std::uint64_t bytes, const Machine& m, int ppn,
                Style style, bool payload = true) {
    const Schedule s = generate({Collective::allreduce, algorithm, 0, p, bytes, payload, style});
    return simulate(s, m, RankLayout(m, p / ppn, ppn)).makespan;
}

}  // namespace

TEST_CASE("reclaim: recursive doubling pays m rho at every round, rho of the round's level") {
    // Hand-computed: log2 p rounds of o_s + (m-1)G + L + o_r, each followed by its reduction,
    // m (gamma + rho): rho_node for the rounds whose partner is on the node (the first log2 ppn),
    // rho_system for the rest.
    const double rho_node = 3e-10, rho_system = 7e-11, gamma = 1e-10;
    const LogGP x{1.5e-6, 0.4e-6, 0.3e-6, 0.5e-6, 2e-10};
    for (int ppn : {1, 2, 4})
        for (Rank p : {4, 8, 16})
            for (std::uint64_t m : {std::uint64_t{1024}, std::uint64_t{1} << 20})
                for (Style style : {Style::mpi, Style::nccl}) {
                    const Machine machine = two_levels(ppn, rho_node, rho_system);
                    const double md = static_cast<double>(m);
                    const int rounds = static_cast<int>(std::log2(p));
                    const int node_rounds = static_cast<int>(std::log2(ppn));
                    const double expected =
                        rounds * (x.o_s + (md - 1) * x.G + x.L + x.o_r + md * gamma) +
                        md * (node_rounds * rho_node + (rounds - node_rounds) * rho_system);
                    INFO(fmt::format("p={} ppn={} m={} style={}", p, ppn, m, to_string(style)));
                    CHECK(makespan("rd", p, m, machine, ppn, style) ==
                          doctest::Approx(expected).epsilon(1e-12));
                }
}

TEST_CASE("reclaim: reductions into pieces the rank never sent pay nothing") {
    // The ring Allreduce's reduce-scatter, recursive halving and Rabenseifner's Reduce reduce the
    // segment (half) they received into one they did not send: their makespans do not move with
    // rho, to the femtosecond.
    const std::pair<Collective, const char*> cases[] = {{Collective::allreduce, "ring"},
                                                        {Collective::reduce_scatter, "rh"},
                                                        {Collective::reduce, "rabenseifner"}};
    for (const auto& item : cases)
        for (Rank p : {4, 6, 8})
            for (Style style : {Style::mpi, Style::nccl}) {
                INFO(fmt::format("{} p={} style={}", item.second, p, to_string(style)));
                const Schedule s = generate({item.first, item.second, 0, p, 65536, true, style});
                const Machine with = two_levels(2, 5e-9, 5e-9), without = two_levels(2, 0, 0);
                CHECK(simulate(s, with, RankLayout(with, p / 2, 2)).makespan ==
                      simulate(s, without, RankLayout(without, p / 2, 2)).makespan);
            }
}

TEST_CASE("reclaim: without payload no reduction is known to write sent data") {
    CHECK(makespan("rd", 8, 65536, two_levels(2, 5e-9, 5e-9), 2, Style::mpi, false) ==
          makespan("rd", 8, 65536, two_levels(2, 0, 0), 2, Style::mpi, false));
    CHECK(makespan("rd", 8, 65536, two_levels(2, 5e-9, 5e-9), 2, Style::mpi, true) >
          makespan("rd", 8, 65536, two_levels(2, 0, 0), 2, Style::mpi, true));
}

TEST_CASE("reclaim: a cost beyond what simulated time counts is refused in one line") {
    const Machine m = two_levels(2, 1e-3, 0);  // 1 GiB x 1 ms/B: years
    const Schedule s = generate({Collective::allreduce, "rd", 0, 4, std::uint64_t{1} << 30});
    CHECK_THROWS_WITH_AS(simulate(s, m, RankLayout(m, 2, 2)),
                         doctest::Contains("longer than simulated time can count"), InputError);
}
