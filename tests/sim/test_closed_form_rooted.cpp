// Bcast and Reduce over k-nomial trees on a one-level LogGP machine, uncontended, against their
// closed forms derived by hand here. A message of m bytes is delivered d = o_s + (m-1)G + L + o_r
// after its send starts (sim/engine/README.md, "--no-contention").
//
// Bcast (Thakur, Rabenseifner and Gropp, "Optimization of collective communication operations
// in MPICH", IJHPCA 19(1), 2005: binomial broadcast ceil(lg p)(alpha + n beta)):
//   pipelined (every send of a rank at its receive, MPICH's MPIR_Bcast_intra_tree): rank x is
//     reached after as many hops as x has nonzero base-k digits, so T = D d with D the most
//     nonzero digits of any x < p; p = k^n: T = n d = ceil(log_k p) d, the paper's form.
//   mpi / nccl (a round's sends wait for the previous round's sent / delivered): rank x with
//     parent y (x's lowest nonzero digit, at position b, cleared) is reached at
//     A(x) = A(y) + r i + d, where r is the number of rounds y sent in before position b (those
//     b' above b, below y's own lowest nonzero digit, with y + k^b' < p) and i the round
//     interval: o_s + (m-1)G under mpi (sent; g <= o_s here, so a slot's gap has passed), d
//     under nccl. T = max A(x); p = k^n: max(n d, d + (n-1) i).
// Reduce (the same paper: binomial reduce ceil(lg p)(alpha + n beta + n gamma)): rank x's
//   partial result is ready at F(x): its children, nearest level first, j = 1..k-1, each
//   reduced as it arrives: t = max(t, F(child) + d) + m gamma, from t = 0; T = F(root).
//   p = k^n: T = n (d + (k-1) m gamma).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
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

std::int64_t power(int k, int e) {
    std::int64_t v = 1;
    while (e-- > 0) v *= k;
    return v;
}

int levels(Rank p, int k) {
    int n = 0;
    for (std::int64_t s = 1; s < p; s *= k) ++n;
    return n;
}

// The position of x's lowest nonzero base-k digit (x > 0).
int lowest_digit(std::int64_t x, int k) {
    int b = 0;
    while (x % k == 0) {
        x /= k;
        ++b;
    }
    return b;
}

double bcast_pipelined(Rank p, int k, double d) {
    int most = 0;
    for (std::int64_t x = 1; x < p; ++x) {
        int digits = 0;
        for (std::int64_t y = x; y > 0; y /= k) digits += y % k != 0 ? 1 : 0;
        most = std::max(most, digits);
    }
    return most * d;
}

// A(x) by the walk above, for relative ranks in increasing order (a parent is smaller).
double bcast_rounds(Rank p, int k, double d, double interval) {
    const int n = levels(p, k);
    std::vector<double> arrival(static_cast<std::size_t>(p), 0);
    for (std::int64_t x = 1; x < p; ++x) {
        const int b = lowest_digit(x, k);
        const std::int64_t place = power(k, b);
        const std::int64_t y = x - (x / place % k) * place;
        const int top = y == 0 ? n : lowest_digit(y, k);
        int before = 0;
        for (int above = b + 1; above < top; ++above) before += y + power(k, above) < p ? 1 : 0;
        arrival[static_cast<std::size_t>(x)] =
            arrival[static_cast<std::size_t>(y)] + before * interval + d;
    }
    return *std::max_element(arrival.begin(), arrival.end());
}

// F(x) by the recursion above.
double reduce_ready(std::int64_t x, Rank p, int k, double d, double reduce) {
    const int top = x == 0 ? levels(p, k) : lowest_digit(x, k);
    double t = 0;
    for (int level = 0; level < top; ++level)
        for (std::int64_t j = 1; j < k && x + j * power(k, level) < p; ++j)
            t = std::max(t, reduce_ready(x + j * power(k, level), p, k, d, reduce) + d) + reduce;
    return t;
}

struct Draw {
    LogGP x;
    double gamma;
};

// g <= o_s: a rank's next round finds its send slots out of their gaps (see the header).
Draw draw(std::mt19937_64& rng) {
    auto us = [&] { return femtoseconds(rng, 0.05e-6, 20e-6); };
    const double o_s = us();
    LogGP x{us(), o_s, us(), femtoseconds(rng, 0.01e-6, o_s), femtoseconds(rng, 1e-12, 2e-9)};
    return {x, femtoseconds(rng, 1e-12, 1e-9)};
}

const std::vector<std::pair<Rank, std::vector<int>>> grid{{2, {2}},
                                                          {3, {2, 3}},
                                                          {5, {2, 3, 4, 5}},
                                                          {8, {2, 3, 4, 7, 8}},
                                                          {12, {2, 3, 4, 5, 11, 12}},
                                                          {64, {2, 3, 4, 7, 8, 9, 63, 64}}};

bool is_power(Rank p, int k) {
    return power(k, levels(p, k)) == p;
}

void check(double simulated, double expected, const std::string& what) {
    INFO(fmt::format("{}: simulated {:.17g} expected {:.17g}", what, simulated, expected));
    CHECK(std::abs(simulated - expected) <= 1e-12 * expected);
}

}  // namespace

