// Bruck's Alltoall with radix k on a one-level LogGP machine, uncontended, against its closed
// form derived by hand here (Bruck et al., "Efficient algorithms for all-to-all communications in
// multiprocessor systems", IEEE TPDS 8(11), 1997; the radix-k phases of MPICH's
// MPIR_Alltoall_intra_k_brucks, MPICH v4.1.2, whose cost comment for p = k^n reads
// log_k p alpha + (n/p)(p - 1) log_k p beta, n the bytes a rank sends in all):
//
//   Every rank runs the same phases at the same times. The rotation before costs
//   R = lambda + p m pi (a permute of p blocks of m bytes); the two passes after cost 2 R.
//   Phase i (delta = k^i) sends c_ij blocks to partner j = 1..J_i (j delta < p), c_ij = the
//   offsets o < p whose base-k digit i is j, all at once; the next phase starts when the last
//   receive is in, at max_j (s_j + o_s + (m c_ij - 1) G + L + o_r), s_j the send's start. A send
//   starts at the phase's start on a slot whose gap is over, else on the slot whose gap ends
//   first, then (the engine's elastic slots; with device_radix = k - 1 the same k - 1 slots,
//   sim/engine/README.md): a slot used by a message of W = (b - 1) G at s frees at
//   s + o_s + W + max(0, g - o_s). The sends of a phase ask in partner order, the largest first.
//
//   For p = k^n every message is p/k blocks, W = (m p/k - 1) G, and this is the textbook sum:
//     T = 3 R + (n - 1) (o_s + W + max(L + o_r, g - o_s)) + o_s + W + L + o_r.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "one_level_machine.hpp"
#include "random_times.hpp"

using namespace piccolo;
using piccolo::test::femtoseconds;
using piccolo::test::one_level;

namespace {

// c_ij: blocks of partner j (index j - 1) in phase i, counted offset by offset.
std::vector<std::vector<double>> blocks(Rank p, int k) {
    std::vector<std::vector<double>> phases;
    for (std::int64_t delta = 1; delta < p; delta *= k) {
        const std::int64_t partners = std::min<std::int64_t>(k - 1, (p - 1) / delta);
        std::vector<double> counts(static_cast<std::size_t>(partners), 0);
        for (std::int64_t o = 0; o < p; ++o) {
            const std::int64_t digit = o / delta % k;
            if (digit > 0) counts[static_cast<std::size_t>(digit - 1)] += 1;
        }
        phases.push_back(std::move(counts));
    }
    return phases;
}

double closed_form(const LogGP& x, Rank p, int k, double m, double rotation) {
    std::vector<double> slots;  // when each send slot's gap ends
    double start = rotation;    // the phase's start
    for (const std::vector<double>& counts : blocks(p, k)) {
        std::vector<bool> claimed(slots.size(), false);
        double end = 0;
        for (double c : counts) {
            // A slot free at the phase's start, else the unclaimed one whose gap ends first.
            std::size_t pick = slots.size();
            for (std::size_t s = 0; s < slots.size(); ++s)
                if (!claimed[s] && (pick == slots.size() || slots[s] < slots[pick])) pick = s;
            if (pick == slots.size()) {
                slots.push_back(0);
                claimed.push_back(false);
            }
            const double s = std::max(start, slots[pick]);
            const double w = (m * c - 1) * x.G;
            claimed[pick] = true;
            slots[pick] = s + x.o_s + w + std::max(0.0, x.g - x.o_s);
            end = std::max(end, s + x.o_s + w + x.L + x.o_r);
        }
        start = end;
    }
    return start + 2 * rotation;
}

}  // namespace

TEST_CASE("bruck alltoall, uncontended: the phases' closed form plus the rotations, to 1e-12") {
    std::mt19937_64 rng(1997);
    const std::vector<std::pair<Rank, std::vector<int>>> grid{{2, {2}},
                                                              {3, {2, 3}},
                                                              {5, {2, 3, 4, 5}},
                                                              {8, {2, 3, 4, 7, 8}},
                                                              {12, {2, 3, 4, 5, 11, 12}},
                                                              {64, {2, 3, 4, 7, 8, 9, 63, 64}}};
    std::size_t powers = 0;
    for (const auto& point : grid)  // no structured binding: INFO's lambda captures p (clang)
        for (const Rank p = point.first; int k : point.second)
            for (std::uint64_t bytes : {1, 1000, 65536})
                for (Style style : {Style::mpi, Style::nccl}) {
                    auto us = [&] { return femtoseconds(rng, 0.05e-6, 20e-6); };
                    const LogGP x{us(), us(), us(), us(), femtoseconds(rng, 1e-12, 2e-9)};
                    const double lambda = us(), pi = femtoseconds(rng, 1e-12, 1e-10);
                    const Machine machine =
                        one_level("bruck-alltoall-closed-form", x, p, k - 1, 0, lambda, pi);
                    const RankLayout layout(machine, 1, p);
                    const Schedule s =
                        generate({Collective::alltoall, "bruck", k, p, bytes, false, style});
                    const double m = static_cast<double>(bytes);
                    const double rotation = lambda + p * m * pi;
                    const double expected = closed_form(x, p, k, m, rotation);
                    // p = k^n: the textbook sum.
                    int n = 0;
                    std::int64_t q = 1;
                    for (; q < p; q *= k) ++n;
                    if (q == p) {
                        ++powers;
                        const double w = (m * p / k - 1) * x.G;
                        const double phase = x.o_s + w + std::max(x.L + x.o_r, x.g - x.o_s);
                        const double textbook =
                            3 * rotation + (n - 1) * phase + x.o_s + w + x.L + x.o_r;
                        CHECK(std::abs(textbook - expected) <= 1e-12 * expected);
                    }
                    for (bool contention : {false, true}) {
                        SimOptions options;
                        options.contention = contention;
                        const double simulated = simulate(s, machine, layout, options).makespan;
                        INFO(fmt::format("p={} k={} m={} style={} contention={}: simulated "
                                         "{:.17g} expected {:.17g}",
                                         p, k, bytes, to_string(style), contention, simulated,
                                         expected));
                        CHECK(std::abs(simulated - expected) <= 1e-12 * expected);
                    }
                }
    // p = k^n at (2, 2), (3, 3), (5, 5), (8, 2), (8, 8), (12, 12), (64, 2), (64, 4), (64, 8),
    // (64, 64): 10 points, 3 sizes, 2 styles.
    CHECK(powers == 10 * 3 * 2);
}
