// The MPICH tuning file and Open MPI's rules for Bcast, Reduce, Reduce_scatter and Alltoall, on
// hand-made selections (so the expected files do not move with engine numbers), plus a real sweep
// of every collective checked against MPICH's names.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "openmpi_defaults.hpp"
#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select.hpp"
#include "piccolo/topologies/machine_io.hpp"

#include "hand_made_selection.hpp"

using namespace piccolo;
using Json = nlohmann::ordered_json;

namespace {

using testing::point;
using testing::Time;

constexpr std::uint64_t KiB = 1024, MiB = KiB * KiB;

// p = 4 and 8 x 8 B, 64 KiB, 4 MiB; per point the times (us) of every algorithm.
SelectResult hand_made() {
    SelectResult r;
    r.machine = "hand";
    r.collectives = {Collective::bcast, Collective::reduce, Collective::reduce_scatter,
                     Collective::alltoall};
    r.scales = {{1, 4}, {2, 4}};
    r.sizes = {8, 64 * KiB, 4 * MiB};
    auto tree = [&](Collective c, std::size_t s, std::size_t z, double binomial, double k2,
                    double k4, double k8) {
        r.points.push_back(point(c, r.scales[s], r.sizes[z],
                                 {{"binomial", {{0, binomial}}},
                                  {"knomial", {{2, k2}, {4, k4}, {8, k8}}}},
                                 "binomial"));
    };
    // bcast, p = 4 and 8 alike: knomial k=4 at 8 B, binomial at 64 KiB, knomial k=8 at 4 MiB
    // (4.0 names binomial only: 66.7% and 25% slower).
    for (std::size_t s : {0, 1}) {
        tree(Collective::bcast, s, 0, 5, 5, 3, 4);
        tree(Collective::bcast, s, 1, 10, 10, 12, 14);
        tree(Collective::bcast, s, 2, 100, 100, 90, 80);
    }
    // reduce: knomial k=4 best at 8 B, binomial elsewhere; MPICH has binomial only.
    for (std::size_t s : {0, 1}) {
        tree(Collective::reduce, s, 0, 5, 5, 4, 6);
        tree(Collective::reduce, s, 1, 10, 10, 12, 14);
        tree(Collective::reduce, s, 2, 100, 100, 110, 120);
    }
    auto rs = [&](std::size_t s, std::size_t z, double ring, double kring, double pairwise,
                  double rh) {
        r.points.push_back(point(Collective::reduce_scatter, r.scales[s], r.sizes[z],
                                 {{"ring", {{0, ring}}},
                                  {"k-ring", {{2, kring}}},
                                  {"pairwise", {{0, pairwise}}},
                                  {"rh", {{0, rh}}}},
                                 "pairwise"));
    };
    // reduce_scatter, p = 4: rh at 8 B, k-ring at 64 KiB (MPICH: pairwise, 40% slower),
    // pairwise at 4 MiB; p = 8: rh up to 64 KiB, then pairwise.
    rs(0, 0, 6, 6, 4, 2);
    rs(0, 1, 6, 5, 7, 8);
    rs(0, 2, 60, 70, 50, 60);
    rs(1, 0, 9, 9, 6, 3);
    rs(1, 1, 9, 9, 8, 7);
    rs(1, 2, 90, 95, 80, 85);
    auto a2a = [&](std::size_t s, std::size_t z, double pairwise, double scattered, double b2,
                   double b4) {
        r.points.push_back(point(Collective::alltoall, r.scales[s], r.sizes[z],
                                 {{"pairwise", {{0, pairwise}}},
                                  {"scattered", {{0, scattered}}},
                                  {"bruck", {{2, b2}, {4, b4}}}},
                                 "pairwise"));
    };
    // alltoall: bruck at 8 B (p = 4: k=4, 4.0 names brucks, k = 2, 50% slower; p = 8: k=2),
    // scattered at 64 KiB, pairwise at 4 MiB.
    a2a(0, 0, 6, 5, 3, 2);
    a2a(0, 1, 12, 10, 20, 30);
    a2a(0, 2, 100, 110, 300, 400);
    a2a(1, 0, 6, 5, 2, 3);
    a2a(1, 1, 12, 10, 20, 30);
    a2a(1, 2, 100, 110, 300, 400);
    return r;  // in (collective, scale, size) order, as select() orders them
}

std::string read(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const char* const tuned_keys[] = {"collective=bcast", "collective=reduce",
                                  "collective=reduce_scatter_block", "collective=alltoall"};

// The algorithm names each series' reader knows for the four collectives (pmodels/mpich
// src/mpi/coll/src/csel_container.c at v4.0.2, v4.1.2, v4.2.3, v4.3.2), intra and inter.
std::set<std::string> mpich_names(const std::string& version) {
    std::set<std::string> names{
        "MPIR_Bcast_intra_binomial",
        "MPIR_Bcast_intra_scatter_recursive_doubling_allgather",
        "MPIR_Bcast_intra_scatter_ring_allgather",
        "MPIR_Bcast_intra_smp",
        "MPIR_Bcast_inter_remote_send_local_bcast",
        "MPIR_Reduce_intra_binomial",
        "MPIR_Reduce_intra_reduce_scatter_gather",
        "MPIR_Reduce_intra_smp",
        "MPIR_Reduce_inter_local_reduce_remote_send",
        "MPIR_Reduce_scatter_block_intra_noncommutative",
        "MPIR_Reduce_scatter_block_intra_pairwise",
        "MPIR_Reduce_scatter_block_intra_recursive_doubling",
        "MPIR_Reduce_scatter_block_intra_recursive_halving",
        "MPIR_Reduce_scatter_block_inter_remote_reduce_local_scatter",
        "MPIR_Alltoall_intra_brucks",
        "MPIR_Alltoall_intra_pairwise",
        "MPIR_Alltoall_intra_pairwise_sendrecv_replace",
        "MPIR_Alltoall_intra_scattered",
        "MPIR_Alltoall_inter_pairwise_exchange"};
    if (version >= "4.1")
        names.insert({"MPIR_Bcast_intra_tree", "MPIR_Bcast_intra_pipelined_tree",
                      "MPIR_Alltoall_intra_k_brucks"});
    return names;
}

// Every leaf of the four entries names an algorithm the series knows.
void check_names(const Json& tree, const std::string& version) {
    const std::set<std::string> names = mpich_names(version);
    auto walk = [&](const Json& node, auto&& self) -> void {
        for (auto it = node.begin(); it != node.end(); ++it) {
            const std::string key = it.key();
            if (key.rfind("algorithm=", 0) == 0) {
                CHECK_MESSAGE(names.count(key.substr(10)) == 1, key << " in MPICH " << version);
                continue;
            }
            self(it.value(), self);
        }
    };
    for (const char* key : tuned_keys) {
        REQUIRE(tree.contains(key));
        walk(tree.at(key), walk);
    }
}

}  // namespace

TEST_CASE("mpich-json for bcast, reduce, reduce_scatter, alltoall matches its expected file") {
    for (const std::string version : {"4.0", "4.1", "4.2", "4.3"}) {
        CAPTURE(version);
        EmitOptions options;
        options.mpich_version = version;
        const Json got = Json::parse(emit_mpich_json(hand_made(), options).text);
        check_names(got, version);
        Json tuned = Json::object();
        for (const char* key : tuned_keys) tuned[key] = got.at(key);
        const std::string golden = "select_mpich_more_" + version + ".json";
        const std::string expected =
            read(std::string(PICCOLO_SOURCE_DIR) + "/tests/sim/data/" + golden);
        const bool same = !expected.empty() && Json::parse(expected) == tuned;
        CHECK_MESSAGE(same, golden << " differs; produced: " << PICCOLO_BINARY_DIR << "/" << golden);
        if (!same) std::ofstream(std::string(PICCOLO_BINARY_DIR) + "/" + golden) << tuned.dump(4);
        // MPICH's own rules for MPI_Reduce_scatter (irregular counts) stay.
        CHECK(got.at("collective=reduce_scatter").dump().find(
                  "MPIR_Reduce_scatter_intra_recursive_halving") != std::string::npos);
    }
}

// The collectives of MPICH's generic.json (maint/tuning/coll/mpir/generic.json at v4.0.2 and
// v4.1.2; v4.2.3 and v4.3.2 hold v4.1.2's copy), in its order: those its selection looks up.
const char* const generic_collectives[] = {
    "bcast", "allreduce", "allgather", "allgatherv", "reduce", "reduce_scatter",
    "reduce_scatter_block", "gather", "scatter", "gatherv", "scatterv", "scan", "exscan",
    "barrier", "alltoall", "alltoallv", "alltoallw", "neighbor_allgather", "neighbor_allgatherv",
    "neighbor_alltoall", "neighbor_alltoallv", "neighbor_alltoallw", "ibarrier", "iallreduce",
    "iallgather", "iallgatherv", "ibcast", "ireduce", "ireduce_scatter", "igather", "iscatter",
    "igatherv", "iscatterv", "iexscan", "ialltoall", "ialltoallv", "ialltoallw",
    "ireduce_scatter_block", "iscan", "ineighbor_allgather", "ineighbor_allgatherv",
    "ineighbor_alltoall", "ineighbor_alltoallv", "ineighbor_alltoallw"};

// generic.json's Allgather and Allreduce entries (the same at v4.0.2 and v4.1.2).
constexpr const char* generic_allgather = R"({"comm_type=intra": {
    "comm_size=pow2": {
        "total_msg_size<524288": {"algorithm=MPIR_Allgather_intra_recursive_doubling": {}},
        "total_msg_size=any": {"algorithm=MPIR_Allgather_intra_ring": {}}},
    "comm_size=any": {
        "total_msg_size<81920": {"algorithm=MPIR_Allgather_intra_brucks": {}},
        "total_msg_size=any": {"algorithm=MPIR_Allgather_intra_ring": {}}}},
  "comm_type=inter": {"algorithm=MPIR_Allgather_inter_local_gather_remote_bcast": {}}})";
