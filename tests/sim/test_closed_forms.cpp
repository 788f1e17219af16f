// The engine against the closed forms of DESIGN.md ("LogGP semantics"), over grids of p, k, m and
// random parameters on two-level machines, with contention off in the sense of the contract:
// device_radix = the algorithm's fan-out per round, no limit at node level and above.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <random>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "random_times.hpp"

using namespace piccolo;
using piccolo::test::femtoseconds;

namespace {

constexpr double tolerance = 1e-12;
const std::vector<std::uint64_t> sizes{1, 1024, 64 * 1024, 4 * 1024 * 1024};
const std::vector<Rank> ranks{4, 8, 9, 16, 27, 64, 81, 256};

LogGP random_parameters(std::mt19937_64& rng) {
    auto us = [&] { return femtoseconds(rng, 0.05e-6, 20e-6); };
    const double per_byte = femtoseconds(rng, 1e-12, 2e-9);
    return {us(), us(), us(), us(), per_byte};  // L, o_s, o_r, g, G
}

Machine two_levels(const LogGP& intra, const LogGP& inter, int devices_per_node, int device_radix,
                   double gamma = 0) {
    Machine m;
    m.name = "closed-form";
    m.device_radix = device_radix;
    m.levels.push_back({"node", devices_per_node, std::nullopt, LogGPTable({{0, intra}})});
    m.levels.push_back({"system", 0, std::nullopt, LogGPTable({{0, inter}})});
    m.compute.reduce_per_byte = gamma;
    validate_machine(m);
    return m;
}

// T_x of the contract: o_s + (m-1)G + max(L + o_r, g - o_s).
double round_time(const LogGP& x, double m) {
    return x.o_s + (m - 1) * x.G + std::max(x.L + x.o_r, x.g - x.o_s);
}
double final_time(const LogGP& x, double m) {
    return x.o_s + (m - 1) * x.G + x.L + x.o_r;
}

void check_close(double simulated, double expected, const std::string& what) {
    INFO(what);
    INFO(fmt::format("simulated {:.17g} expected {:.17g}", simulated, expected));
    CHECK(std::abs(simulated - expected) <= tolerance * expected);
}

// The closed forms hold in both round-synchronous styles, with contention on (device_radix = the
// fan-out per round, no lane limits) and with contention off, where a rank opens slots as it
// needs them but a slot it reuses keeps its gap g.
void check_generated(Collective c, const char* algorithm, int k, Rank p, std::uint64_t m,
                     const Machine& machine, int ppn, double expected, const std::string& what) {
    for (Style style : {Style::mpi, Style::nccl}) {
        const Schedule s = generate({c, algorithm, k, p, m, false, style});
        const RankLayout layout(machine, p / ppn, ppn);
        SimOptions off;
        off.contention = false;
        const std::string label = fmt::format("{} style={}", what, to_string(style));
        check_close(simulate(s, machine, layout).makespan, expected, label + " contention on");
        check_close(simulate(s, machine, layout, off).makespan, expected, label + " off");
    }
}

}  // namespace

TEST_CASE("k-ring allgather: (p/k - 1) T_I + (p/k (k-1) - 1) T_i + T_final") {
    std::mt19937_64 rng(20261121);
    for (Rank p : ranks)
        for (int k = 2; k <= p; ++k) {
            if (p % k != 0) continue;
            for (std::uint64_t m : sizes) {
                const LogGP intra = random_parameters(rng), inter = random_parameters(rng);
                // Groups of k consecutive ranks = nodes of k devices: inter-group pairs are
                // inter-node, intra-group pairs intra-node.
                const Machine machine = two_levels(intra, inter, k, 1);
                const double md = static_cast<double>(m);
                const double expected = (p / k - 1) * round_time(inter, md) +
                                        (p / k * (k - 1) - 1) * round_time(intra, md) +
                                        final_time(intra, md);
                check_generated(Collective::allgather, "k-ring", k, p, m, machine, k, expected,
                                fmt::format("k-ring p={} k={} m={}", p, k, m));
            }
        }
}

TEST_CASE("ring allgather: k-ring with k = p (one node) and with k = 1 (one rank per node)") {
    std::mt19937_64 rng(7);
    for (Rank p : ranks)
        for (std::uint64_t m : sizes) {
            const LogGP intra = random_parameters(rng), inter = random_parameters(rng);
            const double md = static_cast<double>(m);
            check_generated(Collective::allgather, "ring", 0, p, m, two_levels(intra, inter, p, 1),
                            p, (p - 2) * round_time(intra, md) + final_time(intra, md),
                            fmt::format("ring on one node p={} m={}", p, m));
            check_generated(Collective::allgather, "ring", 0, p, m, two_levels(intra, inter, 1, 1),
                            1, (p - 2) * round_time(inter, md) + final_time(inter, md),
                            fmt::format("ring across nodes p={} m={}", p, m));
        }
}

