// Which of the sweep's DAGs are surely different from every DAG of another algorithm
// (alone_units, docs/bounds.md): a unit's best time limits its algorithm's other k only then.
// Task counts are exact, so a later stage's unit, not generated yet, is another DAG where its
// counts differ; merge_identical never merges units whose counts differ.
#include <doctest/doctest.h>

#include <cmath>

#include "select_unit.hpp"

using namespace piccolo;
using namespace piccolo::detail;

namespace {

// One collective at one p, two algorithms (a = 0 and a = 1) with one candidate each: unit 0 of
// algorithm 0, unit 1 of algorithm 1, one point each.
struct TwoUnits {
    Sweep sweep;
    std::vector<Unit> units{2};

    TwoUnits() {
        sweep.collectives = {Collective::allgather};
        sweep.algorithms = {{}, {}};
        sweep.scales = {{4, 4}};
        sweep.sizes = {1024};
        sweep.ranks = {16};
        sweep.sets = {{{{4, 0}}, {}}, {{{4, 1}}, {}}};
        sweep.rounds = {2, 2};
        sweep.times = {1e-3, 1e-3};
        sweep.bounds = {not_run, not_run};
        for (std::size_t u = 0; u < 2; ++u) {
            units[u].algorithm = u;
            units[u].k = 4;
            units[u].counts.transfers = 48;
        }
        units[0].hashed = true;
        units[0].hash = {11, 12};
    }
};

}  // namespace

TEST_CASE("alone units: a unit not generated yet stands for another DAG only with its counts") {
    TwoUnits two;
    two.units[1].counts.transfers = 64;  // not hashed: a later stage's unit
    CHECK(alone_units(two.sweep, two.units) == std::vector<char>{1, 0});
    two.units[1].counts.transfers = 48;  // the same counts: it may yet be unit 0's DAG
    CHECK(alone_units(two.sweep, two.units) == std::vector<char>{0, 0});
    two.units[1].counts.computes = 16;  // computes count too
    CHECK(alone_units(two.sweep, two.units) == std::vector<char>{1, 0});
}

TEST_CASE("alone units: generated units with equal counts differ by their timing hashes") {
    TwoUnits two;
    two.units[1].hashed = true;
    two.units[1].hash = {11, 13};
    CHECK(alone_units(two.sweep, two.units) == std::vector<char>{1, 1});
    two.units[1].hash = {11, 12};
    CHECK(alone_units(two.sweep, two.units) == std::vector<char>{0, 0});
    two.units[1].error = "left out";  // never merged: it stands for no DAG
    CHECK(alone_units(two.sweep, two.units) == std::vector<char>{1, 0});
}

TEST_CASE("merge_identical: equal hashes, rounds and times merge only with equal task counts") {
    TwoUnits two;
    two.units[1].hashed = true;
    two.units[1].hash = two.units[0].hash;
    two.units[1].counts.transfers = 64;
    Sweep apart = two.sweep;
    CHECK(merge_identical(apart, two.units) == 2);
    CHECK(apart.sets[1].candidates.at(0).schedule == 1);
    two.units[1].counts.transfers = 48;
    Sweep merged = two.sweep;
    CHECK(merge_identical(merged, two.units) == 1);
    CHECK(merged.sets[1].candidates.at(0).schedule == 0);
}