TEST_CASE("knomial bcast, uncontended: the tree's closed form in every style, to 1e-12") {
    std::mt19937_64 rng(2005);
    for (const auto& point : grid)  // no structured binding: INFO's lambda would capture it
        for (const Rank p = point.first; int k : point.second)
            for (std::uint64_t bytes : {1, 1000, 65536}) {
                const Draw draw_ = draw(rng);
                const LogGP& x = draw_.x;
                const auto m = static_cast<double>(bytes);
                const double d = x.o_s + (m - 1) * x.G + x.L + x.o_r;
                const double sent = x.o_s + (m - 1) * x.G;
                const Machine machine = one_level("rooted-closed-form", x, p, k - 1, draw_.gamma);
                const RankLayout layout(machine, 1, p);
                for (Style style : all_styles) {
                    const Schedule s =
                        generate({Collective::bcast, "knomial", k, p, bytes, false, style, p / 2});
                    const double expected = style == Style::pipelined ? bcast_pipelined(p, k, d)
                                            : style == Style::mpi     ? bcast_rounds(p, k, d, sent)
                                                                      : bcast_rounds(p, k, d, d);
                    const std::string what =
                        fmt::format("p={} k={} m={} style={}", p, k, bytes, to_string(style));
                    SimOptions off;
                    off.contention = false;
                    check(simulate(s, machine, layout, off).makespan, expected, what);
                    // A round sends to at most k - 1 children: the device radix never binds.
                    if (style != Style::pipelined)
                        check(simulate(s, machine, layout).makespan, expected, what + " contended");
                    if (!is_power(p, k)) continue;
                    const double n = levels(p, k);
                    const double textbook = style == Style::pipelined ? n * d
                                            : style == Style::mpi
                                                ? std::max(n * d, d + (n - 1) * sent)
                                                : n * d;
                    check(simulate(s, machine, layout, off).makespan, textbook, what + " p = k^n");
                }
            }
}

TEST_CASE("knomial reduce, uncontended: the tree's closed form, to 1e-12") {
    std::mt19937_64 rng(1969);
    for (const auto& point : grid)
        for (const Rank p = point.first; int k : point.second)
            for (std::uint64_t bytes : {1, 1000, 65536}) {
                const Draw draw_ = draw(rng);
                const LogGP& x = draw_.x;
                const auto m = static_cast<double>(bytes);
                const double d = x.o_s + (m - 1) * x.G + x.L + x.o_r;
                const Machine machine = one_level("rooted-closed-form", x, p, k - 1, draw_.gamma);
                const RankLayout layout(machine, 1, p);
                const Schedule s =
                    generate({Collective::reduce, "knomial", k, p, bytes, false, Style::mpi, 1});
                const double expected = reduce_ready(0, p, k, d, m * draw_.gamma);
                const std::string what = fmt::format("p={} k={} m={}", p, k, bytes);
                SimOptions off;
                off.contention = false;
                check(simulate(s, machine, layout, off).makespan, expected, what);
                if (!is_power(p, k)) continue;
                // p = k^n: a level's k - 1 children arrive together, within the device radix.
                check(simulate(s, machine, layout).makespan, expected, what + " contended");
                const double n = levels(p, k);
                check(simulate(s, machine, layout, off).makespan,
                      n * (d + (k - 1) * m * draw_.gamma), what + " p = k^n");
            }
}

TEST_CASE("binomial is the k-nomial tree with k = 2, Thakur et al.'s ceil(lg p) forms") {
    std::mt19937_64 rng(42);
    for (Rank p : {2, 3, 5, 8, 12, 64}) {
        const Draw draw_ = draw(rng);
        const LogGP& x = draw_.x;
        const double m = 4096;
        const double d = x.o_s + (m - 1) * x.G + x.L + x.o_r;
        const Machine machine = one_level("rooted-closed-form", x, p, 1, draw_.gamma);
        const RankLayout layout(machine, 1, p);
        SimOptions off;
        off.contention = false;
        const double lg = std::ceil(std::log2(static_cast<double>(p)));
        const Schedule bcast =
            generate({Collective::bcast, "binomial", 0, p, 4096, false, Style::pipelined});
        // The deepest rank has the most set bits: ceil(lg p) only when p = 2^n (p = 5: rank 3,
        // two hops, not three).
        check(simulate(bcast, machine, layout, off).makespan, bcast_pipelined(p, 2, d),
              fmt::format("bcast p={}", p));
        if ((p & (p - 1)) == 0)
            check(simulate(bcast, machine, layout, off).makespan, lg * d,
                  fmt::format("bcast p={} = 2^n", p));
        const Schedule reduce = generate({Collective::reduce, "binomial", 0, p, 4096, false});
        if ((p & (p - 1)) == 0)
            check(simulate(reduce, machine, layout, off).makespan, lg * (d + m * draw_.gamma),
                  fmt::format("reduce p={} = 2^n", p));
        check(simulate(reduce, machine, layout, off).makespan,
              reduce_ready(0, p, 2, d, m * draw_.gamma), fmt::format("reduce p={}", p));
    }
}