constexpr const char* generic_allreduce = R"({"comm_type=intra": {
    "avg_msg_size<=0": {
        "is_commutative=yes": {"algorithm=MPIR_Allreduce_intra_smp": {}},
        "is_commutative=no": {"algorithm=MPIR_Allreduce_intra_recursive_doubling": {}}},
    "avg_msg_size<=8": {"algorithm=MPIR_Allreduce_intra_recursive_doubling": {}},
    "avg_msg_size=any": {
        "is_op_built_in=no": {"algorithm=MPIR_Allreduce_intra_recursive_doubling": {}},
        "is_op_built_in=yes": {
            "count<pow2": {"algorithm=MPIR_Allreduce_intra_recursive_doubling": {}},
            "count=any": {"algorithm=MPIR_Allreduce_intra_reduce_scatter_allgather": {}}}}},
  "comm_type=inter": {"algorithm=MPIR_Allreduce_inter_reduce_exchange_bcast": {}}})";

TEST_CASE("mpich-json without allgather and allreduce keeps MPICH's own rules for them") {
    // MPICH reads the file instead of generic.json and asserts on a collective it lacks
    // (sim/emit/src/mpich_defaults.cpp): -c bcast alone, or the four collectives of hand_made(),
    // must still hold every collective generic.json holds, Allgather and Allreduce as MPICH's.
    SelectResult bcast = hand_made();
    bcast.collectives = {Collective::bcast};
    std::erase_if(bcast.points,
                  [](const PointSelection& p) { return p.collective != Collective::bcast; });
    std::set<std::string> wanted;
    for (const char* c : generic_collectives) wanted.insert(std::string("collective=") + c);
    for (const SelectResult& result : {hand_made(), bcast})
        for (const std::string version : {"4.0", "4.1", "4.2", "4.3"}) {
            CAPTURE(version);
            CAPTURE(result.collectives.size());
            EmitOptions options;
            options.mpich_version = version;
            const Json got = Json::parse(emit_mpich_json(result, options).text);
            std::set<std::string> keys;
            for (const auto& [key, entry] : got.items()) keys.insert(key);
            CHECK(keys == wanted);
            CHECK(got.size() == 44);
            CHECK(got.at("collective=allgather") == Json::parse(generic_allgather));
            CHECK(got.at("collective=allreduce") == Json::parse(generic_allreduce));
            // piccolo's Bcast rules come first (hand_made: 8 B -> binomial in 4.0, the tree from
            // 4.1), MPICH's for the rest after them.
            CHECK(got.begin().key() == "collective=bcast");
            CHECK(got.at("collective=bcast").at("comm_type=intra").begin().key() ==
                  "comm_size=any");
        }
}

