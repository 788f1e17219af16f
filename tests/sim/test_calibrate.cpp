// piccolo calibrate on measurements whose truth is known: times simulated on the laptop-mpi
// preset with its node latency x1.5, its node G x0.8 and its compute cost x2 stand for the
// measurement, and the fit on the unchanged preset must find those three factors, with training
// and held-out errors of 1. Then its refusals: noisy timings, too few cells, another layout; the
// cells' cache (each distinct schedule replayed once) and a report that does not depend on the
// number of threads.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <tuple>

#include "calibrate_cells.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/studies/calibrate.hpp"
#include "piccolo/topologies/machine_io.hpp"
#include "piccolo/topologies/machine_override.hpp"

using namespace piccolo;

namespace {

const std::string presets = std::string(PICCOLO_SOURCE_DIR) + "/configs/machines/";

// 4 ranks on one node: 4 algorithms x 5 sizes x 2 collectives = 40 cells, timed on `truth`.
Measurement measured_on(const Machine& truth) {
    Measurement m;
    m.origin = "truth.csv";
    m.ranks = 4, m.nodes = 1, m.ranks_per_node = 4;
    for (Collective c : {Collective::allgather, Collective::allreduce})
        for (std::uint64_t bytes : {64u, 1024u, 16384u, 262144u, 4194304u})
            for (const auto& [algorithm, k] :
                 std::initializer_list<std::pair<const char*, int>>{
                     {"ring", 0}, {"rd", 0}, {"k-ring", 2}, {"rm", 2}}) {
                MeasuredRow row;
                row.collective = c, row.algorithm = algorithm, row.k = k, row.style = "mpi";
                row.bytes = bytes, row.runs = 10;
                m.candidates.push_back(row);
            }
    const std::vector<double> times = predict_candidates(m, truth);
    for (std::size_t i = 0; i < times.size(); ++i) {
        MeasuredRow& row = m.candidates[i];
        row.median_s = row.ci_low_s = row.ci_high_s = times[i];
    }
    return m;
}

Machine scaled(const Machine& m) {
    std::vector<MachineOverride> o;
    for (const char* text : {"node.L*1.5", "node.o_s*1.5", "node.o_r*1.5", "node.g*1.5",
                             "node.G*0.8", "compute.reduce_per_byte*2",
                             "compute.copy_per_byte*2", "compute.permute_per_byte*2"})
        o.push_back(parse_override(text));
    return apply_overrides(m, o);
}

}  // namespace

TEST_CASE("calibrate finds the factors a measurement was made with, held out as well") {
    const Machine profile = load_machine(presets + "laptop-mpi.yaml");
    const Measurement m = measured_on(scaled(profile));
    const CalibrationReport r = calibrate(m, profile);
    REQUIRE(r.knobs.size() == 3);
    CHECK(r.knobs[0].name == "node.time");
    CHECK(r.knobs[1].name == "node.G");
    CHECK(r.knobs[2].name == "compute");
    CHECK(r.unexercised == std::vector<std::string>{"system.time", "system.G"});
    CHECK(r.cells == 40);
    CHECK(r.uncalibrated_error > 1.2);
    const double expected[] = {1.5, 0.8, 2.0};
    for (std::size_t i = 0; i < 3; ++i) CHECK(r.all.factors[i] == doctest::Approx(expected[i]).epsilon(1e-4));
    CHECK(r.all.training_error == doctest::Approx(1).epsilon(1e-5));
    // Four folds leave one algorithm out; two split the 5 sizes after the second (1 KiB). Every
    // fold sees enough to find the truth again.
    REQUIRE(r.by_algorithm.size() == 4);
    CHECK(r.by_algorithm[0].fold == "without ring");
    CHECK(r.by_algorithm[0].held_out_cells == 10);
    REQUIRE(r.by_size.size() == 2);
    CHECK(r.by_size[0].fold == "sizes up to 1 KiB");
    CHECK(r.by_size[0].training_cells == 16);
    CHECK(r.by_size[0].held_out_cells == 24);
    CHECK(r.held_out_by_algorithm == doctest::Approx(1).epsilon(1e-4));
    CHECK(r.held_out_by_size == doctest::Approx(1).epsilon(1e-3));
    CHECK(r.calibrated.name == "laptop-mpi-calibrated");
    const std::string yaml = calibrated_yaml(r, "piccolo calibrate ...");
    CHECK(yaml.find("# fitted: node.time x1.5000, node.G x0.8000, compute x2.0000") !=
          std::string::npos);
    // The calibrated machine predicts the measurement.
    const std::vector<double> again = predict_candidates(m, r.calibrated);
    for (std::size_t i = 0; i < again.size(); ++i)
        CHECK(again[i] == doctest::Approx(m.candidates[i].median_s).epsilon(1e-4));
}

