// SimOptions::give_up_after: a replay stops at the first step of a task later than the limit, or
// once a completion it decided is later, and reports that time, a lower bound on the makespan
// above the limit. It must never stop where the makespan is within the limit: no step of a task
// comes after the makespan.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>

#include "grid_machines.hpp"
#include "hand_cases.hpp"
#include "piccolo/generate.hpp"

using namespace piccolo;

namespace {

SimResult run_until(const Schedule& s, const Machine& m, int nodes, double limit) {
    SimOptions options;
    options.give_up_after = limit;
    return simulate(s, m, RankLayout(m, nodes, 1), options);
}

}  // namespace

TEST_CASE("give up: a chain of three messages stops at the first step past the limit") {
    // Device radix 1, each message of 3 B: o_s 1, (m-1)G 2, L 1, o_r 1. Message 0 is ready at 0
    // and delivered at 5, message 1 at 10, message 2 at 15. With no lanes to wait for, a
    // message's steps are READY and, o_s + L later, LAND at its receive slot.
    const Machine m = hand::machine(1, 1, std::nullopt);
    const Schedule s = hand::schedule(4, {{0, 1, 3, "-1"}, {1, 2, 3, "0"}, {2, 3, 3, "1"}});
    const SimResult full = run_until(s, m, 4, 15);
    CHECK_FALSE(full.gave_up);
    CHECK(full.makespan == 15);
    const SimResult at_ready = run_until(s, m, 4, 9.5);  // message 2's READY at 10
    CHECK(at_ready.gave_up);
    CHECK(at_ready.makespan == 10);
    const SimResult at_land = run_until(s, m, 4, 10);  // READY at 10 is not past 10
    CHECK(at_land.gave_up);
    CHECK(at_land.makespan == 12);
    CHECK(run_until(s, m, 4, 0).makespan == 2);  // message 0's LAND: READY at 0 is not past 0
    // Message 2's LAND at 12 decides its delivery at 15: past 14.5, with no step left to take.
    const SimResult decided = run_until(s, m, 4, 14.5);
    CHECK(decided.gave_up);
    CHECK(decided.makespan == 15);
}

TEST_CASE("give up: never within the makespan, every algorithm, k, style and collective") {
    std::size_t cases = 0, stopped = 0;
    for (const Machine& m : grid::machines())
        for (const AlgorithmInfo& info : algorithms())
            for (Rank p : {6, 8}) {
                const bool one_node = m.levels.back().fanout == 1;
                if (one_node && p > m.devices_per_node()) continue;
                const int ppn = one_node ? p : std::min(m.devices_per_node(), 4);
                const RankLayout layout(m, (p + ppn - 1) / ppn, ppn);
                for (int k : info.has_radix ? info.valid_radices(p) : std::vector<int>{0})
                    for (Collective c : {Collective::allgather, Collective::allreduce})
                        for (Style style : all_styles)
                            for (std::uint64_t bytes : {16ULL, 1048576ULL})
                                for (bool contention : {true, false}) {
                                    GenerateRequest request{
                                        c, std::string(info.name), k, p, bytes, false};
                                    request.style = style;
                                    const Schedule s = generate(request);
                                    SimOptions o{contention, false};
                                    const double t = simulate(s, m, layout, o).makespan;
                                    INFO(fmt::format("{} {} {} k={} p={} {} {} B contention {}",
                                                     m.name, to_string(c), info.name, k, p,
                                                     to_string(style), bytes, contention));
                                    o.give_up_after = t;
                                    const SimResult within = simulate(s, m, layout, o);
                                    CHECK_FALSE(within.gave_up);
                                    CHECK(within.makespan == t);
                                    o.give_up_after = 0.75 * t;
                                    const SimResult past = simulate(s, m, layout, o);
                                    if (past.gave_up) {
                                        CHECK(past.makespan > o.give_up_after);
                                        CHECK(past.makespan <= t);
                                    } else {
                                        CHECK(past.makespan == t);
                                    }
                                    ++cases;
                                    stopped += past.gave_up ? 1 : 0;
                                }
            }
    MESSAGE(
        fmt::format("{} cases, {} stopped at three quarters of their makespan", cases, stopped));
    CHECK(stopped * 2 > cases);
}