TEST_CASE("mpich-json: the k-nomial Bcast tree per series, the guards MPICH's algorithms need") {
    auto emitted = [](const std::string& version) {
        EmitOptions options;
        options.mpich_version = version;
        return Json::parse(emit_mpich_json(hand_made(), options).text);
    };
    // Bcast at 8 B (knomial k=4 best): 4.0 has the binomial tree only; 4.1.2 and 4.2.3 read
    // tree_type with atoi (MPIR_TREE_TYPE_KNOMIAL_2 = 2), 4.3.2 by name; 4.1.2 cannot set
    // is_non_blocking, 4.2.3 and 4.3.2 get 0 (the mpi style's blocking sends).
    const auto first_leaf = [](const Json& tree) {
        return tree.at("collective=bcast").at("comm_type=intra").at("comm_size=any").begin().value();
    };
    CHECK(first_leaf(emitted("4.0")) ==
          Json::parse(R"({"algorithm=MPIR_Bcast_intra_binomial": {}})"));
    CHECK(first_leaf(emitted("4.1")) ==
          Json::parse(R"({"algorithm=MPIR_Bcast_intra_tree": {"tree_type=2": {}, "k=4": {}}})"));
    CHECK(first_leaf(emitted("4.2")) ==
          Json::parse(R"({"algorithm=MPIR_Bcast_intra_tree":
                          {"tree_type=2": {}, "k=4": {}, "is_non_blocking=0": {}}})"));
    CHECK(first_leaf(emitted("4.3")) ==
          Json::parse(R"({"algorithm=MPIR_Bcast_intra_tree":
                          {"tree_type=knomial_2": {}, "k=4": {}, "is_non_blocking=0": {}}})"));
    // Pipelined (MPIC_Isend to every child at once): is_non_blocking=1.
    SelectResult pipelined = hand_made();
    pipelined.style = Style::pipelined;
    EmitOptions options;
    options.mpich_version = "4.3";
    CHECK(first_leaf(Json::parse(emit_mpich_json(pipelined, options).text)) ==
          Json::parse(R"({"algorithm=MPIR_Bcast_intra_tree":
                          {"tree_type=knomial_2": {}, "k=4": {}, "is_non_blocking=1": {}}})"));
    const Json v43 = emitted("4.3");
    const Json& rs = v43.at("collective=reduce_scatter_block").at("comm_type=intra");
    CHECK(rs.begin().key() == "is_commutative=no");
    CHECK(rs.begin().value() ==
          Json::parse(R"({"comm_size=pow2": {"algorithm=MPIR_Reduce_scatter_block_intra_noncommutative": {}},
                          "comm_size=any": {"algorithm=MPIR_Reduce_scatter_block_intra_recursive_doubling": {}}})"));
    const Json& a2a = v43.at("collective=alltoall").at("comm_type=intra");
    CHECK(a2a.begin().key() == "is_sendbuf_inplace=yes");
    // Reduce: binomial everywhere (MPICH's blocking Reduce has no k-nomial tree).
    CHECK(v43.at("collective=reduce").at("comm_type=intra") ==
          Json::parse(R"({"comm_size=any": {"avg_msg_size=any": {"algorithm=MPIR_Reduce_intra_binomial": {}}}})"));
}

