// van de Geijn's Bcast (scatter-rd, scatter-ring) on a one-level LogGP machine, uncontended,
// against closed forms derived by hand here. A message of m bytes is delivered
// d(m) = o_s + (m-1)G + L + o_r after its send starts and sent s(m) = o_s + (m-1)G after it
// (sim/engine/README.md, "--no-contention"); a rank's next send also waits for its send slot's
// gap, max(0, g - o_s) after the previous one was sent.
//
// Textbook (M. Barnett, L. Shuler, R. van de Geijn et al., "Interprocessor collective
// communication library (InterCom)", SHPCC 1994; R. Thakur, R. Rabenseifner, W. Gropp,
// "Optimization of collective communication operations in MPICH", IJHPCA 19(1), 2005, and the
// cost comments of MPICH v4.1.2's bcast_intra_scatter_*_allgather.c), for p = 2^n and n bytes a
// multiple of p: scatter then recursive doubling 2 lg p alpha + 2 (p-1)/p n beta, scatter then
// ring (lg p + p - 1) alpha + 2 (p-1)/p n beta. On this machine, with alpha = o_s + L + o_r - G
// and beta = G (so d(m) = alpha + m beta), the nccl style (a step waits for its own send to be
// delivered, as the model's synchronous steps do) gives exactly these: the binomial scatter ends
// on every rank at sum_{i=1..lg p} d(n / 2^i) (a rank's arrival plus its own sends is its
// parent's arrival plus all the parent's sends), then every rank runs the allgather's steps in
// lockstep, d(2^i n / p) for i = 0..lg p - 1 or p - 1 times d(n / p).
//
// Any p, any size, mpi and nccl: the form is MPICH's program itself on each rank's clock
// (MPII_Scatter_for_bcast, then the recursive doubling with its recursive halving for p not a
// power of 2, or the ring, ported here from the C loops of v4.1.2): a blocking call starts when
// the rank's previous one has ended, a send also when its slot's gap has passed; a send ends
// when sent (mpi: MPIC_Send completes locally) or delivered (nccl); a receive when the matching
// message (the next from that rank) is delivered; a sendrecv when both have. MPICH's zero-byte
// messages of empty chunks are left out, as the schedules leave them out. T is the last
// delivery.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "one_level_machine.hpp"
#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "random_times.hpp"

using namespace piccolo;
using piccolo::test::femtoseconds;
using piccolo::test::one_level;

