// Reduce_scatter by recursive exchange with radix k on a one-level LogGP machine, uncontended,
// against its form derived by hand here from MPICH's rounds
// (MPIR_TSP_Ireduce_scatter_block_sched_intra_recexch with recexchalgo.c's neighbours and
// counts, MPICH v4.1.2). A message of b bytes sent at s is delivered at s + o_s + (b-1)G + L +
// o_r; its send slot is busy until s + o_s + (b-1)G and then in its gap for max(0, g - o_s)
// (sim/engine/README.md, "Elastic send slots": a send takes a free slot, else waits for the one
// whose gap ends first, else, when every slot is still sending, opens a new one).
//
//   p = k^n, g <= o_s (no gap binds): the ranks of a group of k (equal but for digit i) start
//   phase i together, so the phase costs every rank of digit d the same f_i(d) and
//     T = sum_i max_d f_i(d),
//   f_i from the k (k - 1) turns of the group with messages of c_i = m k^i bytes: digit d's turn
//   t goes to digit e = t (t < d) or t + 1, and e sends to d at its own turn d (d < e) or d - 1.
//   A turn's send starts when the previous turn's reduce ends; the reduce ends c_i gamma after
//   the latest of the partner's message delivered, the previous reduce and its own send sent
//   (mpi) or delivered (nccl). With k = 2 that is f_i = o_s + W_i + L + o_r + c_i gamma, rh's form
//   (MPICH's recursive halving).
//
//   Any p and k: the same turns with each rank's own clock, after step 1 (every sender's vector
//   of p m bytes sent at 0, each reduced in turn, p m gamma, as it is there) and before step 3
//   (the segments of the senders, sent when the last reduce ends); the slots as above. T is the
//   latest reduce or delivery.
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

// Digit d's partner at turn t, and the turn at which partner e sends to d.
int partner_digit(int d, int t) {
    return t < d ? t : t + 1;
}
int turn_to(int e, int d) {
    return d < e ? d : d - 1;
}

// f(d) of one phase of a group of k with messages of c bytes, every rank starting at 0.
std::vector<double> phase_costs(const LogGP& x, int k, double c, double gamma, Style style) {
    const double w = x.o_s + (c - 1) * x.G, d = w + x.L + x.o_r;
    const double none = -1;
    std::vector<std::vector<double>> start(k, std::vector<double>(k - 1, none)), done = start;
    for (bool progress = true; progress;) {
        progress = false;
        for (int r = 0; r < k; ++r)
            for (int t = 0; t < k - 1; ++t) {
                if (start[r][t] == none && (t == 0 || done[r][t - 1] != none)) {
                    start[r][t] = t == 0 ? 0 : done[r][t - 1];
                    progress = true;
                }
                const int e = partner_digit(r, t);
                const double in = start[e][turn_to(e, r)];
                if (done[r][t] != none || start[r][t] == none || in == none) continue;
                const double own = start[r][t] + (style == Style::nccl ? d : w);
                done[r][t] = std::max({in + d, t == 0 ? 0.0 : done[r][t - 1], own}) + c * gamma;
                progress = true;
            }
    }
    std::vector<double> f(k);
    for (int r = 0; r < k; ++r) f[r] = done[r][k - 2];
    return f;
}

double power_form(const LogGP& x, Rank p, int k, double m, double gamma, Style style) {
    double time = 0;
    for (double c = m; c < m * p; c *= k) {
        const std::vector<double> f = phase_costs(x, k, c, gamma, style);
        time += *std::max_element(f.begin(), f.end());
    }
    return time;
}

// MPICH's recexch with each rank's clock (recexchalgo.c's rules, written out again).
class Clocks {
  public:
    Clocks(const LogGP& x, Rank p, int k, double m, double gamma, Style style)
        : x_(x), p_(p), k_(k), m_(m), gamma_(gamma), style_(style), slots_(p) {
        while (static_cast<std::int64_t>(core_) * k <= p) {
            core_ *= k;
            ++phases_;
        }
        rem_ = p - core_;
        t_ = rem_ * k / (k - 1);
    }

