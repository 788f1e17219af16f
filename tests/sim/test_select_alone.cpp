// Which of the sweep's DAGs are surely different from every DAG of another algorithm
// (alone_jobs, docs/bounds.md): a job's best time limits its algorithm's other k only then.
// Task counts are exact, so a later stage's job, not generated yet, is another DAG where its
// counts differ; merge_identical never merges jobs whose counts differ.
#include <doctest/doctest.h>

#include <cmath>

#include "select_job.hpp"

using namespace piccolo;
using namespace piccolo::detail;

namespace {

// One collective at one p, two algorithms (a = 0 and a = 1) with one candidate each: job 0 of
// algorithm 0, job 1 of algorithm 1, one point each.
struct TwoJobs {
    Sweep sweep;
    std::vector<Job> jobs{2};

    TwoJobs() {
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
            jobs[u].algorithm = u;
            jobs[u].k = 4;
            jobs[u].counts.transfers = 48;
        }
        jobs[0].hashed = true;
        jobs[0].hash = {11, 12};
    }
};

}  // namespace

TEST_CASE("alone jobs: a job not generated yet stands for another DAG only with its counts") {
    TwoJobs two;
    two.jobs[1].counts.transfers = 64;  // not hashed: a later stage's job
    CHECK(alone_jobs(two.sweep, two.jobs) == std::vector<char>{1, 0});
    two.jobs[1].counts.transfers = 48;  // the same counts: it may yet be job 0's DAG
    CHECK(alone_jobs(two.sweep, two.jobs) == std::vector<char>{0, 0});
    two.jobs[1].counts.computes = 16;  // computes count too
    CHECK(alone_jobs(two.sweep, two.jobs) == std::vector<char>{1, 0});
}

TEST_CASE("alone jobs: generated jobs with equal counts differ by their timing hashes") {
    TwoJobs two;
    two.jobs[1].hashed = true;
    two.jobs[1].hash = {11, 13};
    CHECK(alone_jobs(two.sweep, two.jobs) == std::vector<char>{1, 1});
    two.jobs[1].hash = {11, 12};
    CHECK(alone_jobs(two.sweep, two.jobs) == std::vector<char>{0, 0});
    two.jobs[1].error = "left out";  // never merged: it stands for no DAG
    CHECK(alone_jobs(two.sweep, two.jobs) == std::vector<char>{1, 0});
}

TEST_CASE("merge_identical: equal hashes, rounds and times merge only with equal task counts") {
    TwoJobs two;
    two.jobs[1].hashed = true;
    two.jobs[1].hash = two.jobs[0].hash;
    two.jobs[1].counts.transfers = 64;
    Sweep apart = two.sweep;
    CHECK(merge_identical(apart, two.jobs) == 2);
    CHECK(apart.sets[1].candidates.at(0).schedule == 1);
    two.jobs[1].counts.transfers = 48;
    Sweep merged = two.sweep;
    CHECK(merge_identical(merged, two.jobs) == 1);
    CHECK(merged.sets[1].candidates.at(0).schedule == 0);
}
