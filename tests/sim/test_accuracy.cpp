// The accuracy report's arithmetic on hand-computed cases: Spearman's rho (ties included), the
// captured share and its geometric mean on a hand-made measurement file, and the reader.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

#include "piccolo/core/error.hpp"
#include "piccolo/studies/accuracy.hpp"
#include "piccolo/topologies/machine.hpp"

using namespace piccolo;

namespace {

const std::string data_dir = std::string(PICCOLO_SOURCE_DIR) + "/tests/sim/data/";

}  // namespace

TEST_CASE("average ranks share the mean rank of a tie") {
    const std::vector<double> values{3, 1, 3, 2};
    CHECK(average_ranks(values) == std::vector<double>{3.5, 1, 3.5, 2});
    const std::vector<double> all_tied{5, 5, 5};
    CHECK(average_ranks(all_tied) == std::vector<double>{2, 2, 2});
}

TEST_CASE("Spearman's rho on hand-computed cases") {
    // No ties: rho = 1 - 6 sum d^2 / (n (n^2 - 1)); d = (-1, 1, -1, 1, 0): 1 - 24/120 = 0.8.
    const std::vector<double> a{1, 2, 3, 4, 5}, b{2, 1, 4, 3, 5};
    CHECK(spearman(a, b) == doctest::Approx(0.8).epsilon(1e-15));
    const std::vector<double> reversed{50, 40, 30, 20, 10};
    CHECK(spearman(a, reversed) == doctest::Approx(-1).epsilon(1e-15));
    CHECK(spearman(a, a) == doctest::Approx(1).epsilon(1e-15));
    // Ties: ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4): cov 4.5, variances 4.5 and 5, so
    // rho = 4.5 / sqrt(22.5) = sqrt(0.9) (the shortcut formula would give 1 - 6*0.5/60 = 0.95).
    const std::vector<double> tied{1, 2, 2, 3}, plain{1, 2, 3, 4};
    CHECK(spearman(tied, plain) == doctest::Approx(std::sqrt(0.9)).epsilon(1e-15));
    // Undefined: one value, or one side all tied.
    const std::vector<double> one{1}, flat{7, 7, 7, 7};
    CHECK(std::isnan(spearman(one, one)));
    CHECK(std::isnan(spearman(flat, plain)));
}

TEST_CASE("geometric mean") {
    const std::vector<double> v{0.5, 1, 2}, w{0.25, 1};
    CHECK(geometric_mean(v) == doctest::Approx(1).epsilon(1e-15));
    CHECK(geometric_mean(w) == doctest::Approx(0.5).epsilon(1e-15));
    CHECK(std::isnan(geometric_mean(std::vector<double>{})));
}

TEST_CASE("the hand-made measurement file is read with its header") {
    const Measurement m = read_measurement(data_dir + "accuracy_measured.csv");
    CHECK(m.host == "node17");
    CHECK(m.date == "2026-11-20T10:00:00Z");
    CHECK(m.mpi_library == "Open MPI v4.1.4");
    CHECK(m.ranks == 4);
    CHECK(m.nodes == 2);
    CHECK(m.ranks_per_node == 2);
    REQUIRE(m.candidates.size() == 6);
    REQUIRE(m.library.size() == 1);
    CHECK(m.candidates[2].algorithm == "rm");
    CHECK(m.candidates[2].k == 4);
    CHECK(m.candidates[2].median_s == 9e-6);
    CHECK(m.candidates[2].line == 15);  // 10 header lines, columns, library, ring, rd
    CHECK(m.library[0].algorithm == "MPI_Allgather");
}

TEST_CASE("captured share, Spearman and geometric mean on the hand-made file") {
    const Measurement m = read_measurement(data_dir + "accuracy_measured.csv");
    // Rows: 8 B ring 10, rd 8, rm 9 us; 1 KiB ring 20, rd 40, rm 30 us (measured). Predicted:
    // at 8 B rm is best (ring 3, rd 2, rm 1); at 1 KiB ring (ring 1, rd 3, rm 2).
    const std::vector<double> predicted{3e-6, 2e-6, 1e-6, 1e-6, 3e-6, 2e-6};
    const AccuracyReport r = score_accuracy(m, predicted);
    REQUIRE(r.sizes.size() == 2);
    const SizeScore& small = r.sizes[0];
    CHECK(small.bytes == 8);
    CHECK(small.measured_best == 1);   // rd
    CHECK(small.predicted_best == 2);  // rm
    CHECK(small.captured == doctest::Approx(8.0 / 9.0).epsilon(1e-15));
    // Predicted ranks (3, 2, 1), measured (3, 1, 2): d = (0, 1, -1), rho = 1 - 12/24 = 0.5.
    CHECK(small.spearman == doctest::Approx(0.5).epsilon(1e-15));
    CHECK_FALSE(small.within_noise);  // rm's CI 8.5..9.5 us lies above rd's 7.9..8.1 us
    REQUIRE(small.library_s.has_value());
    CHECK(*small.library_s == 7e-6);
    const SizeScore& large = r.sizes[1];
    CHECK(large.bytes == 1024);
    CHECK(large.captured == 1);
    CHECK(large.spearman == doctest::Approx(1).epsilon(1e-15));
    CHECK_FALSE(large.library_s.has_value());
    CHECK(r.geomean == doctest::Approx(std::sqrt(8.0 / 9.0)).epsilon(1e-15));
    REQUIRE(r.geomean_by_collective.size() == 1);
    CHECK(r.geomean_by_collective[0].second == doctest::Approx(std::sqrt(8.0 / 9.0)));
    // 4 ranks on a host of 2 cores, and one candidate (rm at 1 KiB: 20.5..31 us) wider than
    // +-10 % of its median.
    REQUIRE(r.noise.size() == 2);
    CHECK(r.noise[0].find("4 ranks on a host with 2 cores") != std::string::npos);
    CHECK(r.noise[1].find("1 of 6 candidates") != std::string::npos);
}