    double run() {
        std::vector<double> ready(p_, 0);  // a rank's last reduce ends (its data is there)
        double end = 0;
        // Step 1: MPII_Recexchalgo_get_neighbors' senders, reduced in the order of step1_recvfrom.
        for (Rank r = 0; r < p_; ++r)
            for (Rank s : senders(r)) {
                const double at = delivered(send(s, 0, p_ * m_), p_ * m_);
                ready[r] = std::max(ready[r], at) + p_ * m_ * gamma_;
            }
        for (int phase = phases_ - 1; phase >= 0; --phase) exchange(phase, ready);
        for (Rank r = 0; r < p_; ++r) {
            end = std::max(end, ready[r]);
            for (std::size_t i = senders(r).size(); i > 0; --i)  // a segment to each sender
                end = std::max(end, delivered(send(r, ready[r], m_), m_));
        }
        return end;
    }

  private:
    [[nodiscard]] std::vector<Rank> senders(Rank r) const {
        std::vector<Rank> from;
        if (r < t_ && r % k_ == k_ - 1)
            for (Rank i = 1; i < k_; ++i) from.push_back(r - i);
        else if (r == t_ && t_ >= 1 && (t_ - 1) % k_ != k_ - 1)
            for (Rank i = 1; i <= (t_ - 1) % k_ + 1; ++i) from.push_back(t_ - i);
        return from;
    }
    [[nodiscard]] Rank orig(Rank y) const {
        return y < rem_ / (k_ - 1) ? y * k_ + k_ - 1 : y + rem_;
    }
    // Segments of new ranks [lo, hi) (MPII_Recexchalgo_get_count_and_offset): orig(hi - 1) -
    // orig(lo - 1), orig(-1) = -1.
    [[nodiscard]] double segments(Rank lo, Rank hi) const {
        return static_cast<double>(orig(hi - 1) - (lo == 0 ? -1 : orig(lo - 1)));
    }

    struct Slot {
        double data = -std::numeric_limits<double>::infinity(), gap = data;
    };
    double send(Rank r, double at, double b) {
        std::vector<Slot>& slots = slots_[r];
        Slot* free = nullptr;
        Slot* gap = nullptr;
        for (Slot& s : slots) {
            if (s.gap <= at && !free) free = &s;
            if (s.data <= at && at < s.gap && (!gap || s.gap < gap->gap)) gap = &s;
        }
        double start = at;
        Slot* use = free;
        if (!use && gap) {
            use = gap;
            start = gap->gap;
        }
        if (!use) use = &slots.emplace_back();
        use->data = start + x_.o_s + (b - 1) * x_.G;
        use->gap = use->data + std::max(0.0, x_.g - x_.o_s);
        return start;
    }
    [[nodiscard]] double delivered(double start, double b) const {
        return start + x_.o_s + (b - 1) * x_.G + x_.L + x_.o_r;
    }

    void exchange(int phase, std::vector<double>& ready) {
        Rank spacing = 1;
        for (int i = 0; i < phase; ++i) spacing *= k_;
        const int turns = k_ - 1;
        const double none = -1;
        std::vector<std::vector<double>> start(core_, std::vector<double>(turns, none));
        std::vector<std::vector<double>> done = start, bytes = start;
        std::vector<double> sent_at(core_, none);  // the previous send's sent (mpi) / delivered
        for (bool progress = true; progress;) {
            progress = false;
            for (Rank y = 0; y < core_; ++y)
                for (int t = 0; t < turns; ++t) {
                    const Rank r = orig(y);
                    const int digit = static_cast<int>(y / spacing % k_);
                    const Rank to = y + (partner_digit(digit, t) - digit) * spacing;
                    if (start[y][t] == none && (t == 0 || done[y][t - 1] != none)) {
                        const Rank group = to / spacing * spacing;
                        bytes[y][t] = segments(group, group + spacing) * m_;
                        const double at =
                            std::max(t == 0 ? ready[r] : done[y][t - 1], sent_at[y]);
                        start[y][t] = send(r, at, bytes[y][t]);
                        sent_at[y] = style_ == Style::nccl
                                         ? delivered(start[y][t], bytes[y][t])
                                         : start[y][t] + x_.o_s + (bytes[y][t] - 1) * x_.G;
                        progress = true;
                    }
                    const int e = partner_digit(digit, t);
                    const Rank from = to;
                    const int their = turn_to(e, digit);
                    if (done[y][t] != none || start[y][t] == none || start[from][their] == none)
                        continue;
                    const double in = delivered(start[from][their], bytes[from][their]);
                    const double own = style_ == Style::nccl
                                           ? delivered(start[y][t], bytes[y][t])
                                           : start[y][t] + x_.o_s + (bytes[y][t] - 1) * x_.G;
                    const Rank group = y / spacing * spacing;
                    done[y][t] = std::max({in, t == 0 ? ready[r] : done[y][t - 1], own}) +
                                 segments(group, group + spacing) * m_ * gamma_;
                    progress = true;
                }
        }
        for (Rank y = 0; y < core_; ++y) ready[orig(y)] = done[y][turns - 1];
    }

