// The tuning files for Reduce's rabenseifner and Reduce_scatter's recexch, on hand-made
// selections (the expected rules do not move with engine numbers): MPICH's
// MPIR_Reduce_intra_reduce_scatter_gather under the guards its asserts need, recexch named only
// where it is recursive halving (k = 2), Open MPI's reduce 7 where p is a power of 2.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "openmpi_defaults.hpp"
#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select.hpp"

#include "hand_made_selection.hpp"

using namespace piccolo;
using Json = nlohmann::ordered_json;

namespace {

using testing::point;
using testing::Time;

constexpr std::uint64_t KiB = 1024;

// p = 4: Reduce, knomial k = 2 (binomial) best at 8 B, rabenseifner at 64 KiB; Reduce_scatter,
// rh and recexch k = 2 (one schedule) at 8 B, recexch k = 4 at 64 KiB (rh 33.3% slower).
SelectResult hand_made() {
    SelectResult r;
    r.machine = "hand";
    r.collectives = {Collective::reduce, Collective::reduce_scatter};
    r.scales = {{1, 4}};
    r.sizes = {8, 64 * KiB};
    const Scale s = r.scales[0];
    r.points.push_back(point(Collective::reduce, s, 8,
                             {{"knomial", {{2, 5}, {4, 6}}},
                              {"binomial", {{0, 5}}},
                              {"rabenseifner", {{0, 9}}}},
                             "binomial"));
    r.points.push_back(point(Collective::reduce, s, 64 * KiB,
                             {{"knomial", {{2, 100}, {4, 120}}},
                              {"binomial", {{0, 100}}},
                              {"rabenseifner", {{0, 50}}}},
                             "binomial"));
    r.points.push_back(point(Collective::reduce_scatter, s, 8,
                             {{"pairwise", {{0, 6}}}, {"rh", {{0, 3}}}, {"recexch", {{2, 3}, {4, 5}}}},
                             "pairwise"));
    r.points.push_back(point(Collective::reduce_scatter, s, 64 * KiB,
                             {{"pairwise", {{0, 10}}}, {"rh", {{0, 8}}}, {"recexch", {{2, 8}, {4, 6}}}},
                             "pairwise"));
    return r;
}

}  // namespace

TEST_CASE("mpich-json: rabenseifner as reduce_scatter_gather under MPICH's guards, every series") {
    const Json guarded = Json::parse(R"({
        "is_op_built_in=yes": {
            "count<pow2": {"algorithm=MPIR_Reduce_intra_binomial": {}},
            "count=any": {"algorithm=MPIR_Reduce_intra_reduce_scatter_gather": {}}},
        "is_op_built_in=no": {"algorithm=MPIR_Reduce_intra_binomial": {}}})");
    for (const char* version : {"4.0", "4.1", "4.2", "4.3"}) {
        CAPTURE(version);
        EmitOptions options;
        options.mpich_version = version;
        const Emitted e = emit_mpich_json(hand_made(), options);
        const Json tree = Json::parse(e.text);
        Json expected;
        expected["comm_size=any"]["avg_msg_size<=8"]["algorithm=MPIR_Reduce_intra_binomial"] =
            Json::object();
        expected["comm_size=any"]["avg_msg_size=any"] = guarded;
        CHECK(tree.at("collective=reduce").at("comm_type=intra") == expected);
        bool remarked = false;
        for (const std::string& r : e.remarks)
            remarked = remarked || r.find("reduce_scatter_gather rules sit under "
                                          "is_op_built_in=yes and count<pow2") !=
                                       std::string::npos;
        CHECK(remarked);
    }
}

