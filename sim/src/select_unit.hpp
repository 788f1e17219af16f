#pragma once
// A unit of the sweep (select.cpp): one distinct DAG and what its job did, and the steps on
// units between simulating and ranking (select_units.cpp).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "piccolo/task_count.hpp"
#include "select_fingerprint.hpp"
#include "select_sweep.hpp"
#include "select_symmetric.hpp"

namespace piccolo::detail {

// One distinct DAG of the sweep: the first candidate, in (collective, p, algorithm, k) order, of
// a dag_identity(). Its index is the schedule index of the Sweep.
struct Unit {
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
    // Simulated after every other unit, only where its lower bound allows (bound_min_tasks).
    bool bounded = false;
    std::uint64_t bounded_runs = 0, bounded_work = 0;  // simulations the bound left out
    TimingHash hash;                                   // set by its job
    std::string error;      // generate() refused it, or it was left out: no times
    bool left_out = false;  // more than the memory budget, for default k only
    double generate_seconds = 0, simulate_seconds = 0;
};

// One note per (collective, p, algorithm) some of whose k were left out for memory: which k, and
// the largest estimate among them.
std::vector<std::string> left_out_notes(const Sweep& sweep, std::span<const Unit> units);

// A unit whose DAG hashes, rounds and times equal an earlier unit's of the same collective and p
// is that DAG (ring and k-ring with k = p, ...): its candidates take the earlier index, as the
// ranking's "same schedule" rules expect. Failed units lose their candidates. Returns the
// number of distinct schedules.
std::size_t merge_identical(Sweep& sweep, std::span<const Unit> units);

}  // namespace piccolo::detail