TEST_CASE("a tie in prediction goes to the candidate listed first, within-CI is reported") {
    Measurement m = read_measurement(data_dir + "accuracy_measured.csv");
    m.cores_per_host = 4;
    const std::vector<double> predicted{2e-6, 2e-6, 2e-6, 5e-6, 5e-6, 5e-6};
    const AccuracyReport r = score_accuracy(m, predicted);
    CHECK(r.sizes[0].predicted_best == 0);  // ring, first of three equal predictions
    CHECK(r.sizes[0].captured == doctest::Approx(0.8).epsilon(1e-15));
    CHECK(std::isnan(r.sizes[0].spearman));  // every prediction tied: undefined
    CHECK(r.sizes[1].captured == 1);
    CHECK(r.sizes[1].within_noise);
    CHECK(r.noise.size() == 1);  // only the wide interval now
}

TEST_CASE("the same measurement as JSON reads the same") {
    const std::string json = R"({"tool": "piccolo-run-mpi", "host": "h", "date": "d",
        "mpi_library": "lib", "ranks": 2, "nodes": 1, "ranks_per_node": 2, "rows": [
        {"collective": "allreduce", "algorithm": "rd", "k": 0, "style": "nccl", "bytes": 64,
         "type": "f64", "median_s": 2e-6, "ci_low_s": 1e-6, "ci_high_s": 3e-6, "runs": 12}]})";
    const Measurement m = parse_measurement(json, "m.json");
    CHECK(m.host == "h");
    CHECK(m.ranks == 2);
    REQUIRE(m.candidates.size() == 1);
    CHECK(m.candidates[0].collective == Collective::allreduce);
    CHECK(m.candidates[0].style == "nccl");
    CHECK(m.candidates[0].runs == 12);
    CHECK_THROWS_WITH_AS(
        parse_measurement(R"({"ranks": 2, "rows": [{"collective": "allgather"}]})", "m.json"),
        "m.json: rows[0]: no 'algorithm'", InputError);
}

TEST_CASE("the CSV and JSON outputs carry the run and the scores") {
    const Measurement m = read_measurement(data_dir + "accuracy_measured.csv");
    AccuracyReport r = score_accuracy(m, std::vector<double>{3e-6, 2e-6, 1e-6, 1e-6, 3e-6, 2e-6});
    r.machine = "delta";
    r.profile = "delta";
    const std::string csv = accuracy_csv(r);
    CHECK(csv.find("# host: node17\n") != std::string::npos);
    CHECK(csv.find("# noisy: yes\n") != std::string::npos);
    CHECK(csv.find("allgather,8,3,rd (mpi),8e-06,rm k=4 (mpi),9e-06,0.888889,0.500000,0,7e-06\n") !=
          std::string::npos);
    CHECK(csv.find("allgather,1024,3,ring (mpi),2e-05,ring (mpi),2e-05,1.000000,1.000000,1,\n") !=
          std::string::npos);
    const std::string html = accuracy_html(r, "piccolo accuracy --measured m.csv -m delta");
    CHECK(html.find("node17") != std::string::npos);
    CHECK(html.find("NOISY") != std::string::npos);
    CHECK(html.find("<circle") != std::string::npos);
}