TEST_CASE("mpich-json remarks for the four collectives") {
    EmitOptions options;
    options.mpich_version = "4.0";
    const Emitted e = emit_mpich_json(hand_made(), options);
    auto has = [&](const std::string& text) {
        for (const std::string& r : e.remarks)
            if (r.find(text) != std::string::npos) return true;
        return false;
    };
    CHECK(has("bcast and reduce rules compare avg_msg_size"));
    // knomial k=4 (3 us) against binomial (5 us) at 8 B; k=8 (80 us) against 100 us at 4 MiB.
    CHECK(has("MPICH 4.0 cannot run knomial where it was the best bcast (4 of 6 points); there "
              "the file names the fastest algorithm MPICH 4.0 runs (at most 66.7% slower"));
    CHECK(has("MPICH 4.0 cannot run knomial where it was the best reduce (2 of 6 points)"));
    CHECK(has("MPICH 4.0 cannot run k-ring where it was the best reduce_scatter (1 of 6 points); "
              "there the file names the fastest algorithm MPICH 4.0 runs (at most 40.0% slower"));
    CHECK(has("MPICH 4.0 cannot run bruck where it was the best alltoall (1 of 6 points); there "
              "the file names the fastest algorithm MPICH 4.0 runs (at most 50.0% slower"));
}