    LogGP x_;
    Rank p_;
    int k_;
    double m_, gamma_;
    Style style_;
    Rank core_ = 1, rem_ = 0, t_ = 0;
    int phases_ = 0;
    std::vector<std::vector<Slot>> slots_;
};

}  // namespace

TEST_CASE("recexch reduce_scatter, uncontended: the form from MPICH's rounds, to 1e-12") {
    std::mt19937_64 rng(2005);
    for (Rank p : {2, 3, 5, 8, 12, 64})
        for (int k : {2, 3, 4, 5, 8, 64}) {
            if (k > p) continue;
            for (std::uint64_t bytes : {1, 1000, 65536})
                for (Style style : {Style::mpi, Style::nccl}) {
                    auto us = [&] { return femtoseconds(rng, 0.05e-6, 20e-6); };
                    LogGP x{us(), us(), us(), us(), femtoseconds(rng, 1e-12, 2e-9)};
                    const double gamma = femtoseconds(rng, 1e-12, 1e-9);
                    const Machine machine = one_level("recexch-closed-form", x, p, 1, gamma);
                    const RankLayout layout(machine, 1, p);
                    const Schedule s = generate(
                        {Collective::reduce_scatter, "recexch", k, p, bytes, false, style});
                    const double m = static_cast<double>(bytes);
                    const double expected = Clocks(x, p, k, m, gamma, style).run();
                    SimOptions options;
                    options.contention = false;
                    const double simulated = simulate(s, machine, layout, options).makespan;
                    INFO(fmt::format("p={} k={} m={} style={}: simulated {:.17g} expected {:.17g}",
                                     p, k, bytes, to_string(style), simulated, expected));
                    CHECK(std::abs(simulated - expected) <= 1e-12 * expected);
                    std::int64_t power = 1;
                    while (power < p) power *= k;
                    if (power != p) continue;
                    // p = k^n: the phase form, with the gap below o_s so that it never binds.
                    x.g = x.o_s * 0.5;
                    const Machine no_gap = one_level("recexch-closed-form", x, p, 1, gamma);
                    const double form = power_form(x, p, k, m, gamma, style);
                    const double replayed = simulate(s, no_gap, RankLayout(no_gap, 1, p), options)
                                                .makespan;
                    CHECK(std::abs(Clocks(x, p, k, m, gamma, style).run() - form) <= 1e-12 * form);
                    CHECK(std::abs(replayed - form) <= 1e-12 * form);
                }
        }
}

TEST_CASE("recexch with k = 2 at p = 2^n: rh's closed form, phase by phase") {
    // p = 8, m = 1 KiB, mpi, g = 0: each phase i = 2, 1, 0 costs o_s + (c_i - 1) G + L + o_r +
    // c_i gamma with c_i = m 2^i.
    const LogGP x{1e-6, 2e-6, 3e-6, 0, 1e-9};
    const double gamma = 0.5e-9, m = 1024;
    double expected = 0;
    for (double c : {4 * m, 2 * m, m}) expected += 2e-6 + (c - 1) * 1e-9 + 1e-6 + 3e-6 + c * gamma;
    CHECK(std::abs(power_form(x, 8, 2, m, gamma, Style::mpi) - expected) <= 1e-12 * expected);
}
