// What MPICH runs by itself (its generic.json, walked as csel.c walks it), and where an
// mpich-json file keeps it: MPICH's own Allgather and Allreduce at hand-computed points, and a
// hand-made selection whose best is or is not 5 % faster than MPICH's own choice.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "mpich_own_choice.hpp"
#include "mpich_versions.hpp"
#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select.hpp"

#include "hand_made_selection.hpp"

using namespace piccolo;
using Json = nlohmann::ordered_json;

namespace {

std::string own(Collective c, int p, std::uint64_t bytes) {
    return mpich::own_algorithm(Json::parse(mpich::version("4.0").defaults), {c, p, bytes});
}

// The rules of a one-scale, one-size file: its comm_size=any branch (one scale).
Json rules_of(const SelectResult& r, const std::string& collective) {
    EmitOptions options;
    options.mpich_version = "4.1";
    const Json tree = Json::parse(emit_mpich_json(r, options).text);
    return tree.at("collective=" + collective).at("comm_type=intra").at("comm_size=any");
}

}  // namespace

TEST_CASE("MPICH's own Allreduce: recursive doubling to 8 B and below pof2 doubles") {
    // generic.json (v4.0.2 and v4.1.2): avg_msg_size<=8 -> recursive doubling; else, with a
    // built-in operation, count<pow2 (doubles below the largest power of 2 <= p) -> recursive
    // doubling, else reduce_scatter_allgather.
    const Collective ar = Collective::allreduce;
    CHECK(own(ar, 2, 8) == "MPIR_Allreduce_intra_recursive_doubling");
    CHECK(own(ar, 2, 16) == "MPIR_Allreduce_intra_reduce_scatter_allgather");  // 2 doubles >= 2
    CHECK(own(ar, 16, 64) == "MPIR_Allreduce_intra_recursive_doubling");        // 8 < 16
    CHECK(own(ar, 16, 128) == "MPIR_Allreduce_intra_reduce_scatter_allgather"); // 16 >= 16
    CHECK(own(ar, 24, 120) == "MPIR_Allreduce_intra_recursive_doubling");       // 15 < 16
    CHECK(own(ar, 24, 128) == "MPIR_Allreduce_intra_reduce_scatter_allgather");
}

TEST_CASE("MPICH's own Allgather: by total size, powers of 2 apart") {
    // generic.json: comm_size=pow2: total_msg_size<524288 -> recursive doubling, else ring;
    // other sizes: total_msg_size<81920 -> brucks, else ring. Total = per-rank bytes x p.
    const Collective ag = Collective::allgather;
    CHECK(own(ag, 8, 65535) == "MPIR_Allgather_intra_recursive_doubling");  // 524,280
    CHECK(own(ag, 8, 65536) == "MPIR_Allgather_intra_ring");                // 524,288
    CHECK(own(ag, 6, 13653) == "MPIR_Allgather_intra_brucks");              // 81,918
    CHECK(own(ag, 6, 13654) == "MPIR_Allgather_intra_ring");                // 81,924
    CHECK(own(Collective::bcast, 8, 8).empty());  // only Allgather and Allreduce are walked
}

TEST_CASE("mpich-json keeps MPICH's own choice unless piccolo predicts 5 % more") {
    // Allgather on 8 nodes x 1 (p = 8) at 1 KiB: MPICH runs recursive doubling (total 8 KiB).
    // The branch for the other communicator sizes (judged at p = 9) keeps MPICH's brucks, which
    // piccolo does not model.
    auto selection = [](double ring_us, double rd_us) {
        SelectResult r;
        r.machine = "hand";
        r.collectives = {Collective::allgather};
        r.algorithms = {"ring", "rd"};
        r.scales = {{8, 1}};
        r.sizes = {1024};
        r.points.push_back(testing::point(Collective::allgather, r.scales[0], 1024,
                                          {{"ring", {{0, ring_us}}}, {"rd", {{0, rd_us}}}},
                                          ring_us < rd_us ? "ring" : "rd"));
        return r;
    };
    const Json rd = {{"algorithm=MPIR_Allgather_intra_recursive_doubling", Json::object()}};
    const Json ring = {{"algorithm=MPIR_Allgather_intra_ring", Json::object()}};
    // Ring 4 % faster than MPICH's own recursive doubling: within the error of a profile, kept.
    CHECK(rules_of(selection(9.6, 10.0), "allgather").at("comm_size=pow2").at(
              "total_msg_size=any") == rd);
    // Ring 6 % faster: named.
    CHECK(rules_of(selection(9.4, 10.0), "allgather").at("comm_size=pow2").at(
              "total_msg_size=any") == ring);
    EmitOptions options;
    options.mpich_version = "4.1";
    const Emitted kept = emit_mpich_json(selection(9.6, 10.0), options);
    CHECK(kept.remarks.back() ==
          "mpich-json: allgather keeps MPICH 4.1's own choice at 1 of 1 points: 1 where piccolo "
          "predicts less than 5% gain over it");
}