namespace {

// p = k^n with k^j ranks per node: rounds 1..j are intra-node, the others inter-node.
struct RmCase {
    Rank p;
    int k, rounds;
};

std::vector<RmCase> rm_cases() {
    std::vector<RmCase> cases;
    for (Rank p : ranks)
        for (int k = 2; k <= p; ++k) {
            int n = 0;
            Rank q = 1;
            while (q < p) {
                q *= k;
                ++n;
            }
            if (q == p) cases.push_back({p, k, n});
        }
    return cases;
}

}  // namespace

TEST_CASE("RM allgather: T_final + sum over rounds r < n of T_i(r), message m k^(r-1)") {
    std::mt19937_64 rng(42);
    for (const RmCase& c : rm_cases())
        for (int intra_rounds = 0; intra_rounds <= c.rounds; ++intra_rounds)
            for (std::uint64_t m : sizes) {
                const LogGP intra = random_parameters(rng), inter = random_parameters(rng);
                int ppn = 1;
                for (int i = 0; i < intra_rounds; ++i) ppn *= c.k;
                const Machine machine = two_levels(intra, inter, ppn, c.k - 1);
                double expected = 0, message = static_cast<double>(m);
                for (int r = 1; r <= c.rounds; ++r) {
                    const LogGP& x = r <= intra_rounds ? intra : inter;
                    expected += r < c.rounds ? round_time(x, message) : final_time(x, message);
                    message *= c.k;
                }
                check_generated(
                    Collective::allgather, "rm", c.k, c.p, m, machine, ppn, expected,
                    fmt::format("rm p={} k={} intra rounds={} m={}", c.p, c.k, intra_rounds, m));
            }
}

TEST_CASE("RM allreduce: (log_k p - 1) T_i + T_final + log_k p m gamma, when g - o_s <= L + o_r") {
    std::mt19937_64 rng(99);
    auto gamma_dist = [](std::mt19937_64& r) { return femtoseconds(r, 1e-13, 1e-10); };
    for (const RmCase& c : rm_cases())
        for (std::uint64_t m : sizes) {
            LogGP x = random_parameters(rng);
            x.g = std::min(x.g, x.o_s + x.L + x.o_r);  // the closed form's assumption
            const double gamma = gamma_dist(rng);
            const Machine machine = two_levels(x, x, 1, c.k - 1, gamma);
            const double md = static_cast<double>(m);
            const double expected =
                (c.rounds - 1) * round_time(x, md) + final_time(x, md) + c.rounds * md * gamma;
            check_generated(Collective::allreduce, "rm", c.k, c.p, m, machine, 1, expected,
                            fmt::format("rm allreduce p={} k={} m={}", c.p, c.k, m));
        }
}

TEST_CASE("RM allreduce, any g: a round costs o_s + (m-1)G + max(L + o_r + m gamma, g - o_s)") {
    // The reduce overlaps the gap: DESIGN.md's form adds m gamma after the max, which is exact
    // only when g - o_s <= L + o_r. This is the general form the engine implements.
    std::mt19937_64 rng(5);
    for (const RmCase& c : rm_cases())
        for (std::uint64_t m : sizes) {
            LogGP x = random_parameters(rng);
            x.g = x.o_s + x.L + x.o_r + 30e-6;  // gap dominates
            const double gamma = 1e-12 * static_cast<double>(1 + m % 7);
            const Machine machine = two_levels(x, x, 1, c.k - 1, gamma);
            const double md = static_cast<double>(m);
            const double per_round =
                x.o_s + (md - 1) * x.G + std::max(x.L + x.o_r + md * gamma, x.g - x.o_s);
            const double expected = (c.rounds - 1) * per_round + final_time(x, md) + md * gamma;
            check_generated(Collective::allreduce, "rm", c.k, c.p, m, machine, 1, expected,
                            fmt::format("rm allreduce, large g, p={} k={} m={}", c.p, c.k, m));
        }
}

TEST_CASE("an isolated message costs o_s + (m-1)G + L + o_r, and rounding stays exact") {
    const LogGP x{2e-6, 1e-6, 1.5e-6, 3e-6, 1e-10};
    const Machine machine = two_levels(x, x, 1, 1);
    const Schedule s = generate({Collective::allgather, "ring", 0, 2, 1001, false});
    // Two concurrent messages 0->1 and 1->0: each 1e-6 + 1000 * 1e-10 + 2e-6 + 1.5e-6 s.
    const SimResult r = simulate(s, machine, RankLayout(machine, 2, 1));
    CHECK(r.makespan == doctest::Approx(4.6e-6).epsilon(1e-15));
    CHECK(r.transfers == 2);
    CHECK(r.rank_finish == std::vector<double>{r.makespan, r.makespan});
}
