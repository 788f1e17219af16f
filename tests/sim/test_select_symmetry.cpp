// The selector's use of the exact symmetry reduction: a sweep that replays every candidate it can
// through quotient schedules ranks exactly as the sweep that replays every DAG in full, time for
// time, on scales where the symmetry holds and where it does not: Allgather and Allreduce, and
// Reduce_scatter and Alltoall.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "piccolo/select/select.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

namespace {

SelectResult sweep(const Machine& machine, std::vector<Scale> scales, Style style, bool contention,
                   std::uint64_t symmetry_min_tasks, std::vector<Collective> collectives = {},
                   std::vector<std::string> algorithms = {}) {
    SelectRequest r;
    r.machine = machine;
    if (!collectives.empty()) r.collectives = std::move(collectives);
    r.algorithms = std::move(algorithms);
    r.scales = std::move(scales);
    // Multiples of every p below and sizes that are not (an Allreduce of 1000 B on 24 ranks does
    // not cut into equal segments: the reduced sweep replays those in full).
    r.sizes = {8, 1000, 24 * 1024, 3 << 20};
    r.style = style;
    r.contention = contention;
    r.threads = 2;
    r.symmetry_min_tasks = symmetry_min_tasks;
    return select(r);
}

void check_same(const SelectResult& reduced, const SelectResult& full) {
    REQUIRE(reduced.points.size() == full.points.size());
    for (std::size_t i = 0; i < full.points.size(); ++i) {
        const PointSelection& a = reduced.points[i];
        const PointSelection& b = full.points[i];
        INFO(to_string(b.collective) << " " << b.scale.nodes << " x " << b.scale.ranks_per_node
                                     << " at " << b.bytes << " B");
        REQUIRE(a.algorithms.size() == b.algorithms.size());
        for (std::size_t j = 0; j < b.algorithms.size(); ++j) {
            INFO(b.algorithms[j].algorithm);
            CHECK(a.algorithms[j].available == b.algorithms[j].available);
            CHECK(a.algorithms[j].k == b.algorithms[j].k);
            CHECK(a.algorithms[j].same_schedule_k == b.algorithms[j].same_schedule_k);
            CHECK(a.algorithms[j].time == b.algorithms[j].time);
            const auto& ca = a.algorithms[j].candidates;
            const auto& cb = b.algorithms[j].candidates;
            REQUIRE(ca.size() == cb.size());
            for (std::size_t n = 0; n < cb.size(); ++n) {
                INFO("k = " << cb[n].first);
                CHECK(ca[n].first == cb[n].first);
                CHECK(ca[n].second == cb[n].second);
            }
        }
        CHECK(a.best == b.best);
        CHECK(a.baseline == b.baseline);
        CHECK(a.baseline_time == b.baseline_time);
    }
    CHECK(reduced.notes == full.notes);
}

std::size_t reduced_count(const SelectResult& result) {
    return static_cast<std::size_t>(std::count_if(
        result.engine_choices.begin(), result.engine_choices.end(), [](const std::string& line) {
            return line.find("symmetry reduction") != std::string::npos;
        }));
}

}  // namespace

TEST_CASE("select: the symmetry reduction changes no time, no choice and no note") {
    const Machine delta = load_preset("delta");
    const Machine dgx = load_preset("dgx-h100");
    constexpr auto never = std::numeric_limits<std::uint64_t>::max();
    std::size_t reduced_units = 0;
    for (bool contention : {true, false})
        for (Style style : all_styles) {
            INFO("style " << to_string(style) << ", contention " << contention);
            // 1, 2, 3 and 4 ranks per node on delta; 8 per node on dgx-h100; 6 nodes are no power
            // of two, so rd and rm fold ranks in there.
            const std::vector<Scale> delta_scales{{8, 1}, {8, 2}, {8, 3}, {6, 4}, {8, 4}};
            const SelectResult reduced = sweep(delta, delta_scales, style, contention, 0);
            check_same(reduced, sweep(delta, delta_scales, style, contention, never));
            reduced_units += reduced_count(reduced);
            const SelectResult reduced_dgx = sweep(dgx, {{3, 8}, {4, 8}}, style, contention, 0);
            check_same(reduced_dgx, sweep(dgx, {{3, 8}, {4, 8}}, style, contention, never));
            reduced_units += reduced_count(reduced_dgx);
        }
    // Every ring and k-ring DAG above (and not the others) went through the reduction.
    MESSAGE(reduced_units << " schedules replayed through quotients");
    CHECK(reduced_units > 100);
}

TEST_CASE("select: Reduce_scatter and Alltoall through quotients, time for time") {
    Machine fifo = load_preset("delta");
    fifo.sharing = Sharing::fifo;
    const Machine dgx = load_preset("dgx-h100");
    constexpr auto never = std::numeric_limits<std::uint64_t>::max();
    const std::vector<Collective> collectives{Collective::reduce_scatter, Collective::alltoall};
    // Every algorithm of both collectives, bruck (named only) and the ones without a quotient.
    const std::vector<std::string> algorithms{"ring",    "k-ring",    "pairwise", "rh",
                                              "recexch", "scattered", "bruck"};
    std::size_t reduced_units = 0;
    for (bool contention : {true, false})
        for (Style style : all_styles) {
            INFO("style " << to_string(style) << ", contention " << contention);
            const std::vector<Scale> delta_scales{{8, 1}, {8, 2}, {6, 3}, {6, 4}, {8, 4}};
            for (const Machine& m : {load_preset("delta"), fifo}) {
                INFO(m.name << (m.sharing == Sharing::fifo ? " fifo" : " fair"));
                const SelectResult reduced =
                    sweep(m, delta_scales, style, contention, 0, collectives, algorithms);
                check_same(reduced, sweep(m, delta_scales, style, contention, never, collectives,
                                          algorithms));
                reduced_units += reduced_count(reduced);
            }
            const SelectResult reduced_dgx =
                sweep(dgx, {{3, 8}, {4, 8}}, style, contention, 0, collectives, algorithms);
            check_same(reduced_dgx, sweep(dgx, {{3, 8}, {4, 8}}, style, contention, never,
                                          collectives, algorithms));
            reduced_units += reduced_count(reduced_dgx);
        }
    MESSAGE(reduced_units << " schedules replayed through quotients");
    CHECK(reduced_units > 300);
}
