// The delta preset as shipped (fair sharing of the node's one NIC, NCCL style) against the
// paper's Delta figures, the reason configs/machines/delta.yaml shares lanes fairly:
//
// Fig. 8: on 16 nodes x 4, Allgather of 8 B..1 MiB, the paper's text gives the best k of each
// algorithm: k-ring 4 throughout, rm 4 or 8, prm 8 at the small sizes (up to 512 B) and 4 at the
// larger ones. At 18 sizes x 3 algorithms, fair sharing picks the paper's k at 51 of 54 points
// (FIFO lanes at 39: rm k = 2 and prm k = 16 at medium sizes, k-ring k = 2 from 256 KiB).
// Fig. 4 is in test_fig4.cpp.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/select/select.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

namespace {

constexpr std::uint64_t MiB = std::uint64_t{1} << 20;

}  // namespace

TEST_CASE("delta preset: fair sharing of the NIC is its lane model") {
    const Machine delta = load_preset("delta");
    CHECK(delta.sharing == Sharing::fair);
    CHECK(delta.style == Style::nccl);
}

TEST_CASE("Fig. 8: the delta preset picks the paper's k at >= 50 of 54 points") {
    SelectRequest request;
    request.machine = load_preset("delta");
    request.collectives = {Collective::allgather};
    request.algorithms = {"ring", "k-ring", "rm", "prm"};
    request.scales = {{16, 4}};
    request.style = *request.machine.style;
    for (std::uint64_t bytes = 8; bytes <= MiB; bytes *= 2) request.sizes.push_back(bytes);
    const SelectResult result = select(request);
    REQUIRE(result.sizes.size() == 18);
    int agree = 0;
    for (std::size_t i = 0; i < result.sizes.size(); ++i) {
        const PointSelection& point = result.at(0, 0, i);
        const int k_ring = point.algorithms[1].k, rm = point.algorithms[2].k,
                  prm = point.algorithms[3].k;
        const int paper_prm = result.sizes[i] <= 512 ? 8 : 4;
        const int here = (k_ring == 4) + (rm == 4 || rm == 8) + (prm == paper_prm);
        MESSAGE(fmt::format("{:>7} B: k-ring k={} rm k={} prm k={} ({} of 3 as the paper)",
                            result.sizes[i], k_ring, rm, prm, here));
        agree += here;
    }
    MESSAGE(fmt::format("{} of 54 choices as the paper's", agree));
    CHECK(agree >= 50);
}
