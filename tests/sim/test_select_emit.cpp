// Emitters on hand-made selections (so expected files do not move with engine numbers), plus
// MPICH's grammar checked on a real sweep.
#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <climits>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "mpich_versions.hpp"
#include "openmpi_defaults.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;
using Json = nlohmann::ordered_json;

namespace {

struct Time {
    std::string algorithm;
    int k;           // 0: no radix
    double time_us;  // <= 0: not available
};

bool has_radix(const std::string& a) {
    return a == "k-ring" || a == "rm" || a == "prm";
}

// A point whose best is the fastest entry and whose baseline is the faster of ring and rd.
PointSelection point(Collective c, Scale s, std::uint64_t bytes, const std::vector<Time>& times) {
    PointSelection p;
    p.collective = c;
    p.scale = s;
    p.bytes = bytes;
    for (const Time& t : times) {
        AlgorithmOutcome o;
        o.algorithm = t.algorithm;
        o.has_radix = has_radix(t.algorithm);
        o.available = t.time_us > 0;
        o.skipped = o.available ? "" : "needs at least p bytes";
        o.k = t.k;
        o.time = o.available ? t.time_us * 1e-6 : 0;
        if (o.available && (p.best < 0 || o.time < p.best_outcome()->time))
            p.best = static_cast<int>(p.algorithms.size());
        if ((t.algorithm == "ring" || t.algorithm == "rd") && o.available &&
            (p.baseline.empty() || o.time < p.baseline_time)) {
            p.baseline = t.algorithm;
            p.baseline_time = o.time;
        }
        p.algorithms.push_back(o);
    }
    return p;
}

constexpr std::uint64_t KiB = 1024, MiB = KiB * KiB;

// Three scales (p = 4, 8, 16) x four sizes. Per point: ring, k-ring, rd, rm, prm times (us).
SelectResult hand_made() {
    SelectResult r;
    r.machine = "hand";
    r.collectives = {Collective::allgather, Collective::allreduce};
    r.algorithms = {"ring", "k-ring", "rd", "rm", "prm"};
    r.scales = {{1, 4}, {2, 4}, {4, 4}};
    r.sizes = {8, KiB, 256 * MiB, 512 * MiB};
    const Collective ag = Collective::allgather, ar = Collective::allreduce;
    auto add = [&](Collective c, std::size_t s, std::size_t z, double ring, int kring_k,
                   double kring, double rd, int rm_k, double rm, int prm_k, double prm) {
        r.points.push_back(point(c, r.scales[s], r.sizes[z],
                                 {{"ring", 0, ring},
                                  {"k-ring", kring_k, kring},
                                  {"rd", 0, rd},
                                  {"rm", rm_k, rm},
                                  {"prm", prm_k, prm}}));
    };
    // allgather, p = 4: prm k=2 (recexch_halving k=2) for 8 B and 1 KiB, then rd.
    add(ag, 0, 0, 9, 2, 9, 5, 4, 4, 2, 3);
    add(ag, 0, 1, 9, 2, 9, 5, 4, 4, 2, 3);
    add(ag, 0, 2, 9, 2, 9, 5, 4, 6, 2, 7);
    add(ag, 0, 3, 9, 2, 9, 5, 4, 6, 2, 7);
    // allgather, p = 8: the same choices as p = 4, but total_msg_size thresholds differ (x p),
    // so the branches do not merge.
    add(ag, 1, 0, 9, 2, 9, 5, 4, 4, 2, 3);
    add(ag, 1, 1, 9, 2, 9, 5, 4, 4, 2, 3);
    add(ag, 1, 2, 9, 2, 9, 5, 4, 6, 2, 7);
    add(ag, 1, 3, 9, 2, 9, 5, 4, 6, 2, 7);
    // allgather, p = 16: rm k=16, then k-ring k=4 is best at 1 KiB (MPICH has none: the
    // fastest MPICH choice is ring, 10% slower), rd at 256 MiB, ring at 512 MiB. The rd run
    // ends at 256 MiB x 16 = 4 GiB > INT_MAX: it becomes "=any", ring at 512 MiB is lost.
    add(ag, 2, 0, 9, 4, 9, 8, 16, 2, 16, 3);
    add(ag, 2, 1, 11, 4, 10, 12, 16, 13, 16, 14);
    add(ag, 2, 2, 9, 4, 9, 5, 16, 6, 16, 7);
    add(ag, 2, 3, 5, 4, 9, 6, 16, 7, 16, 8);
    // allreduce, p = 4: rm k=4 to 1 KiB, then k-ring (best; ring is MPICH's) and ring.
    add(ar, 0, 0, -1, 2, -1, 5, 4, 3, 4, 4);
    add(ar, 0, 1, 8, 2, 8, 5, 4, 3, 4, 4);
    add(ar, 0, 2, 8, 2, 7, 9, 4, 9, 4, 9);
    add(ar, 0, 3, 8, 2, 9, 9, 4, 9, 4, 9);
    // allreduce, p = 8 and p = 16: rm k=8 everywhere (prm is faster at 8 B but MPICH has no
    // halving Allreduce): the two branches are equal and merge into comm_size=any.
    for (std::size_t s : {1, 2})
        for (std::size_t z = 0; z < 4; ++z) add(ar, s, z, 9, 2, 9, 8, 8, 3, 8, z == 0 ? 2 : 4);
    return r;  // added in (collective, scale, size) order, as select() orders them
}

std::string read(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The "collective=..." keys MPICH's reader knows (pmodels/mpich v4.0.2 .. v4.3.2,
// src/mpi/coll/src/csel.c): a complete file has every one of them.
const std::set<std::string> mpich_collectives{"allgather",
                                              "allgatherv",
                                              "allreduce",
                                              "alltoall",
                                              "alltoallv",
                                              "alltoallw",
                                              "barrier",
                                              "bcast",
                                              "exscan",
                                              "gather",
                                              "gatherv",
                                              "iallgather",
                                              "iallgatherv",
                                              "iallreduce",
                                              "ialltoall",
                                              "ialltoallv",
                                              "ialltoallw",
                                              "ibarrier",
                                              "ibcast",
                                              "iexscan",
                                              "igather",
                                              "igatherv",
                                              "ineighbor_allgather",
                                              "ineighbor_allgatherv",
                                              "ineighbor_alltoall",
                                              "ineighbor_alltoallv",
                                              "ineighbor_alltoallw",
                                              "ireduce",
                                              "ireduce_scatter",
                                              "ireduce_scatter_block",
                                              "iscan",
                                              "iscatter",
                                              "iscatterv",
                                              "neighbor_allgather",
                                              "neighbor_allgatherv",
                                              "neighbor_alltoall",
                                              "neighbor_alltoallv",
                                              "neighbor_alltoallw",
                                              "reduce",
                                              "reduce_scatter",
                                              "reduce_scatter_block",
                                              "scan",
                                              "scatter",
                                              "scatterv"};

// The Allgather and Allreduce algorithms a version's reader knows (csel_container.c at v4.0.2,
// v4.1.2, v4.2.3, v4.3.2), of those piccolo can name, and those MPICH's own tree (generic.json)
// names, which a file keeps where piccolo does not model them.
std::set<std::string> mpich_algorithms(bool gather, const std::string& version) {
    if (gather) {
        std::set<std::string> names{"MPIR_Allgather_intra_ring",
                                    "MPIR_Allgather_intra_recursive_doubling",
                                    "MPIR_Allgather_intra_brucks",
                                    "MPIR_Allgather_inter_local_gather_remote_bcast"};
        if (version >= "4.2")
            names.insert(
                {"MPIR_Allgather_intra_recexch_doubling", "MPIR_Allgather_intra_recexch_halving"});
        return names;
    }
    std::set<std::string> names{"MPIR_Allreduce_intra_recursive_doubling",
                                "MPIR_Allreduce_intra_reduce_scatter_allgather",
                                "MPIR_Allreduce_inter_reduce_exchange_bcast"};
    if (version >= "4.1")
        names.insert({"MPIR_Allreduce_intra_ring", "MPIR_Allreduce_intra_recexch"});
    if (version >= "4.3") {
        names.erase("MPIR_Allreduce_intra_recexch");
        names.insert("MPIR_Allreduce_intra_recursive_multiplying");
    }
    return names;
}

// MPICH's reader (src/mpi/coll/src/csel.c, csel_container.c): operator keys it knows, "<="
// siblings followed by an "=any" last sibling, one "algorithm=" leaf with "k=" parameters, only
// algorithms the version has, and an entry for every collective.
void check_mpich_grammar(const Json& tree, const std::string& version) {
    auto leaf = [&](const Json& j, const std::set<std::string>& names) {
        if (j.contains("is_op_built_in=yes")) {  // reduce_scatter_allgather's guards
            REQUIRE(j.size() == 2);
            const Json& counted = j.at("is_op_built_in=yes");
            REQUIRE(counted.size() == 2);
            const Json rd = {{"algorithm=MPIR_Allreduce_intra_recursive_doubling", Json::object()}};
            CHECK(counted.at("count<pow2") == rd);
            CHECK(j.at("is_op_built_in=no") == rd);
            const Json rsag = {
                {"algorithm=MPIR_Allreduce_intra_reduce_scatter_allgather", Json::object()}};
            CHECK(counted.at("count=any") == rsag);
            return;
        }
        REQUIRE(j.size() == 1);
        const std::string key = j.begin().key();
        REQUIRE(key.rfind("algorithm=", 0) == 0);
        CHECK_MESSAGE(names.count(key.substr(10)) == 1, key << " in MPICH " << version);
        for (const auto& [param, value] : j.begin().value().items()) {
            REQUIRE(param.rfind("k=", 0) == 0);
            CHECK(std::stoi(param.substr(2)) >= 2);
            CHECK(value == Json::object());
        }
    };
    // A list of "<op><=N" siblings with increasing N, ending with "<end>".
    auto ladder = [&](const Json& j, const std::string& op, const std::string& end, auto&& child) {
        REQUIRE(j.is_object());
        REQUIRE(!j.empty());
        long long previous = -1;
        std::size_t i = 0;
        for (const auto& [key, value] : j.items()) {
            if (++i == j.size()) {
                CHECK(key == end);
            } else {
                REQUIRE(key.rfind(op + "<=", 0) == 0);
                const long long n = std::stoll(key.substr(op.size() + 2));
                CHECK(n > previous);
                CHECK(n <= INT_MAX);
                previous = n;
            }
            child(value);
        }
    };
    std::set<std::string> seen;
    for (const auto& [collective, entry] : tree.items()) {
        REQUIRE(collective.rfind("collective=", 0) == 0);
        seen.insert(collective.substr(11));
        const bool gather = collective == "collective=allgather";
        if (!gather && collective != "collective=allreduce") continue;  // MPICH's own rules
        const std::set<std::string> names = mpich_algorithms(gather, version);
        const std::string size_op = gather ? "total_msg_size" : "avg_msg_size";
        auto rules = [&](const Json& l) {
            ladder(l, size_op, size_op + "=any", [&](const Json& m) { leaf(m, names); });
        };
        auto sizes = [&](const Json& j) {  // optionally split by "comm_size=pow2"
            if (j.begin().key() != "comm_size=pow2") return rules(j);
            REQUIRE(j.size() == 2);
            rules(j.at("comm_size=pow2"));
            rules(j.at("comm_size=any"));
        };
        REQUIRE(entry.size() == 2);
        leaf(entry.at("comm_type=inter"), names);
        Json intra = entry.at("comm_type=intra");
        if (!gather) {  // non-commutative operations: recursive doubling
            REQUIRE(intra.begin().key() == "is_commutative=no");
            leaf(intra.begin().value(), {"MPIR_Allreduce_intra_recursive_doubling"});
            intra.erase("is_commutative=no");
        }
        ladder(intra, "comm_size", "comm_size=any", [&](const Json& j) {
            if (j.begin().key().rfind("comm_avg_ppn", 0) == 0)
                ladder(j, "comm_avg_ppn", "comm_size=any", sizes);
            else
                sizes(j);
        });
    }
    CHECK(seen == mpich_collectives);
}

// The allgather and allreduce entries of an MPICH file (the rest is MPICH's own rules).
Json tuned_entries(const Json& tree) {
    Json out = Json::object();
    for (const char* key : {"collective=allgather", "collective=allreduce"})
        out[key] = tree.at(key);
    return out;
}

// Compares with a golden file under tests/sim/data; on a difference, writes what was produced
// into the build folder, to be inspected (and copied over the golden file once understood).
void check_golden(const std::string& produced, const std::string& golden, bool json) {
    const std::string expected =
        read(std::string(PICCOLO_SOURCE_DIR) + "/tests/sim/data/" + golden);
    const bool same = json ? !expected.empty() && Json::parse(produced) == Json::parse(expected)
                           : produced == expected;
    CHECK_MESSAGE(same, golden << " differs; produced: " << PICCOLO_BINARY_DIR << "/" << golden);
    if (!same) std::ofstream(std::string(PICCOLO_BINARY_DIR) + "/" + golden) << produced;
}

}  // namespace

TEST_CASE("mpich-json per MPICH version matches its expected file (keys, nesting, choices)") {
    for (const std::string version : {"4.0", "4.1", "4.2", "4.3"}) {
        CAPTURE(version);
        EmitOptions options;
        options.mpich_version = version;
        const Json got = Json::parse(emit_mpich_json(hand_made(), options).text);
        check_mpich_grammar(got, version);
        check_golden(tuned_entries(got).dump(4) + "\n", "select_mpich_" + version + ".json", true);
    }
}

TEST_CASE("mpich-json: bruck is brucks (k = 2 only) in 4.0 and k_brucks with k from 4.1") {
    const Collective ag = Collective::allgather;
    const mpich::Algorithm* v40 = mpich::equivalent(mpich::version("4.0"), ag, "bruck", 24);
    REQUIRE(v40 != nullptr);
    CHECK(v40->name == "MPIR_Allgather_intra_brucks");
    CHECK_FALSE(v40->takes_k);
    CHECK(v40->only_k == 2);
    for (const char* series : {"4.1", "4.2", "4.3"}) {
        const mpich::Algorithm* a = mpich::equivalent(mpich::version(series), ag, "bruck", 24);
        REQUIRE(a != nullptr);
        CHECK(a->name == "MPIR_Allgather_intra_k_brucks");
        CHECK(a->takes_k);
        CHECK(a->only_k == 0);
        CHECK(mpich::equivalent(mpich::version(series), Collective::allreduce, "bruck", 24) ==
              nullptr);
    }
}

TEST_CASE("mpich-json: MPICH's own rules for the other collectives, per version") {
    EmitOptions options;
    options.mpich_version = "4.0";
    const Json v40 = Json::parse(emit_mpich_json(hand_made(), options).text);
    options.mpich_version = "4.3";
    const Json v43 = Json::parse(emit_mpich_json(hand_made(), options).text);
    // generic.json at v4.0.2 and v4.3.2: barrier is the one difference.
    CHECK(v40["collective=barrier"]["comm_type=intra"].dump().find(
              "\"algorithm=MPIR_Barrier_intra_dissemination\":{}") != std::string::npos);
    CHECK(v43["collective=barrier"]["comm_type=intra"].dump().find(
              "\"algorithm=MPIR_Barrier_intra_k_dissemination\":{\"k=2\":{}}") !=
          std::string::npos);
    CHECK(v40["collective=bcast"]["comm_type=inter"] ==
          Json::parse(R"({"algorithm=MPIR_Bcast_inter_remote_send_local_bcast": {}})"));
    CHECK(v43["collective=gatherv"] ==
          Json::parse(R"({"algorithm=MPIR_Gatherv_allcomm_linear": {}})"));
    options.mpich_version = "4.4";
    CHECK_THROWS_WITH_AS(emit_mpich_json(hand_made(), options),
                         "--mpich-version: unknown MPICH version '4.4' (known: 4.0, 4.1, 4.2, 4.3; "
                         "`mpichversion` prints yours)",
                         InputError);
    options.mpich_version = "4.0.2";  // a release selects its series
    CHECK(Json::parse(emit_mpich_json(hand_made(), options).text) == v40);
}

TEST_CASE("mpich-json remarks: the version and what the mapping lost") {
    EmitOptions options;
    options.mpich_version = "4.3";
    options.mpich_version_origin = "mpichversion reports MPICH 4.3.2";
    Emitted e = emit_mpich_json(hand_made(), options);
    REQUIRE(e.remarks.size() == 6);
    CHECK(e.remarks[0] ==
          "mpich-json: for MPICH 4.3 (mpichversion reports MPICH 4.3.2): algorithm names, "
          "parameters and the other collectives' rules of MPICH v4.3.2; choices simulated in "
          "the mpi style; load it with MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=FILE");
    CHECK(e.remarks[1].find("allgather rules compare total_msg_size") != std::string::npos);
    // k-ring was best at 1 allgather point (10 us vs ring's 11 us) and at 1 allreduce point
    // (7 us vs ring's 8 us); prm at 2 allreduce points (2 us vs rm's 3 us).
    CHECK(e.remarks[2] ==
          "mpich-json: MPICH 4.3 cannot run k-ring where it was the best allgather (1 of 12 "
          "points); there the file names the fastest algorithm MPICH 4.3 runs (at most 10.0% "
          "slower in simulation)");
    CHECK(e.remarks[3] ==
          "mpich-json: allgather at 4 nodes x 4 = 16 ranks: MPICH reads size thresholds as int, "
          "so sizes whose total exceeds 2147483647 bytes share the rule of the largest size it "
          "can write");
    CHECK(e.remarks[4].find("prm where it was the best allreduce (2 of 12 points)") !=
          std::string::npos);
    CHECK(e.remarks[4].find("at most 50.0% slower") != std::string::npos);  // 3/2 - 1
    // MPICH's own Allreduce (generic.json) is recursive doubling up to 8 B and, for a count of
    // doubles >= the largest power of 2 <= p, reduce_scatter_allgather, which piccolo does not
    // model: kept at 1 KiB, 256 MiB and 512 MiB of each p (9 points). At 8 B rm is 40 % (p = 4)
    // and 62.5 % (p = 8, 16) faster than recursive doubling: named. k-ring's allreduce point
    // (1 KiB, p = 4) is one of the kept ones, so nothing is lost to the mapping there.
    CHECK(e.remarks[5] ==
          "mpich-json: allreduce keeps MPICH 4.3's own choice at 9 of 12 points: 0 where piccolo "
          "predicts less than 5% gain over it, 9 where MPICH runs "
          "MPIR_Allreduce_intra_reduce_scatter_allgather (piccolo does not model it)");
}

TEST_CASE("mpich-json of a real sweep follows MPICH's grammar") {
    SelectRequest r;
    r.machine = load_machine("delta");
    r.scales = {{1, 4}, {2, 4}, {4, 4}, {8, 4}, {8, 2}};  // p = 16 twice: comm_avg_ppn
    r.sizes = {8, 512, 32 * KiB, 1 * MiB, 64 * MiB};
    const SelectResult result = select(r);
    for (const std::string version : {"4.0", "4.1", "4.2", "4.3"}) {
        CAPTURE(version);
        EmitOptions options;
        options.mpich_version = version;
        const Json tree = Json::parse(emit_mpich_json(result, options).text);
        check_mpich_grammar(tree, version);
        // 8 x 2 and 4 x 4 share p = 16: MPICH tells them apart by the average ranks per node.
        const Json& p16 = tree["collective=allreduce"]["comm_type=intra"]["comm_size<=16"];
        CHECK(p16.begin().key() == "comm_avg_ppn<=2");
    }
}

TEST_CASE("openmpi-rules matches the expected file") {
    const Emitted e = emit_openmpi_rules(hand_made());
    check_golden(e.text, "select_openmpi_rules.txt", false);
    REQUIRE(!e.remarks.empty());
    CHECK(e.remarks.back() ==
          "openmpi-rules: use it with --mca coll_tuned_use_dynamic_rules 1 --mca "
          "coll_tuned_dynamic_rules_filename FILE (Open MPI 4.1 and 5.0)");
    REQUIRE(e.remarks.size() == 9);
    // Open MPI 4.1 runs recursive doubling for Allgather below 32 ranks; piccolo's ring beats it
    // by 5 % or more only at p = 16, 1 KiB (11 us vs 12) and 512 MiB (5 us vs 6).
    CHECK(e.remarks[0] ==
          "openmpi-rules: allgather leaves 10 of 12 points to Open MPI's own decision "
          "(algorithm 0): at 10 piccolo predicts no gain of 5% over the algorithm Open MPI runs "
          "there");
    // Open MPI has ring and recursive doubling only: rm k=16 (2 us) against rd (8 us) at p = 16.
    CHECK(e.remarks[3] ==
          "openmpi-rules: Open MPI cannot run rm where it was the best allgather (1 of 12 points); "
          "the fastest algorithm Open MPI runs is at most 300.0% slower there in simulation");
    // Allreduce: Rabenseifner from 256 MiB at every p, segmented ring for 8 B at p = 16
    // (coll_tuned_decision_fixed.c); elsewhere Open MPI's own choice is piccolo's fastest.
    CHECK(e.remarks[4] ==
          "openmpi-rules: allreduce leaves 12 of 12 points to Open MPI's own decision "
          "(algorithm 0): at 5 piccolo predicts no gain of 5% over the algorithm Open MPI runs "
          "there; at 7 Open MPI runs an algorithm piccolo does not model (rabenseifner 6, "
          "segmented_ring 1)");
}

TEST_CASE("piccl-env: PICCL's variables for one scale and size") {
    SelectResult r = hand_made();
    // One scale: p = 16 only.
    SelectResult one = r;
    one.scales = {r.scales[2]};
    one.points.clear();
    for (const PointSelection& p : r.points)
        if (p.scale == r.scales[2]) one.points.push_back(p);
    EmitOptions options;
    options.piccl_bytes = KiB;
    const Emitted e = emit_piccl_env(one, options);
    // 1 KiB: allgather k-ring k=4 (10 us, 1.1x over ring's 11 us); allreduce rm k=8 (3 us,
    // 2.67x over rd's 8 us).
    CHECK(e.text ==
          "# PICCL settings chosen by piccolo select (machine hand, 4 nodes x 4 = 16 ranks, "
          "mpi style, contention modelled).\n"
          "# PICCL reads them when it is loaded: set -a; . THIS_FILE; set +a\n"
          "# allgather: per-rank contribution 1 KiB -> k-ring k=4, predicted 10.00 us (1.10x "
          "over ring)\n"
          "# allreduce: vector size 1 KiB -> rm k=8, predicted 3.000 us (2.67x over rd)\n"
          "PICCL_ALLGATHER_ALGO=K_RING\n"
          "PICCL_ALLGATHER_K=4\n"
          "PICCL_ALLREDUCE_ALGO=RM\n"
          "PICCL_ALLREDUCE_K=8\n");
    options.piccl_bytes = 0;
    CHECK_THROWS_WITH_AS(emit_piccl_env(one, options),
                         "--emit piccl-env: PICCL takes one algorithm per collective for the "
                         "whole run; say for which message size with --size SIZE",
                         InputError);
    options.piccl_bytes = KiB;
    CHECK_THROWS_AS(emit_piccl_env(r, options), InputError);  // three scales
}

TEST_CASE("csv: one row per algorithm, size meaning in every row") {
    const std::string csv = emit_csv(hand_made());
    std::istringstream lines(csv);
    std::string header, first;
    std::getline(lines, header);
    std::getline(lines, first);
    CHECK(header ==
          "collective,size_bytes,size_meaning,machine,style,nodes,ppn,ranks,contention,algorithm,k,"
          "same_schedule_k,time_s,speedup_vs_baseline,baseline,best,skipped");
    // allgather, p = 4, 8 B, ring: 9 us against the baseline rd's 5 us.
    CHECK(first ==
          "allgather,8,per-rank contribution,\"hand\",mpi,1,4,4,1,ring,,,9e-06,"
          "0.5555555555555555,rd,0,");
    CHECK(csv.find("allreduce,8,vector size,\"hand\",mpi,1,4,4,1,ring,,,,,rd,0,\"needs at least p "
                   "bytes\"\n") != std::string::npos);
    std::size_t rows = 0;
    for (std::string line; std::getline(lines, line);) ++rows;
    CHECK(rows + 1 == 2 * 3 * 4 * 5);  // collectives x scales x sizes x algorithms
}

TEST_CASE("yaml carries the same tree as json") {
    const SelectResult r = hand_made();
    const YAML::Node y = YAML::Load(emit_yaml(r));
    const Json j = Json::parse(emit_json(r));
    CHECK(y["machine"].as<std::string>() == "hand");
    CHECK(y["size_meaning"]["allreduce"].as<std::string>() == "vector size (MPICH avg_msg_size)");
    REQUIRE(y["selections"].size() == j["selections"].size());
    for (std::size_t i = 0; i < j["selections"].size(); ++i) {
        const YAML::Node ys = y["selections"][i];
        const Json& js = j["selections"][i];
        CHECK(ys["size_bytes"].as<std::uint64_t>() == js["size_bytes"].get<std::uint64_t>());
        CHECK(ys["best"]["algorithm"].as<std::string>() ==
              js["best"]["algorithm"].get<std::string>());
        CHECK(ys["best"]["time_s"].as<double>() == js["best"]["time_s"].get<double>());
        CHECK(ys["algorithms"].size() == js["algorithms"].size());
    }
}

TEST_CASE("table: one block per collective and scale, with size semantics") {
    const std::string table = emit_table(hand_made());
    CHECK(table.find("allgather on hand: 1 node x 4 = 4 ranks (size = per-rank contribution; "
                     "mpi style; contention modelled)\n") != std::string::npos);
    CHECK(table.find("allreduce on hand: 4 nodes x 4 = 16 ranks (size = vector size; "
                     "mpi style; contention modelled)\n") != std::string::npos);
    CHECK(table.find("  ring not run at 8 B: needs at least p bytes\n") != std::string::npos);
}

TEST_CASE("emit kinds by name") {
    CHECK(parse_emit_kind("mpich-json") == EmitKind::mpich_json);
    CHECK(parse_emit_kind("openmpi-rules") == EmitKind::openmpi_rules);
    CHECK(to_string(EmitKind::piccl_env) == "piccl-env");
    CHECK_THROWS_WITH_AS(parse_emit_kind("xml"),
                         "unknown output kind 'xml' (known: table, csv, json, yaml, mpich-json, "
                         "openmpi-rules, piccl-env)",
                         InputError);
}

// Open MPI's fixed decision, read off open-mpi/ompi v4.1.4 coll_tuned_decision_fixed.c by hand:
// one case per branch kind, and the edges of a bracket (a communicator size or a size at a
// threshold takes the next branch: the source compares with <).
TEST_CASE("openmpi-rules: Open MPI 4.1's own choice, and what piccolo models of it") {
    using ompi::fixed_decision;
    const Collective ag = Collective::allgather, ar = Collective::allreduce;
    auto is = [](const ompi::Decision& d, int algorithm, std::string_view name,
                 std::optional<std::string_view> piccolo) {
        CHECK(d.algorithm == algorithm);
        CHECK(d.name == name);
        CHECK(d.piccolo == piccolo);
    };
    is(fixed_decision(ag, 2, 64 * MiB), 6, "two_proc", "rd");  // p = 2: one exchange
    is(fixed_decision(ag, 16, 8), 3, "recursive_doubling", "rd");
    is(fixed_decision(ag, 24, 8), 3, "recursive_doubling", "bruck");  // Bruck at 24 ranks
    is(fixed_decision(ag, 32, 1023), 3, "recursive_doubling", "rd");
    is(fixed_decision(ag, 32, 1024), 5, "neighbor", std::nullopt);
    is(fixed_decision(ag, 63, 65536), 4, "ring", "ring");
    is(fixed_decision(ag, 300, 100), 2, "bruck", "bruck");
    is(fixed_decision(ag, 5000, 1), 3, "recursive_doubling", "bruck");  // 5000: no power of 2
    is(fixed_decision(ag, 5000, 4096), 5, "neighbor", std::nullopt);
    is(fixed_decision(ar, 2, 8), 3, "recursive_doubling", "rd");
    is(fixed_decision(ar, 3, 4096), 4, "ring", "ring");
    is(fixed_decision(ar, 2, 64 * KiB), 5, "segmented_ring", std::nullopt);
    is(fixed_decision(ar, 2, 256 * KiB), 6, "rabenseifner", std::nullopt);
    is(fixed_decision(ar, 4, 15), 4, "ring", "ring");
    is(fixed_decision(ar, 200, 100), 2, "nonoverlapping", std::nullopt);
    is(fixed_decision(ar, 3000, 3000), 5, "segmented_ring", std::nullopt);
    is(fixed_decision(ar, 4096, 20000), 3, "recursive_doubling", "rd");
    is(fixed_decision(ar, 4096, 32768), 6, "rabenseifner", std::nullopt);
    // Open MPI's Bruck is radix 2 and Allgather only: bruck with k = 2 runs as coll_tuned's 2.
    CHECK(ompi::runs_as(ag, "bruck", 2, 24)->algorithm == 2);
    CHECK(ompi::runs_as(ag, "bruck", 2, 24)->name == "bruck");
    CHECK_FALSE(ompi::runs_as(ag, "bruck", 3, 27).has_value());
    CHECK_FALSE(ompi::runs_as(ar, "bruck", 2, 24).has_value());
}
