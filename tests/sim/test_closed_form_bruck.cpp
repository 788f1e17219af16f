// Bruck's Allgather with radix k on a one-level LogGP machine, uncontended, against its closed
// form derived by hand here (Bruck et al., "Efficient algorithms for all-to-all communications in
// multiprocessor systems", IEEE TPDS 1997; the radix-k phases of MPICH's k-Bruck,
// MPIR_Allgather_intra_k_brucks, MPICH v4.1.2):
//
//   n = ceil(log_k p) phases (the base-k digits of p - 1). Phase i < n - 1 sends m k^i bytes to
//   each of k - 1 partners at once and its next phase starts when the receives are in and the
//   send slots' gaps have passed: T(m k^i) = o_s + (m k^i - 1) G + max(L + o_r, g - o_s). The last
//   phase sends min(k^(n-1), p - j k^(n-1)) blocks to partner j, the largest to j = 1, done after
//   o_s + (m c - 1) G + L + o_r with c = min(k^(n-1), p - k^(n-1)). Then the rotation: a permute
//   of p m bytes, lambda + p m pi. Every rank runs the same phases at the same times.
//
// In MPICH's cost comment, for p = k^n: log_k p alpha + (n/p)(p - 1) log_k p beta; the LogGP
// form above is that sum with alpha and beta split into o_s, L, o_r, g and G, plus the rotation.
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

// One level: every pair of ranks is priced by one LogGP table.
Machine one_level(const LogGP& x, Rank p, int device_radix, double lambda, double pi) {
    Machine m;
    m.name = "bruck-closed-form";
    m.device_radix = device_radix;
    m.levels.push_back({"node", p, std::nullopt, LogGPTable({{0, x}})});
    m.compute.permute_latency = lambda;
    m.compute.permute_per_byte = pi;
    validate_machine(m);
    return m;
}

double bruck_closed_form(const LogGP& x, Rank p, int k, double m, double lambda, double pi) {
    double delta = 1;  // k^i
    double time = 0;
    while (delta * k < p) {  // every phase but the last
        time += x.o_s + (m * delta - 1) * x.G + std::max(x.L + x.o_r, x.g - x.o_s);
        delta *= k;
    }
    const double largest = std::min(delta, p - delta);  // the last phase's j = 1
    time += x.o_s + (m * largest - 1) * x.G + x.L + x.o_r;
    return time + lambda + p * m * pi;
}

}  // namespace

TEST_CASE("bruck allgather, uncontended: the phases' closed form plus the rotation, to 1e-12") {
    std::mt19937_64 rng(1997);
    const std::vector<std::pair<Rank, std::vector<int>>> grid{{2, {2}},
                                                              {3, {2, 3}},
                                                              {5, {2, 3, 4, 5}},
                                                              {8, {2, 3, 4, 7, 8}},
                                                              {12, {2, 3, 4, 5, 11, 12}},
                                                              {64, {2, 3, 4, 7, 8, 9, 63, 64}}};
    for (const auto& point : grid)  // no structured binding: INFO's lambda captures p (clang)
        for (const Rank p = point.first; int k : point.second)
            for (std::uint64_t bytes : {1, 1000, 65536})
                for (Style style : {Style::mpi, Style::nccl}) {
                    auto us = [&] { return femtoseconds(rng, 0.05e-6, 20e-6); };
                    const LogGP x{us(), us(), us(), us(), femtoseconds(rng, 1e-12, 2e-9)};
                    const double lambda = us(), pi = femtoseconds(rng, 1e-12, 1e-10);
                    const Machine machine = one_level(x, p, k - 1, lambda, pi);
                    const RankLayout layout(machine, 1, p);
                    const Schedule s =
                        generate({Collective::allgather, "bruck", k, p, bytes, false, style});
                    const double expected =
                        bruck_closed_form(x, p, k, static_cast<double>(bytes), lambda, pi);
                    for (bool contention : {false, true}) {
                        SimOptions options;
                        options.contention = contention;
                        const double simulated = simulate(s, machine, layout, options).makespan;
                        INFO(fmt::format(
                            "p={} k={} m={} style={} contention={}: simulated "
                            "{:.17g} expected {:.17g}",
                            p, k, bytes, to_string(style), contention, simulated, expected));
                        CHECK(std::abs(simulated - expected) <= 1e-12 * expected);
                    }
                }
}
