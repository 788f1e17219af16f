#pragma once
// A job of the sweep (select.cpp): one distinct DAG and what its job did, and the steps on
// jobs between simulating and ranking (select_jobs.cpp).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "piccolo/schedules/task_count.hpp"
#include "piccolo/select/select_fingerprint.hpp"
#include "select_sweep.hpp"
#include "select_symmetric.hpp"

namespace piccolo::detail {

// One distinct DAG of the sweep: the first candidate, in (collective, p, algorithm, k) order, of
// a dag_identity(). Its index is the schedule index of the Sweep.
struct Job {
    std::size_t collective = 0, p_index = 0, algorithm = 0;
    int k = 0;
    TaskCounts counts;
    std::uint64_t estimate = 0;  // peak bytes of its job
    std::uint64_t runs = 0;      // simulations: (scale, size) points it runs at
    std::uint64_t work = 0;      // tasks its simulations replay, summed
    // Through quotients (docs/symmetry.md) when symmetry.representatives > 0; the full DAG is
    // then built too only for the sizes the quotient does not cover, when `full_too`.
    SymmetryChoice symmetry;
    bool full_too = false;
    // Simulated after every other job, only where its lower bound allows (bound_min_tasks):
    // stage 1 (scouts: the smallest bound of their collective, p and algorithm somewhere), then
    // stage 2 (the lighter half of the rest, by tasks) against the thresholds the scouts
    // tighten, then stage 3 (the heavier half) against those stage 2 tightens; the plain jobs
    // are stage 0.
    bool bounded = false;
    bool scouted = false;  // bounded, and no plain job of its algorithm shares its c and p
    int stage = 0;
    std::uint64_t bounded_runs = 0, bounded_work = 0;  // simulations the bound left out
    std::uint64_t stopped_runs = 0;  // simulations stopped once past what mattered
    TimingHash hash;                 // set by its job
    bool hashed = false;             // `hash` is set
    std::string error;               // generate() refused it, or it was left out: no times
    bool left_out = false;           // more than the memory budget, for default k only
    double generate_seconds = 0, bound_seconds = 0, simulate_seconds = 0;
};

// Could the two jobs be one DAG? Task counts are exact (count_tasks()) and equal for equal
// DAGs, so jobs whose counts differ are surely different, known before either is generated;
// jobs with equal counts are the same DAG only where their timing hashes are equal too.
inline bool same_task_counts(const Job& a, const Job& b) {
    return a.counts.transfers == b.counts.transfers && a.counts.computes == b.counts.computes;
}

// Marks the bounded jobs `scouted` whose (collective, p, algorithm) has no plain job of its own
// (a plain job of another algorithm, such as rd's DAG for rm with k = 2, times only that k): the
// plain stage sets no threshold near their times (at 75,264 ranks every rm and prm DAG is
// bounded), so their bounds are computed first and scouts picked from them. Returns whether any.
bool mark_scouted(const Sweep& sweep, std::span<Job> jobs);

// Marks as stage 1 every scouted job whose lower bound is the smallest of the scouted jobs of
// its collective, p and algorithm at some point (`prebounds`: [job][scale][size], NaN where it
// was not computed); the other bounded jobs stay in stage 2.
void mark_scouts(const Sweep& sweep, std::span<Job> jobs, std::span<const double> prebounds);

// The best time simulated so far (by jobs of an earlier stage) of every algorithm job u is a
// candidate of, times 1 + 3 x the tolerance; the largest over those algorithms (infinity where
// one has none). With `alone` (alone_jobs()), only the times of jobs marked there count.
// A bound needs computing in full only up to the value without `alone`: below it, the ranking
// reads its value (whether a left-out k might be its algorithm's best). Above the value with
// `alone`, u is not its algorithms' best k, and not the runner-up (docs/bounds.md).
double own_best(const Sweep& sweep, std::span<const Job> jobs, std::size_t u, std::size_t scale,
                std::size_t z, std::span<const char> alone = {});

// Per job: is its DAG surely different from every DAG of another algorithm of its collective
// and p (task counts different, or timing hashes known and different; jobs that failed or were
// left out never merge)? Then its time, as an algorithm's best so far, is one the runner-up
// cannot be slower than unless that algorithm wins. Unhashed jobs (not generated yet) are not
// marked, and mark no other job with their task counts.
std::vector<char> alone_jobs(const Sweep& sweep, std::span<const Job> jobs);

// The bytes the jobs may hold at once: the budget (the request's, else default_memory_budget())
// less what the process holds already. A job whose job alone would not fit is refused before
// anything starts (InputError naming it, its estimate and the options that help), or left out
// (`left_out`, with `error` saying why) where only default k of k-ring, rm or prm stand for it.
std::uint64_t job_budget(const Sweep& sweep, std::span<Job> jobs, const SelectRequest& request);

// One note per (collective, p, algorithm) some of whose k were left out for memory: which k, and
// the largest estimate among them.
std::vector<std::string> left_out_notes(const Sweep& sweep, std::span<const Job> jobs);

// A job whose task counts, DAG hashes, rounds and times equal an earlier job's of the same
// collective and p is that DAG (ring and k-ring with k = p, ...): its candidates take the
// earlier index, as the ranking's "same schedule" rules expect. Failed jobs lose their
// candidates. Returns the number of distinct schedules.
std::size_t merge_identical(Sweep& sweep, std::span<const Job> jobs);

// The `count` jobs whose jobs took the most thread time, costliest first (--verbose).
std::vector<JobCost> costliest_jobs(const Sweep& sweep, std::span<const Job> jobs,
                                    std::size_t count);

}  // namespace piccolo::detail
