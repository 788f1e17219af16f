// Reduce_scatter by recursive halving on a one-level LogGP machine, uncontended, against its
// closed form derived by hand here (MPICH's MPIR_Reduce_scatter_block_intra_recursive_halving,
// MPICH v4.1.2, whose cost comment reads lg p alpha + n (p - 1)/p beta + n (p - 1)/p gamma for
// p = 2^n, n the vector's bytes; R. Thakur, R. Rabenseifner, W. Gropp, "Optimization of collective
// communication operations in MPICH", IJHPCA 19(1), 2005).
//
//   p = 2^n: every rank runs the same steps at the same times. Step s sends and reduces
//   c_s = m p / 2^s bytes; the next send starts when the reduce is done or the send slot's gap has
//   passed, S_s = o_s + W_s + max(L + o_r + c_s gamma, g - o_s), W_s = (c_s - 1) G; the last
//   step ends at o_s + W_n + L + o_r + c_n gamma:
//     T = S_1 + ... + S_(n-1) + o_s + W_n + L + o_r + c_n gamma.
//
//   Any p (P = 2^floor(log2 p), rem = p - P): the ranks no longer run in step, so the form is
//   MPICH's steps with each rank's own clock. A message of b bytes sent at s is delivered at
//   s + o_s + (b - 1) G + L + o_r and frees its slot at s + o_s + (b - 1) G + max(0, g - o_s).
//   The fold-in's reduce of p m bytes ends at A = o_s + (p m - 1) G + L + o_r + p m gamma on the
//   odd ranks below 2 rem (0 elsewhere). A step's send starts at max(the rank's last reduce, its
//   slot free); its reduce ends gamma b' after the latest of the partner's message delivered
//   (b' bytes), the rank's previous reduce and its own send sent (mpi) or delivered (nccl). The
//   fold-out's send starts like a step's. T is the latest reduce or fold-out delivery.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <utility>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "one_level_machine.hpp"
#include "random_times.hpp"

using namespace piccolo;
using piccolo::test::femtoseconds;
using piccolo::test::one_level;

namespace {

double power_of_two_form(const LogGP& x, Rank p, double m, double gamma) {
    double time = 0, c = m * p;
    for (Rank mask = p / 2; mask > 0; mask /= 2) {
        c /= 2;
        const double w = (c - 1) * x.G;
        time += x.o_s + w + (mask > 1 ? std::max(x.L + x.o_r + c * gamma, x.g - x.o_s)
                                      : x.L + x.o_r + c * gamma);
    }
    return time;
}

double any_p_form(const LogGP& x, Rank p, double m, double gamma, Style style) {
    Rank core = 1;
    while (core * 2 <= p) core *= 2;
    const Rank rem = p - core;
    const double never = -std::numeric_limits<double>::infinity();
    auto old_rank = [&](Rank v) { return v < rem ? 2 * v + 1 : v + rem; };
    auto segments = [&](Rank from, Rank to) {  // of MPICH's units [from, to): newcnts
        double n = 0;
        for (Rank v = from; v < to; ++v) n += v < rem ? 2 : 1;
        return n;
    };
    std::vector<double> reduced(p, 0), slot(p, never), finish(p, 0);
    const double fold = x.o_s + (p * m - 1) * x.G + x.L + x.o_r + p * m * gamma;
    for (Rank r = 1; r < 2 * rem; r += 2) reduced[r] = finish[r] = fold;
    std::vector<Rank> send_idx(core, 0), recv_idx(core, 0), last_idx(core, core);
    std::vector<double> start(core), bytes(core);
    for (Rank mask = core / 2; mask > 0; mask /= 2) {
        std::vector<double> receives(core);
        for (Rank v = 0; v < core; ++v) {
            Rank from, to;  // the units v sends
            if (v < (v ^ mask)) {
                send_idx[v] = recv_idx[v] + mask;
                std::tie(from, to) = std::pair{send_idx[v], last_idx[v]};
            } else {
                recv_idx[v] = send_idx[v] + mask;
                std::tie(from, to) = std::pair{send_idx[v], recv_idx[v]};
            }
            const Rank r = old_rank(v);
            start[v] = std::max(reduced[r], slot[r]);
            bytes[v] = m * segments(from, to);
            slot[r] = start[v] + x.o_s + (bytes[v] - 1) * x.G + std::max(0.0, x.g - x.o_s);
        }
        for (Rank v = 0; v < core; ++v) {
            const Rank r = old_rank(v), partner = v ^ mask;
            const double own = start[v] + x.o_s + (bytes[v] - 1) * x.G +
                               (style == Style::nccl ? x.L + x.o_r : 0);
            const double in = start[partner] + x.o_s + (bytes[partner] - 1) * x.G + x.L + x.o_r;
            reduced[r] = std::max({in, reduced[r], own}) + bytes[partner] * gamma;
            finish[r] = reduced[r];
            send_idx[v] = recv_idx[v];
            last_idx[v] = recv_idx[v] + mask;
        }
    }
    for (Rank r = 1; r < 2 * rem; r += 2)
        finish[r - 1] =
            std::max(reduced[r], slot[r]) + x.o_s + (m - 1) * x.G + x.L + x.o_r;
    return *std::max_element(finish.begin(), finish.end());
}

}  // namespace

TEST_CASE("rh reduce_scatter, uncontended: the closed form, to 1e-12") {
    std::mt19937_64 rng(2005);
    for (Rank p : {2, 3, 5, 8, 12, 64})
        for (std::uint64_t bytes : {1, 1000, 65536})
            for (Style style : {Style::mpi, Style::nccl}) {
                auto us = [&] { return femtoseconds(rng, 0.05e-6, 20e-6); };
                const LogGP x{us(), us(), us(), us(), femtoseconds(rng, 1e-12, 2e-9)};
                const double gamma = femtoseconds(rng, 1e-12, 1e-9);
                const Machine machine = one_level("rh-closed-form", x, p, 1, gamma);
                const RankLayout layout(machine, 1, p);
                const Schedule s =
                    generate({Collective::reduce_scatter, "rh", 0, p, bytes, false, style});
                const double m = static_cast<double>(bytes);
                const double expected = any_p_form(x, p, m, gamma, style);
                const bool power = (p & (p - 1)) == 0;
                if (power) CHECK(std::abs(power_of_two_form(x, p, m, gamma) - expected) <=
                                 1e-12 * expected);
                // With p = 2^n no rank waits for a busy receive slot: the contended replay (one
                // slot per rank) agrees; otherwise a folded rank receives the fold-in and a
                // step's message at once, and only the uncontended replay is the closed form.
                for (bool contention : {false, true}) {
                    if (contention && !power) continue;
                    SimOptions options;
                    options.contention = contention;
                    const double simulated = simulate(s, machine, layout, options).makespan;
                    INFO(fmt::format("p={} m={} style={} contention={}: simulated {:.17g} "
                                     "expected {:.17g}",
                                     p, bytes, to_string(style), contention, simulated, expected));
                    CHECK(std::abs(simulated - expected) <= 1e-12 * expected);
                }
            }
}
