// The paper's Fig. 4 effect on the delta preset: k-ring (k = 2) Allgather on 2 nodes x 4 GPUs,
// simulated speedup over ring with and without contention. Small messages are latency-bound and
// the NIC is idle enough that contention changes nothing (the curves agree within 5% below
// 64 KiB); above that the single NIC per node serializes k-ring's bursts of inter-node sends
// and the curves part; for the largest messages both algorithms are bound by the bytes that
// must cross the NIC and the contended speedup goes to 1.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>

#include "piccolo/engine.hpp"
#include "piccolo/generate.hpp"
#include "piccolo/machine_io.hpp"

using namespace piccolo;

namespace {

double speedup(std::uint64_t bytes, bool contention) {
    const Machine delta = load_preset("delta");
    const RankLayout layout(delta, 2, 4);
    SimOptions options;
    options.contention = contention;
    auto makespan = [&](const char* algorithm, int k) {
        return simulate(generate({Collective::allgather, algorithm, k, 8, bytes, false}), delta,
                        layout, options)
            .makespan;
    };
    return makespan("ring", 0) / makespan("k-ring", 2);
}

}  // namespace

TEST_CASE("Fig. 4: with and without contention agree below 64 KiB and part above") {
    for (std::uint64_t kib : {1, 2, 4, 8, 16, 32}) {
        const double with = speedup(kib * 1024, true), without = speedup(kib * 1024, false);
        INFO(fmt::format("{} KiB: {:.4f} with contention, {:.4f} without", kib, with, without));
        CHECK(std::abs(with / without - 1) <= 0.05);
    }
    for (std::uint64_t kib : {256, 512, 1024, 2048}) {
        const double with = speedup(kib * 1024, true), without = speedup(kib * 1024, false);
        INFO(fmt::format("{} KiB: {:.4f} with contention, {:.4f} without", kib, with, without));
        CHECK(std::abs(with / without - 1) > 0.05);
    }
}

TEST_CASE("Fig. 4: the contended speedup approaches 1.0 for large messages") {
    const double at_1m = speedup(1 << 20, true);
    const double at_16m = speedup(16 << 20, true);
    const double at_64m = speedup(64 << 20, true);
    INFO(fmt::format("1 MiB {:.4f}, 16 MiB {:.4f}, 64 MiB {:.4f}", at_1m, at_16m, at_64m));
    CHECK(std::abs(at_16m - 1) < std::abs(at_1m - 1));
    CHECK(std::abs(at_64m - 1) < std::abs(at_16m - 1));
    CHECK(std::abs(at_64m - 1) < 0.01);
}

TEST_CASE("runs are deterministic: the same result twice, bit for bit") {
    const Machine delta = load_preset("delta");
    const RankLayout layout(delta, 4, 4);
    const Schedule s = generate({Collective::allreduce, "prm", 4, 16, 1 << 20, false});
    const SimResult a = simulate(s, delta, layout), b = simulate(s, delta, layout);
    CHECK(a.makespan == b.makespan);
    CHECK(a.rank_finish == b.rank_finish);
    for (std::size_t i = 0; i < a.queueing.size(); ++i)
        CHECK(a.queueing[i].total_delay == b.queueing[i].total_delay);
}