TEST_CASE("a time that jumps against the same candidate at other sizes is flagged noisy") {
    Measurement m = read_measurement(data_dir + "accuracy_measured.csv");
    m.cores_per_host = 4;
    m.candidates[5].ci_low_s = 29e-6;  // no wide interval left
    const std::vector<double> predicted{3e-6, 2e-6, 1e-6, 1e-6, 3e-6, 2e-6};
    CHECK(score_accuracy(m, predicted).noise.empty());  // 8 B -> 1 KiB: at most 5x, 7 doublings
    m.candidates[0].median_s = m.candidates[0].ci_low_s = 45e-6;  // ring 8 B: over 2x its 1 KiB
    m.candidates[0].ci_high_s = 45e-6;
    const AccuracyReport r = score_accuracy(m, predicted);
    REQUIRE(r.noise.size() == 1);
    CHECK(r.noise[0].find("1 time(s) jump") != std::string::npos);
    // 8 B -> 16 B (one doubling) from 1 us to 21 us: more than 20x.
    Measurement doubled = m;
    doubled.candidates = {m.candidates[1], m.candidates[1]};
    doubled.candidates[1].bytes = 16;
    doubled.candidates[0].median_s = doubled.candidates[0].ci_low_s = 1e-6;
    doubled.candidates[0].ci_high_s = 1e-6;
    doubled.candidates[1].median_s = doubled.candidates[1].ci_low_s = 21e-6;
    doubled.candidates[1].ci_high_s = 21e-6;
    CHECK(score_accuracy(doubled, std::vector<double>{1e-6, 2e-6}).noise.size() == 1);
    doubled.candidates[1].median_s = doubled.candidates[1].ci_low_s = 19e-6;
    doubled.candidates[1].ci_high_s = 19e-6;
    CHECK(score_accuracy(doubled, std::vector<double>{1e-6, 2e-6}).noise.empty());
}

TEST_CASE("rooted collectives are predicted from the root the measurement names") {
    const Measurement m = read_measurement(data_dir + "accuracy_rooted.csv");
    CHECK(m.root == 1);
    REQUIRE(m.candidates.size() == 4);
    // Two nodes of two ranks: free inside a node, 1 us of latency between nodes, nothing else.
    Machine machine;
    machine.name = "two nodes, latency only";
    machine.levels.push_back({"node", 2, std::nullopt, LogGPTable({{0, LogGP{}}})});
    machine.levels.push_back(
        {"system", 2, std::nullopt, LogGPTable({{0, LogGP{1e-6, 0, 0, 0, 0}}})});
    validate_machine(machine);
    // Ranks 0, 1 share node 0; 2, 3 node 1. Binomial Bcast from rank 1 (relative rank
    // r' = r - 1 mod 4): 1 -> 3 (r' 2) at 1 us, then 3 -> 0 (r' 3) at 2 us; 1 -> 2 (r' 1) at
    // 1 us: 2 us. From rank 0 it is 1 us: 0 -> 2 between the nodes, then 0 -> 1 and 2 -> 3
    // inside them. The 3-nomial tree from rank 1 has every other rank as the root's child
    // (r' 3 at distance 3, r' 1 and 2 at distance 1), sent at once at no cost: 1 us. The
    // Reduce trees are the same trees backwards: binomial 2 -> 1 and 0 -> 3 at 1 us, 3 -> 1
    // at 2 us; 3-nomial 1 us.
    const std::vector<double> predicted = predict_candidates(m, machine);
    REQUIRE(predicted.size() == 4);
    CHECK(predicted[0] == doctest::Approx(2e-6).epsilon(1e-12));
    CHECK(predicted[1] == doctest::Approx(1e-6).epsilon(1e-12));
    CHECK(predicted[2] == doctest::Approx(2e-6).epsilon(1e-12));
    CHECK(predicted[3] == doctest::Approx(1e-6).epsilon(1e-12));
    Measurement from_zero = m;
    from_zero.root = 0;
    CHECK(predict_candidates(from_zero, machine)[0] == doctest::Approx(1e-6).epsilon(1e-12));
    // Scored per collective, in the order of piccolo's collectives: bcast, then reduce.
    const AccuracyReport r = score_accuracy(m, predicted);
    REQUIRE(r.sizes.size() == 2);
    CHECK(r.sizes[0].collective == Collective::bcast);
    CHECK(r.sizes[1].collective == Collective::reduce);
    REQUIRE(r.geomean_by_collective.size() == 2);
    CHECK(r.sizes[0].captured == 1);  // knomial measured and predicted best
    CHECK(r.sizes[1].captured == doctest::Approx(4.0 / 5.0).epsilon(1e-15));  // binomial best
}

TEST_CASE("a measurement's root outside its ranks is refused in one line") {
    const std::string text =
        "# ranks: 4\n# root: 4\ncollective,algorithm,k,style,bytes,median_s,ci_low_s,ci_high_s,"
        "runs\nbcast,binomial,0,mpi,8,1e-6,1e-6,1e-6,10\n";
    CHECK_THROWS_WITH_AS(parse_measurement(text, "m.csv"),
                         "m.csv: root: rank 4 is not one of the 4 ranks (use 0..3)", InputError);
}