TEST_CASE("mpich-json of a real sweep of every collective names only MPICH's algorithms") {
    SelectRequest r;
    r.machine = load_machine("delta");
    r.collectives = {std::begin(all_collectives), std::end(all_collectives)};
    r.scales = {{1, 4}, {2, 3}};  // p = 4 and 6
    r.sizes = {64, 64 * KiB};
    const SelectResult result = select(r);
    for (const std::string version : {"4.0", "4.1", "4.2", "4.3"}) {
        CAPTURE(version);
        EmitOptions options;
        options.mpich_version = version;
        check_names(Json::parse(emit_mpich_json(result, options).text), version);
    }
}

namespace {

// p = 24 (6 nodes x 4), 8 B and 256 B, where Open MPI 4.1.4's fixed decision runs knomial (7,
// radix 4) for Bcast and modified_bruck (3) for Alltoall (coll_tuned_decision_fixed.c).
SelectResult hand_made_openmpi() {
    SelectResult r;
    r.machine = "hand";
    r.collectives = {Collective::bcast, Collective::alltoall};
    r.scales = {{6, 4}};
    r.sizes = {8, 256};
    for (std::size_t z = 0; z < 2; ++z)  // knomial k=8 is best (5 us), k=4 (Open MPI's) 10 us
        r.points.push_back(point(Collective::bcast, r.scales[0], r.sizes[z],
                                 {{"binomial", {{0, 12}}}, {"knomial", {{2, 12}, {4, 10}, {8, 5}}}},
                                 "binomial"));
    // 8 B: pairwise (10 us) beats Bruck k=2 (20 us), which Open MPI runs: the file names 2.
    // 256 B: Bruck k=2 (19 us) is best: Open MPI's own choice stays (0).
    r.points.push_back(point(Collective::alltoall, r.scales[0], 8,
                             {{"pairwise", {{0, 10}}}, {"scattered", {{0, 30}}},
                              {"bruck", {{2, 20}, {4, 25}}}},
                             "pairwise"));
    r.points.push_back(point(Collective::alltoall, r.scales[0], 256,
                             {{"pairwise", {{0, 20}}}, {"scattered", {{0, 30}}},
                              {"bruck", {{2, 19}, {4, 25}}}},
                             "pairwise"));
    return r;
}

}  // namespace

