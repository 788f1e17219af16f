// Reduce as reduce-scatter + gather (Rabenseifner's) on a one-level LogGP machine, uncontended,
// against its closed form derived by hand here (MPICH's MPIR_Reduce_intra_reduce_scatter_gather,
// MPICH v4.1.2, whose cost comment reads 2 lg p alpha + 2 n (p - 1)/p beta + n (p - 1)/p gamma
// for p = 2^n, n the buffer's bytes; R. Thakur, R. Rabenseifner, W. Gropp, "Optimization of
// collective communication operations in MPICH", IJHPCA 19(1), 2005, Section 4.4).
//
//   p = 2^n, N bytes a multiple of p: every rank runs the same halving steps at the same times.
//   Step j = 1..n sends and reduces c_j = N / 2^j bytes; the next send starts when the reduce is
//   done or the send slot's gap has passed: S_j = o_s + (c_j - 1) G + max(L + o_r + c_j gamma,
//   g - o_s), the gather's first send included (it waits for the last reduce and the slot). The
//   gather's level l = 1..n (mask P / 2^l) moves c'_l = N 2^(l-1) / p bytes, each hop
//   o_s + (c'_l - 1) G + L + o_r after the last:
//     T = S_1 + ... + S_n + sum_l (o_s + (c'_l - 1) G + L + o_r),
//   that is 2 n (o_s + L + o_r - G) + 2 N (p - 1)/p G + N (p - 1)/p gamma when g - o_s is
//   below L + o_r + c_n gamma: the paper's form with alpha = o_s + L + o_r - G, beta = G.
//
//   Any p, N and root: MPICH's loops with each rank's own clock. A message of b bytes sent at s
//   is delivered at s + o_s + (b - 1) G + L + o_r and frees its slot at s + o_s + (b - 1) G +
//   max(0, g - o_s) (a rank's sends never overlap here: each waits for a reduce that waited for
//   the previous send, or for receives delivered later). The fold-in's reduce of the N bytes
//   ends at A = o_s + (N - 1) G + L + o_r + N gamma on the even ranks below 2 rem. A step's send
//   starts at max(the rank's last reduce, its slot free); its reduce ends gamma b' after the
//   latest of the partner's message delivered (b' bytes), the previous reduce and its own send
//   sent (mpi) or delivered (nccl). Rank 0's segment 0 to a root that sat out, and each gather
//   send, start at max(everything the rank holds delivered or reduced, its slot free). T is the
//   root's last delivery (every task feeds it).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "one_level_machine.hpp"
#include "random_times.hpp"

using namespace piccolo;
using piccolo::test::femtoseconds;
using piccolo::test::one_level;

namespace {

double power_of_two_form(const LogGP& x, Rank p, double n_bytes, double gamma) {
    double time = 0;
    for (double c = n_bytes / 2; c >= n_bytes / p; c /= 2)
        time += x.o_s + (c - 1) * x.G + std::max(x.L + x.o_r + c * gamma, x.g - x.o_s);
    for (double c = n_bytes / p; c <= n_bytes / 2; c *= 2)
        time += x.o_s + (c - 1) * x.G + x.L + x.o_r;
    return time;
}

// Rank clocks through MPICH's loops (reduce_intra_reduce_scatter_gather.c, written out again).
class Clocks {
  public:
    Clocks(const LogGP& x, Rank p, std::uint64_t bytes, double gamma, Style style)
        : x_(x), gamma_(gamma), style_(style) {
        while (core_ * 2 <= p) core_ *= 2;
        rem_ = p - core_;
        const auto count = static_cast<std::uint64_t>(core_);
        for (std::uint64_t u = 0; u < count; ++u)  // MPICH's cnts: count / pof2, +1 for the first
            cnts_.push_back(static_cast<double>(bytes / count + (u < bytes % count ? 1 : 0)));
        ready_.assign(p, 0);
        slot_.assign(p, -std::numeric_limits<double>::infinity());
    }

    double run(Rank root) {
        const double n = segments(0, core_);
        for (Rank r = 0; r < 2 * rem_; r += 2)  // odd r sends at 0 to r - 1, which reduces
            ready_[r] = x_.o_s + (n - 1) * x_.G + x_.L + x_.o_r + n * gamma_;
        halve();
        return gather(root);
    }

  private:
    [[nodiscard]] Rank old_rank(Rank v) const { return v < rem_ ? 2 * v : v + rem_; }
    [[nodiscard]] double segments(Rank from, Rank to) const {
        double b = 0;
        for (Rank u = from; u < to; ++u) b += cnts_[u];
        return b;
    }
    // A send of b bytes from r that may start at `at`: its start; the slot is taken.
    double send(Rank r, double at, double b) {
        const double start = std::max(at, slot_[r]);
        slot_[r] = start + x_.o_s + (b - 1) * x_.G + std::max(0.0, x_.g - x_.o_s);
        return start;
    }
    [[nodiscard]] double delivered(double start, double b) const {
        return start + x_.o_s + (b - 1) * x_.G + x_.L + x_.o_r;
    }

