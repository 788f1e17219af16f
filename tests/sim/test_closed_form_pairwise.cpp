// Reduce_scatter (pairwise, ring) and Alltoall (pairwise, scattered) on a one-level LogGP machine,
// uncontended, against their closed forms derived by hand here. The textbook costs (R. Thakur,
// R. Rabenseifner, W. Gropp, "Optimization of collective communication operations in MPICH",
// IJHPCA 19(1), 2005): pairwise Reduce_scatter (p - 1) alpha + (p - 1)/p n beta + (p - 1)/p n gamma
// with n = p m the vector, pairwise Alltoall (p - 1) alpha + (p - 1) m beta. In the LogGP contract
// (sim/engine/README.md) alpha and beta split into o_s, L, o_r, g and G:
//
//   a step whose next step waits for its receive (and, Reduce_scatter, the reduce of m bytes it
//   feeds) costs S = o_s + W + max(L + o_r + c, g - o_s), with W = (m - 1) G and c = m gamma (0
//   for Alltoall): the next send starts when the data is in and reduced, or when the send slot's
//   gap has passed, whichever is later. The last step ends at F = o_s + W + L + o_r + c.
//
//   pairwise (both) and ring Reduce_scatter (the reversed ring: receive, reduce, forward):
//     T = (p - 2) S + F.
//   scattered Alltoall, batches of 32 distances (distance 0, the rank itself, has no message):
//     B = ceil(p / 32) batches, every message of a batch sent at once, T = (B - 1) S + F.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <random>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "one_level_machine.hpp"
#include "random_times.hpp"

using namespace piccolo;
using piccolo::test::femtoseconds;
using piccolo::test::one_level;

namespace {

double closed_form(const LogGP& x, double steps, double m, double gamma) {
    const double w = (m - 1) * x.G, c = m * gamma;
    const double step = x.o_s + w + std::max(x.L + x.o_r + c, x.g - x.o_s);
    return (steps - 1) * step + x.o_s + w + x.L + x.o_r + c;
}

struct Case {
    Collective collective;
    const char* algorithm;
};

}  // namespace

TEST_CASE("reduce_scatter and alltoall, uncontended: the textbook closed forms, to 1e-12") {
    std::mt19937_64 rng(2005);
    const std::vector<Case> cases{{Collective::reduce_scatter, "pairwise"},
                                  {Collective::reduce_scatter, "ring"},
                                  {Collective::alltoall, "pairwise"},
                                  {Collective::alltoall, "scattered"}};
    for (const Case& kase : cases)
        for (Rank p : {2, 3, 5, 8, 12, 64, 70})
            for (std::uint64_t bytes : {1, 1000, 65536})
                for (Style style : {Style::mpi, Style::nccl}) {
                    auto us = [&] { return femtoseconds(rng, 0.05e-6, 20e-6); };
                    const LogGP x{us(), us(), us(), us(), femtoseconds(rng, 1e-12, 2e-9)};
                    const bool sums = kase.collective == Collective::reduce_scatter;
                    const double gamma = sums ? femtoseconds(rng, 1e-12, 1e-9) : 0;
                    const bool scattered = std::string_view(kase.algorithm) == "scattered";
                    const double steps = scattered ? std::ceil(p / 32.0) : p - 1;
                    // The fan-out of a step: one message, or a whole batch.
                    const int fan_out = scattered ? std::min(p - 1, 32) : 1;
                    const Machine machine = one_level("pairwise-closed-form", x, p, fan_out, gamma);
                    const RankLayout layout(machine, 1, p);
                    const Schedule s =
                        generate({kase.collective, kase.algorithm, 0, p, bytes, false, style});
                    const double expected =
                        closed_form(x, steps, static_cast<double>(bytes), gamma);
                    for (bool contention : {false, true}) {
                        SimOptions options;
                        options.contention = contention;
                        const double simulated = simulate(s, machine, layout, options).makespan;
                        INFO(fmt::format("{} {} p={} m={} style={} contention={}: simulated "
                                         "{:.17g} expected {:.17g}",
                                         to_string(kase.collective), kase.algorithm, p, bytes,
                                         to_string(style), contention, simulated, expected));
                        CHECK(std::abs(simulated - expected) <= 1e-12 * expected);
                    }
                }
}