TEST_CASE("openmpi-rules for bcast and alltoall matches its expected file") {
    const Emitted e = emit_openmpi_rules(hand_made_openmpi());
    const std::string golden = "select_openmpi_rules_more.txt";
    const std::string expected =
        read(std::string(PICCOLO_SOURCE_DIR) + "/tests/sim/data/" + golden);
    CHECK_MESSAGE(e.text == expected,
                  golden << " differs; produced: " << PICCOLO_BINARY_DIR << "/" << golden);
    if (e.text != expected) std::ofstream(std::string(PICCOLO_BINARY_DIR) + "/" + golden) << e.text;
    // Collective ids 7 and 3; alltoall's size is sendcount x type size x p: 8 B x 24 = 192, so
    // the 256 B rule starts at 193.
    CHECK(e.text.find("7    # bcast (collective id 7)") != std::string::npos);
    CHECK(e.text.find("3    # alltoall (collective id 3)") != std::string::npos);
    CHECK(e.text.find("0 2 0 0    # pairwise") != std::string::npos);
    CHECK(e.text.find("193 0 0 0    # Open MPI's own decision") != std::string::npos);
    auto has = [&](const std::string& text) {
        for (const std::string& r : e.remarks)
            if (r.find(text) != std::string::npos) return true;
        return false;
    };
    CHECK(has("openmpi-rules: bcast leaves 2 of 2 points to Open MPI's own decision (algorithm "
              "0): at 2 piccolo predicts no gain of 5% over the algorithm Open MPI runs there"));
    CHECK(has("openmpi-rules: Open MPI cannot run knomial where it was the best bcast (2 of 2 "
              "points); the fastest algorithm Open MPI runs is at most 100.0% slower there"));
    CHECK(has("coll_tuned_bcast_algorithm_knomial_radix"));
}

TEST_CASE("openmpi-rules: what Open MPI 4.1.4 runs of piccolo's Bcast, Reduce, Reduce_scatter, "
          "Alltoall") {
    // Fixed decision (coll_tuned_decision_fixed.c, v4.1.4) and what piccolo models of it.
    const ompi::Decision bcast = ompi::fixed_decision(Collective::bcast, 24, 8);
    CHECK(bcast.algorithm == 7);
    CHECK(bcast.piccolo == std::optional<std::string_view>("knomial"));
    CHECK(bcast.k == 4);
    CHECK_FALSE(ompi::fixed_decision(Collective::bcast, 4, 8).piccolo);  // 5 binary_tree
    const ompi::Decision reduce = ompi::fixed_decision(Collective::reduce, 64, 1024);
    CHECK(reduce.algorithm == 5);
    CHECK(reduce.piccolo == std::optional<std::string_view>("binomial"));
    CHECK(ompi::fixed_decision(Collective::reduce, 4, 4).name == "binary");
    const ompi::Decision rs = ompi::fixed_decision(Collective::reduce_scatter, 8, 65536);
    CHECK(rs.algorithm == 3);
    CHECK(rs.piccolo == std::optional<std::string_view>("rh"));
    CHECK(ompi::fixed_decision(Collective::alltoall, 2, 2).name == "two_proc");
    CHECK(ompi::fixed_decision(Collective::alltoall, 24, 8).name == "modified_bruck");
    // Open MPI's pairwise goes to rank + step: piccolo's only where p is not a power of 2.
    CHECK(ompi::runs_as(Collective::alltoall, "pairwise", 0, 24));
    CHECK_FALSE(ompi::runs_as(Collective::alltoall, "pairwise", 0, 16));
    CHECK_FALSE(ompi::runs_as(Collective::bcast, "binomial", 0, 16));  // bit-reversed tree
    CHECK_FALSE(ompi::runs_as(Collective::bcast, "knomial", 8, 16));    // radix: the MCA value
    CHECK(ompi::runs_as(Collective::reduce, "knomial", 2, 16)->algorithm == 5);
    CHECK_FALSE(ompi::runs_as(Collective::reduce_scatter, "pairwise", 0, 24));
    CHECK(ompi::collective_id(Collective::reduce_scatter) == 13);
    CHECK(ompi::collective_id(Collective::reduce) == 11);
}

