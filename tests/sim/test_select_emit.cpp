// Emitters on hand-made selections (so expected files do not move with engine numbers), plus
// MPICH's grammar checked on a real sweep.
#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <climits>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "piccolo/error.hpp"
#include "piccolo/machine_io.hpp"
#include "piccolo/select.hpp"
#include "piccolo/select_emit.hpp"

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

// MPICH's reader (src/mpi/coll/src/csel.c, csel_container.c): operator keys it knows, "<="
// siblings followed by an "=any" last sibling, one "algorithm=" leaf with "k=" parameters.
void check_mpich_grammar(const Json& tree) {
    const std::set<std::string> allgather{
        "MPIR_Allgather_intra_ring", "MPIR_Allgather_intra_recursive_doubling",
        "MPIR_Allgather_intra_recexch_doubling", "MPIR_Allgather_intra_recexch_halving",
        "MPIR_Allgather_inter_local_gather_remote_bcast"};
    const std::set<std::string> allreduce{
        "MPIR_Allreduce_intra_ring", "MPIR_Allreduce_intra_recursive_doubling",
        "MPIR_Allreduce_intra_recursive_multiplying", "MPIR_Allreduce_inter_reduce_exchange_bcast"};
    auto leaf = [&](const Json& j, const std::set<std::string>& names) {
        REQUIRE(j.size() == 1);
        const std::string key = j.begin().key();
        REQUIRE(key.rfind("algorithm=", 0) == 0);
        CHECK(names.count(key.substr(10)) == 1);
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
    for (const auto& [collective, entry] : tree.items()) {
        const bool gather = collective == "collective=allgather";
        REQUIRE((gather || collective == "collective=allreduce"));
        const auto& names = gather ? allgather : allreduce;
        const std::string size_op = gather ? "total_msg_size" : "avg_msg_size";
        REQUIRE(entry.size() == 2);
        leaf(entry.at("comm_type=inter"), names);
        ladder(entry.at("comm_type=intra"), "comm_size", "comm_size=any", [&](const Json& j) {
            if (j.begin().key().rfind("comm_avg_ppn", 0) == 0)
                ladder(j, "comm_avg_ppn", "comm_size=any", [&](const Json& k) {
                    ladder(k, size_op, size_op + "=any", [&](const Json& l) { leaf(l, names); });
                });
            else
                ladder(j, size_op, size_op + "=any", [&](const Json& l) { leaf(l, names); });
        });
    }
}

}  // namespace

TEST_CASE("mpich-json matches the expected file (keys, nesting, choices)") {
    const Emitted e = emit_mpich_json(hand_made(), {});
    const Json expected = Json::parse(
        read(std::string(PICCOLO_SOURCE_DIR) + "/tests/sim/data/select_mpich_expected.json"));
    const Json got = Json::parse(e.text);
    CHECK(got == expected);  // ordered_json: key order is part of the comparison
    if (got != expected) MESSAGE("got:\n" << e.text);
    check_mpich_grammar(got);
    // k-ring was best at 1 allgather point (10 us vs ring's 11 us) and at 1 allreduce point
    // (7 us vs ring's 8 us); prm at 2 allreduce points (2 us vs rm's 3 us).
    REQUIRE(e.remarks.size() == 6);
    CHECK(e.remarks[0].find("allgather rules compare total_msg_size") != std::string::npos);
    CHECK(e.remarks[1] ==
          "mpich-json: k-ring was the best allgather at 1 of 12 points, but MPICH has no k-ring; "
          "there the file names the fastest algorithm MPICH has (at most 10.0% slower in "
          "simulation)");
    CHECK(e.remarks[2] ==
          "mpich-json: allgather at 4 nodes x 4 = 16 ranks: MPICH reads size thresholds as int, "
          "so sizes whose total exceeds 2147483647 bytes share the rule of the largest size it "
          "can write");
    CHECK(e.remarks[3].find("k-ring was the best allreduce at 1 of 12 points") !=
          std::string::npos);
    CHECK(e.remarks[3].find("at most 14.3% slower") != std::string::npos);  // 8/7 - 1
    CHECK(e.remarks[4].find("prm was the best allreduce at 2 of 12 points") != std::string::npos);
    CHECK(e.remarks[4].find("at most 50.0% slower") != std::string::npos);  // 3/2 - 1
    CHECK(e.remarks[5].find("--mpich-base") != std::string::npos);
}

TEST_CASE("mpich-json of a real sweep follows MPICH's grammar") {
    SelectRequest r;
    r.machine = load_machine("delta");
    r.scales = {{1, 4}, {2, 4}, {4, 4}, {8, 4}, {8, 2}};  // p = 16 twice: comm_avg_ppn
    r.sizes = {8, 512, 32 * KiB, 1 * MiB, 64 * MiB};
    const SelectResult result = select(r);
    const Json tree = Json::parse(emit_mpich_json(result, {}).text);
    check_mpich_grammar(tree);
    // 8 x 2 and 4 x 4 share p = 16: MPICH tells them apart by the average ranks per node.
    const Json& p16 = tree["collective=allreduce"]["comm_type=intra"]["comm_size<=16"];
    CHECK(p16.begin().key() == "comm_avg_ppn<=2");
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
    CHECK(to_string(EmitKind::piccl_env) == "piccl-env");
    CHECK_THROWS_WITH_AS(parse_emit_kind("xml"),
                         "unknown output kind 'xml' (known: table, csv, json, yaml, mpich-json, "
                         "piccl-env)",
                         InputError);
}