TEST_CASE("calibrate refuses noisy timings unless forced, too few cells and another layout") {
    const Machine profile = load_machine(presets + "laptop-mpi.yaml");
    Measurement m = measured_on(scaled(profile));
    m.ranks_per_host = 4, m.cores_per_host = 2;
    CHECK_THROWS_WITH_AS(calibrate(m, profile),
                         "truth.csv: the timings are flagged noisy (4 ranks on a host with 2 "
                         "cores: ranks take turns on the cores (oversubscribed), so times "
                         "include waiting for a core); measure on an idle machine, or pass "
                         "--force to calibrate on them anyway",
                         InputError);
    CHECK(calibrate(m, profile, {true}).noise.size() == 1);

    Measurement few = measured_on(profile);
    few.candidates.resize(5);  // Allgather at 64 B and 1 KiB: no reduction, 2 knobs
    CHECK_THROWS_WITH_AS(calibrate(few, profile),
                         "truth.csv: 5 cells for 2 knobs: calibration needs at least 3 cells per "
                         "knob; measure more sizes or algorithms",
                         InputError);

    Measurement wide = measured_on(profile);
    wide.ranks = 16, wide.nodes = 2, wide.ranks_per_node = 8;  // laptop-mpi has one node
    CHECK_THROWS_AS(calibrate(wide, profile), InputError);
}

TEST_CASE("calibration cells: one replay per distinct schedule, predict_candidates' times") {
    const Machine profile = load_machine(presets + "laptop-mpi.yaml");
    Measurement m;
    m.origin = "cells.csv";
    m.ranks = 4, m.nodes = 1, m.ranks_per_node = 4;
    // ring and k-ring with k = p are the same DAG (select_fingerprint.hpp); so are rd and rm
    // with k = 2. A size of its own is another schedule.
    for (const auto& [algorithm, k, bytes] :
         std::initializer_list<std::tuple<const char*, int, std::uint64_t>>{
             {"ring", 0, 1024}, {"k-ring", 4, 1024}, {"ring", 0, 2048}, {"rd", 0, 1024},
             {"rm", 2, 1024}, {"k-ring", 2, 1024}}) {
        MeasuredRow row;
        row.collective = Collective::allgather, row.algorithm = algorithm, row.k = k;
        row.style = "mpi", row.bytes = bytes, row.runs = 10;
        m.candidates.push_back(row);
    }
    const detail::CalibrationCells cells(m, prices_reclaim(profile));
    CHECK(cells.distinct_schedules() == 4);
    const std::vector<double> expected = predict_candidates(m, profile);
    const std::vector<std::size_t> rows{5, 0, 1, 2, 3, 4};
    const std::vector<double> got = cells.predict(profile, rows);
    REQUIRE(got.size() == rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) CHECK(got[i] == expected[rows[i]]);
    CHECK(got[1] == got[2]);  // ring, k-ring with k = 4
    CHECK(got[4] == got[5]);  // rd, rm with k = 2
    CHECK(got[1] != got[3]);  // 1 KiB, 2 KiB
}

TEST_CASE("calibrate writes the same report with 1, 2 and every thread") {
    const Machine profile = load_machine(presets + "laptop-mpi.yaml");
    Measurement m = measured_on(scaled(profile));
    // Off the model by up to +-20 %, in a fixed pattern, so that no fit is exact.
    for (std::size_t i = 0; i < m.candidates.size(); ++i) {
        MeasuredRow& row = m.candidates[i];
        row.median_s *= 1 + 0.2 * std::sin(static_cast<double>(i) * 2.3);
        row.ci_low_s = row.ci_high_s = row.median_s;
    }
    auto text = [&](int threads) {
        const CalibrationReport r = calibrate(m, profile, {false, threads});
        std::string all = calibration_table(r) + calibrated_yaml(r, "piccolo calibrate");
        for (const CalibrationFit& f : r.by_algorithm)
            for (double x : f.factors) all += fmt::format(" {:a}", x);  // every bit
        for (const CalibrationFit& f : r.by_size)
            for (double x : f.factors) all += fmt::format(" {:a}", x);
        for (double x : r.all.factors) all += fmt::format(" {:a}", x);
        return all + fmt::format(" {:a} {:a}", r.held_out_by_algorithm, r.held_out_by_size);
    };
    const std::string one = text(1);
    CHECK(one.find("node.time") != std::string::npos);
    CHECK(text(2) == one);
    CHECK(text(0) == one);
}