namespace {

// p = 16 (4 nodes x 4), 64 KiB and 4 MiB: scatter-rd is best at 64 KiB, scatter-ring at 4 MiB.
// Open MPI 4.1.4's own decision for 16 ranks runs binomial (6, which piccolo does not model) up
// to 1 MiB and scatter_allgather (8, piccolo's scatter-rd) above (coll_tuned_decision_fixed.c).
SelectResult hand_made_scatter() {
    SelectResult r;
    r.machine = "hand";
    r.collectives = {Collective::bcast};
    r.scales = {{4, 4}};
    r.sizes = {64 * KiB, 4 * MiB};
    const double times[2][4] = {{30, 25, 20, 22}, {900, 800, 500, 400}};
    for (std::size_t z = 0; z < 2; ++z)
        r.points.push_back(point(Collective::bcast, r.scales[0], r.sizes[z],
                                 {{"binomial", {{0, times[z][0]}}},
                                  {"knomial", {{2, times[z][0]}, {4, times[z][1]}}},
                                  {"scatter-rd", {{0, times[z][2]}}},
                                  {"scatter-ring", {{0, times[z][3]}}}},
                                 "binomial"));
    return r;
}

}  // namespace

TEST_CASE("mpich-json and openmpi-rules name van de Geijn's Bcast, scatter-rd and scatter-ring") {
    // Every series reads both (csel_container.c: v4.0.2 lines 238-241, v4.1.2 381-384, v4.2.3
    // 415-418, v4.3.2 464-467), with no parameter, at any communicator size.
    const Json expected = Json::parse(R"({"comm_type=intra": {"comm_size=any": {
        "avg_msg_size<=65536":
            {"algorithm=MPIR_Bcast_intra_scatter_recursive_doubling_allgather": {}},
        "avg_msg_size=any": {"algorithm=MPIR_Bcast_intra_scatter_ring_allgather": {}}}},
        "comm_type=inter": {"algorithm=MPIR_Bcast_inter_remote_send_local_bcast": {}}})");
    for (const std::string version : {"4.0", "4.1", "4.2", "4.3"}) {
        CAPTURE(version);
        EmitOptions options;
        options.mpich_version = version;
        const Json got = Json::parse(emit_mpich_json(hand_made_scatter(), options).text);
        CHECK(got.at("collective=bcast") == expected);
    }
    // Open MPI: 64 KiB stays with its binomial (0); at 4 MiB scatter_allgather_ring (9) is 20%
    // faster than the scatter_allgather (8) it would run.
    const Emitted e = emit_openmpi_rules(hand_made_scatter());
    CHECK(e.text.find("0 0 0 0    # Open MPI's own decision: buffer size at root 0 64 KiB") !=
          std::string::npos);
    CHECK(e.text.find("65537 9 0 0    # scatter_allgather_ring: buffer size at root 0 4 MiB") !=
          std::string::npos);
    // Where the ring is not 5% faster, Open MPI's own scatter_allgather stays.
    SelectResult close = hand_made_scatter();
    close.points[1] = point(Collective::bcast, close.scales[0], 4 * MiB,
                            {{"binomial", {{0, 900}}},
                             {"knomial", {{2, 900}, {4, 800}}},
                             {"scatter-rd", {{0, 420}}},
                             {"scatter-ring", {{0, 410}}}},
                            "binomial");
    CHECK(emit_openmpi_rules(close).text.find(" 9 0 0") == std::string::npos);
    const ompi::Decision own = ompi::fixed_decision(Collective::bcast, 16, 4 * MiB);
    CHECK(own.algorithm == 8);
    CHECK(own.name == "scatter_allgather");
    CHECK(own.piccolo == std::optional<std::string_view>("scatter-rd"));
    CHECK(ompi::runs_as(Collective::bcast, "scatter-ring", 0, 3)->algorithm == 9);
    CHECK(ompi::runs_as(Collective::bcast, "scatter-rd", 0, 12)->algorithm == 8);
}
