// The paper's Fig. 8 shape on the delta preset, NCCL style: on 16 nodes x 4 GPUs, k-ring at its
// best k beats ring for small and medium Allgather messages (fewer inter-node rounds, each
// throttled by the slowest link), and prm picks k = 8 at the smallest sizes (8 B..512 B: fewest
// rounds that the device's 8 send slots carry at once) and k = 4 at medium ones (16 KiB..256 KiB:
// less data queued at the node's one NIC per round).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>

#include "piccolo/select/select.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

namespace {
constexpr std::uint64_t KiB = 1024;
}  // namespace

TEST_CASE("Fig. 8: on 16 nodes x 4, k-ring beats ring and prm's k falls from 8 to 4 with size") {
    SelectRequest request;
    request.machine = load_preset("delta");
    request.collectives = {Collective::allgather};
    request.algorithms = {"ring", "k-ring", "prm"};
    request.scales = {{16, 4}};
    request.style = Style::nccl;
    for (std::uint64_t bytes = 8; bytes <= 256 * KiB; bytes *= 2) request.sizes.push_back(bytes);
    const SelectResult result = select(request);
    double best_k_ring_speedup = 0;
    for (std::size_t i = 0; i < result.sizes.size(); ++i) {
        const PointSelection& point = result.at(0, 0, i);
        const AlgorithmOutcome &ring = point.algorithms[0], &k_ring = point.algorithms[1],
                               &prm = point.algorithms[2];
        INFO(fmt::format("{} B: k-ring k={} {:.4f}x over ring; prm k={}", result.sizes[i], k_ring.k,
                         ring.time / k_ring.time, prm.k));
        if (result.sizes[i] >= KiB && result.sizes[i] <= 32 * KiB)
            best_k_ring_speedup = std::max(best_k_ring_speedup, ring.time / k_ring.time);
        if (result.sizes[i] <= 512) CHECK(prm.k == 8);
        if (result.sizes[i] >= 16 * KiB) CHECK(prm.k == 4);
    }
    CHECK(best_k_ring_speedup >= 1.10);
}