TEST_CASE("mpich-json: recexch is recursive halving at k = 2 and nothing MPICH can name above") {
    EmitOptions options;
    options.mpich_version = "4.3";
    const Emitted e = emit_mpich_json(hand_made(), options);
    const Json rs =
        Json::parse(e.text).at("collective=reduce_scatter_block").at("comm_type=intra");
    // After the is_commutative=no guard: recursive halving at both sizes (total_msg_size: the
    // block x p), 64 KiB's best being recexch k = 4.
    CHECK(rs.at("comm_size=any") ==
          Json::parse(R"({"total_msg_size=any":
                          {"algorithm=MPIR_Reduce_scatter_block_intra_recursive_halving": {}}})"));
    bool remarked = false;
    for (const std::string& r : e.remarks)
        remarked = remarked || r.find("MPICH 4.3 cannot run recexch where it was the best "
                                      "reduce_scatter (1 of 2 points); there the file names the "
                                      "fastest algorithm MPICH 4.3 runs (at most 33.3% slower") !=
                                   std::string::npos;
    CHECK(remarked);
    // Without rh in the sweep, recexch's k = 2 is the one it names.
    SelectResult only = hand_made();
    for (PointSelection& p : only.points) {
        if (p.collective != Collective::reduce_scatter) continue;
        std::erase_if(p.algorithms, [](const AlgorithmOutcome& o) { return o.algorithm == "rh"; });
        p.best = 1;  // recexch
    }
    const Json named = Json::parse(emit_mpich_json(only, options).text);
    CHECK(named.at("collective=reduce_scatter_block").at("comm_type=intra").at("comm_size=any") ==
          rs.at("comm_size=any"));
}

TEST_CASE("openmpi: reduce 7 runs rabenseifner at p a power of 2, reduce_scatter_block 3 recexch k=2") {
    CHECK(ompi::runs_as(Collective::reduce, "rabenseifner", 0, 4)->algorithm == 7);
    CHECK(ompi::runs_as(Collective::reduce, "rabenseifner", 0, 64)->name == "rabenseifner");
    CHECK_FALSE(ompi::runs_as(Collective::reduce, "rabenseifner", 0, 6).has_value());
    CHECK(ompi::runs_as(Collective::reduce_scatter, "recexch", 2, 6)->algorithm == 3);
    CHECK_FALSE(ompi::runs_as(Collective::reduce_scatter, "recexch", 3, 9).has_value());
    // Open MPI's own choice below 8 B on fewer than 4 ranks is 7 (coll_tuned_decision_fixed.c),
    // which runs basic_linear below pof2 elements: modelled at p = 2 from 2 bytes up only.
    CHECK(ompi::fixed_decision(Collective::reduce, 2, 4).piccolo == "rabenseifner");
    CHECK_FALSE(ompi::fixed_decision(Collective::reduce, 2, 1).piccolo.has_value());
    CHECK_FALSE(ompi::fixed_decision(Collective::reduce, 3, 4).piccolo.has_value());
    CHECK(ompi::fixed_decision(Collective::reduce, 3, 4).algorithm == 7);
}

TEST_CASE("openmpi-rules: rabenseifner (7) where piccolo predicts a gain over binomial") {
    // p = 4 at 128 KiB and 512 KiB, where Open MPI runs binomial (5) itself: rabenseifner 50 us
    // against 100 us (7 written), then 98 us against 100 us (no 5% gain: left to Open MPI).
    SelectResult r;
    r.machine = "hand";
    r.collectives = {Collective::reduce};
    r.scales = {{1, 4}};
    r.sizes = {128 * KiB, 512 * KiB};
    for (double rabenseifner : {50.0, 98.0})
        r.points.push_back(point(Collective::reduce, r.scales[0],
                                 rabenseifner < 60 ? 128 * KiB : 512 * KiB,
                                 {{"knomial", {{2, 100}, {4, 120}}},
                                  {"binomial", {{0, 100}}},
                                  {"rabenseifner", {{0, rabenseifner}}}},
                                 "binomial"));
    const std::string text = emit_openmpi_rules(r).text;
    CHECK(text.find("0 7 0 0    # rabenseifner: buffer size at root 0 128 KiB (size = buffer "
                    "size)\n131073 0 0 0    # Open MPI's own decision") != std::string::npos);
}