    void halve() {
        std::vector<Rank> send_idx(core_, 0), recv_idx(core_, 0), last_idx(core_, core_);
        std::vector<double> start(core_), out(core_), in(core_);
        for (Rank mask = 1; mask < core_; mask *= 2) {
            for (Rank v = 0; v < core_; ++v) {
                const Rank half = core_ / (mask * 2);
                if (v < (v ^ mask)) {
                    send_idx[v] = recv_idx[v] + half;
                    out[v] = segments(send_idx[v], last_idx[v]);
                    in[v] = segments(recv_idx[v], send_idx[v]);
                } else {
                    recv_idx[v] = send_idx[v] + half;
                    out[v] = segments(send_idx[v], recv_idx[v]);
                    in[v] = segments(recv_idx[v], last_idx[v]);
                }
                start[v] = send(old_rank(v), ready_[old_rank(v)], out[v]);
            }
            for (Rank v = 0; v < core_; ++v) {
                const double own = style_ == Style::nccl
                                       ? delivered(start[v], out[v])
                                       : start[v] + x_.o_s + (out[v] - 1) * x_.G;
                const double got = delivered(start[v ^ mask], out[v ^ mask]);
                double& r = ready_[old_rank(v)];
                r = std::max({got, r, own}) + in[v] * gamma_;
                send_idx[v] = recv_idx[v];
                if (mask * 2 < core_) last_idx[v] = recv_idx[v] + core_ / (mask * 2);
            }
        }
        send_idx_ = std::move(send_idx);
        last_idx_ = std::move(last_idx);
    }

    double gather(Rank root) {
        std::vector<Rank> rank(core_);
        for (Rank v = 0; v < core_; ++v) rank[v] = old_rank(v);
        Rank new_root = root >= 2 * rem_ ? root - rem_ : root / 2;
        if (root < 2 * rem_ && root % 2 != 0) {  // rank 0 hands segment 0 to the root
            new_root = 0;
            ready_[root] = delivered(send(0, ready_[0], cnts_[0]), cnts_[0]);
            rank[0] = root;
        }
        std::vector<bool> done(core_, false);
        int level = 0;
        while ((Rank{1} << (level + 1)) < core_) ++level;
        for (Rank mask = core_ / 2; mask > 0; mask /= 2, --level) {
            const Rank step = core_ / (mask * 2);
            std::vector<double> arrival(core_, -1);
            std::vector<Rank> recv_idx(core_);
            for (Rank v = 0; v < core_; ++v) {
                if (done[v]) continue;
                const Rank w = v ^ mask;
                double b = 0;
                if (v < w) {
                    if (mask != core_ / 2) last_idx_[v] += step;
                    recv_idx[v] = send_idx_[v] + step;
                    b = segments(send_idx_[v], recv_idx[v]);
                } else {
                    recv_idx[v] = send_idx_[v] - step;
                    b = segments(send_idx_[v], last_idx_[v]);
                }
                if ((w >> level) == (new_root >> level)) {  // sends and is done
                    arrival[w] = delivered(send(rank[v], ready_[rank[v]], b), b);
                    done[v] = true;
                }
            }
            for (Rank v = 0; v < core_; ++v) {
                if (done[v] || arrival[v] < 0) continue;
                ready_[rank[v]] = std::max(ready_[rank[v]], arrival[v]);
                if (v > (v ^ mask)) send_idx_[v] = recv_idx[v];
            }
        }
        return ready_[root];
    }

    LogGP x_;
    Rank core_ = 1, rem_ = 0;
    double gamma_;
    Style style_;
    std::vector<double> cnts_, ready_, slot_;
    std::vector<Rank> send_idx_, last_idx_;
};

}  // namespace

TEST_CASE("rabenseifner reduce, uncontended: the closed form, to 1e-12") {
    std::mt19937_64 rng(2005);
    for (Rank p : {2, 3, 5, 8, 12, 64}) {
        Rank core = 1;
        while (core * 2 <= p) core *= 2;
        for (std::uint64_t bytes : {std::uint64_t(core), std::uint64_t{1000}, std::uint64_t{65537}})
            for (Rank root : {Rank{0}, Rank{1}, p - 1})
                for (Style style : {Style::mpi, Style::nccl}) {
                    auto us = [&] { return femtoseconds(rng, 0.05e-6, 20e-6); };
                    const LogGP x{us(), us(), us(), us(), femtoseconds(rng, 1e-12, 2e-9)};
                    const double gamma = femtoseconds(rng, 1e-12, 1e-9);
                    const Machine machine = one_level("rabenseifner-closed-form", x, p, 1, gamma);
                    const RankLayout layout(machine, 1, p);
                    const Schedule s = generate(
                        {Collective::reduce, "rabenseifner", 0, p, bytes, false, style, root});
                    const double expected = Clocks(x, p, bytes, gamma, style).run(root);
                    if (core == p && bytes % static_cast<std::uint64_t>(p) == 0) {
                        const double form =
                            power_of_two_form(x, p, static_cast<double>(bytes), gamma);
                        CHECK(std::abs(form - expected) <= 1e-12 * expected);
                    }
                    SimOptions options;
                    options.contention = false;
                    const double simulated = simulate(s, machine, layout, options).makespan;
                    INFO(fmt::format("p={} bytes={} root={} style={}: simulated {:.17g} expected "
                                     "{:.17g}",
                                     p, bytes, root, to_string(style), simulated, expected));
                    CHECK(std::abs(simulated - expected) <= 1e-12 * expected);
                }
    }
}

TEST_CASE("rabenseifner reduce: the paper's form when the gap never binds") {
    // p = 8, N = 64 KiB, g = 0: T = 2 lg p (o_s + L + o_r - G) + 2 N (p-1)/p G + N (p-1)/p gamma.
    const LogGP x{1e-6, 2e-6, 3e-6, 0, 1e-9};
    const double gamma = 0.5e-9, n = 65536;
    const double paper = 2 * 3 * (1e-6 + 2e-6 + 3e-6 - 1e-9) + 2 * n * 7.0 / 8 * 1e-9 +
                         n * 7.0 / 8 * gamma;
    CHECK(std::abs(power_of_two_form(x, 8, n, gamma) - paper) <= 1e-12 * paper);
}