namespace {

// One blocking call of a rank: a send to `to`, a receive from `from`, or both (MPIC_Sendrecv).
struct Call {
    std::int64_t to = -1, from = -1;
    std::int64_t bytes = 0;  // sent
};

// MPICH's calls on relative rank x (absolute ranks are a rotation: the clocks do not care).
std::vector<Call> program(std::int64_t x, std::int64_t p, std::int64_t n, bool ring) {
    const std::int64_t ss = (n + p - 1) / p;  // scatter_size
    const auto chunk = [&](std::int64_t i) { return std::clamp<std::int64_t>(n - i * ss, 0, ss); };
    std::vector<Call> calls;
    // MPII_Scatter_for_bcast
    std::int64_t mask = 1, curr = x == 0 ? n : 0;
    for (; mask < p; mask <<= 1)
        if ((x & mask) != 0) {
            if (n - x * ss > 0) {
                calls.push_back({-1, x - mask, 0});
                curr = std::min(n - x * ss, mask * ss);  // what the parent sends (send_size)
            }
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (x + mask < p && curr - ss * mask > 0) {
            calls.push_back({x + mask, -1, curr - ss * mask});
            curr = ss * mask;
        }
    if (ring) {  // MPIR_Bcast_intra_scatter_ring_allgather: step i sends chunk x - i + 1
        for (std::int64_t i = 1; i < p; ++i)
            calls.push_back({(x + 1) % p, (x + p - 1) % p, chunk(((x - i + 1) % p + p) % p)});
        return calls;
    }
    // MPIR_Bcast_intra_scatter_recursive_doubling_allgather
    curr = chunk(x);
    std::int64_t recv_size = 0;
    for (mask = 1; mask < p; mask <<= 1) {
        const std::int64_t dst = x ^ mask, tree = x & ~(mask - 1), dst_tree = dst & ~(mask - 1);
        if (dst < p) {
            recv_size = std::max<std::int64_t>(0, std::min(n - dst_tree * ss, mask * ss));
            calls.push_back({dst, dst, curr});
            curr += recv_size;
        }
        if (dst_tree + mask <= p) continue;
        const std::int64_t completed = p - tree - mask;
        for (std::int64_t tmp = mask >> 1; tmp > 0; tmp >>= 1) {
            const std::int64_t y = x ^ tmp, root = x & ~(2 * tmp - 1);
            if (y > x && x < root + completed && y >= root + completed) {
                calls.push_back({y, -1, recv_size});
            } else if (y < x && y < root + completed && x >= root + completed) {
                recv_size = std::max<std::int64_t>(0, n - ss * (tree + mask));
                calls.push_back({-1, y, 0});
                curr += recv_size;
            }
        }
    }
    return calls;
}

// The programs run on each rank's clock (see the header); the sizes of received messages are
// the matching sends', so a receive of an empty chunk is one that waits for nothing.
double mpich_form(const LogGP& x, std::int64_t p, std::int64_t n, bool ring, Style style) {
    std::vector<std::vector<Call>> calls;
    for (std::int64_t r = 0; r < p; ++r) calls.push_back(program(r, p, n, ring));
    std::vector<std::size_t> next(static_cast<std::size_t>(p), 0);
    std::vector<double> ready(static_cast<std::size_t>(p), 0), slot(ready);
    std::vector<bool> sent_this(static_cast<std::size_t>(p), false);  // its send part is done
    std::map<std::pair<std::int64_t, std::int64_t>, std::deque<std::pair<double, bool>>> queue;
    double end = 0;
    for (bool progress = true; progress;) {
        progress = false;
        for (std::int64_t r = 0; r < p; ++r) {
            const auto ri = static_cast<std::size_t>(r);
            while (next[ri] < calls[ri].size()) {
                const Call& c = calls[ri][next[ri]];
                double done = ready[ri];
                if (c.to >= 0 && !sent_this[ri]) {
                    sent_this[ri] = true;
                    if (c.bytes > 0) {
                        const double start = std::max(ready[ri], slot[ri]);
                        const double w = static_cast<double>(c.bytes - 1) * x.G;
                        const double delivered = start + x.o_s + w + x.L + x.o_r;
                        slot[ri] = start + x.o_s + w + std::max(0.0, x.g - x.o_s);
                        end = std::max(end, delivered);
                        queue[{r, c.to}].push_back({delivered, true});
                        ready[ri] = style == Style::mpi ? start + x.o_s + w : delivered;
                    } else {
                        queue[{r, c.to}].push_back({0, false});  // MPICH's zero-byte message
                    }
                    progress = true;
                }
                if (c.from >= 0) {
                    auto& q = queue[{c.from, r}];
                    if (q.empty()) break;  // not sent yet
                    if (q.front().second) done = std::max(ready[ri], q.front().first);
                    q.pop_front();
                }
                ready[ri] = std::max(ready[ri], done);
                sent_this[ri] = false;
                ++next[ri];
                progress = true;
            }
        }
    }
    for (std::size_t r = 0; r < calls.size(); ++r) REQUIRE(next[r] == calls[r].size());
    return end;
}

int lg(Rank p) {
    int n = 0;
    while ((Rank{1} << n) < p) ++n;
    return n;
}

void check(double simulated, double expected, const std::string& what) {
    INFO(fmt::format("{}: simulated {:.17g} expected {:.17g}", what, simulated, expected));
    CHECK(std::abs(simulated - expected) <= 1e-12 * expected);
}

}  // namespace

TEST_CASE("scatter-rd and scatter-ring, uncontended: MPICH's program on each rank's clock") {
    std::mt19937_64 rng(1994);
    for (Rank p : {2, 3, 5, 8, 12, 64})
        for (std::uint64_t bytes : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{1000},
                                    std::uint64_t{65536}, std::uint64_t{1000003}})
            for (Style style : {Style::mpi, Style::nccl}) {
                auto us = [&] { return femtoseconds(rng, 0.05e-6, 20e-6); };
                const LogGP x{us(), us(), us(), us(), femtoseconds(rng, 1e-12, 2e-9)};
                const Machine machine = one_level("scatter-closed-form", x, p, 1, 1e-10);
                const RankLayout layout(machine, 1, p);
                SimOptions off;
                off.contention = false;
                for (bool ring : {false, true}) {
                    const char* algorithm = ring ? "scatter-ring" : "scatter-rd";
                    const Schedule s =
                        generate({Collective::bcast, algorithm, 0, p, bytes, false, style, p / 2});
                    const double expected =
                        mpich_form(x, p, static_cast<std::int64_t>(bytes), ring, style);
                    check(simulate(s, machine, layout, off).makespan, expected,
                          fmt::format("{} p={} n={} style={}", algorithm, p, bytes,
                                      to_string(style)));
                }
            }
}

TEST_CASE("scatter-rd and scatter-ring, p = 2^n, nccl: van de Geijn's closed forms, to 1e-12") {
    std::mt19937_64 rng(2005);
    for (Rank p : {2, 8, 64})
        for (std::uint64_t per_rank : {std::uint64_t{1}, std::uint64_t{125}, std::uint64_t{4096}}) {
            const std::uint64_t bytes = per_rank * static_cast<std::uint64_t>(p);
            auto us = [&] { return femtoseconds(rng, 0.05e-6, 20e-6); };
            const double o_s = us();
            // g <= o_s: a send slot's gap never holds a step back.
            const LogGP x{us(), o_s, us(), femtoseconds(rng, 0.01e-6, o_s),
                          femtoseconds(rng, 1e-12, 2e-9)};
            const Machine machine = one_level("scatter-closed-form", x, p, 1, 1e-10);
            const RankLayout layout(machine, 1, p);
            SimOptions off;
            off.contention = false;
            const double alpha = x.o_s + x.L + x.o_r - x.G, beta = x.G;
            const double n = static_cast<double>(bytes), q = p, lgp = lg(p);
            const double rd = 2 * lgp * alpha + 2 * (q - 1) / q * n * beta;
            const double ring = (lgp + q - 1) * alpha + 2 * (q - 1) / q * n * beta;
            for (Rank root : {Rank{0}, p - 1}) {
                const std::string what = fmt::format("p={} n={} root={}", p, bytes, root);
                const auto run = [&](const char* a) {
                    return simulate(generate({Collective::bcast, a, 0, p, bytes, false, Style::nccl,
                                              root}),
                                    machine, layout, off)
                        .makespan;
                };
                check(run("scatter-rd"), rd, "scatter-rd " + what);
                check(run("scatter-ring"), ring, "scatter-ring " + what);
                // The program on each rank's clock agrees (it is the form above here).
                check(mpich_form(x, p, static_cast<std::int64_t>(bytes), false, Style::nccl), rd,
                      "program rd " + what);
            }
        }
}
