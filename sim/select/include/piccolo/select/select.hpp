#pragma once
// The selector: sweeps (collective x algorithm x k x size x scale) through the engine in parallel
// (oneTBB), ranks the candidates and reports the best algorithm and k per point
// (docs/architecture.md, "Selector"). Output formats live in select_emit.hpp.
//
// Message size follows MPICH's count of each collective (selection_size_meaning()): per-rank contribution
// for Allgather, vector size for Allreduce (MPICH's avg_msg_size), the whole buffer for Bcast and
// Reduce (swept at root 0: MPICH's tuning keys have no root), the block each rank ends with for
// Reduce_scatter (MPI_Reduce_scatter_block's recvcount) and the block each rank sends each rank
// for Alltoall (MPI_Alltoall's sendcount).

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "piccolo/core/style.hpp"
#include "piccolo/schedules/schedule.hpp"
#include "piccolo/topologies/machine.hpp"

namespace piccolo {

class JobRunner;
struct AlgorithmInfo;

// One allocation: `nodes` nodes with `ranks_per_node` ranks each.
struct Scale {
    int nodes = 1;
    int ranks_per_node = 1;
    [[nodiscard]] int ranks() const { return nodes * ranks_per_node; }
    friend bool operator==(const Scale&, const Scale&) = default;
};

// Work done so far, for a progress bar polled by another thread. Work is counted in simulated tasks
// (transfers and computes), so the fraction tracks time, not the number of points.
class SweepProgress {
  public:
    void set_total(std::uint64_t work) { total_.store(work, std::memory_order_relaxed); }
    void add(std::uint64_t work) { done_.fetch_add(work, std::memory_order_relaxed); }
    [[nodiscard]] std::uint64_t done() const { return done_.load(std::memory_order_relaxed); }
    [[nodiscard]] double fraction() const {
        const auto total = total_.load(std::memory_order_relaxed);
        return total == 0 ? 0.0
                          : static_cast<double>(done_.load(std::memory_order_relaxed)) /
                                static_cast<double>(total);
    }
    // Asks a sweep under way to stop (from any thread): it starts no further job and no further
    // simulation of a job under way, then select() throws SweepCancelled. A replay already
    // running ends first: at most one replay's time per thread.
    void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
    [[nodiscard]] bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

  private:
    std::atomic<std::uint64_t> done_{0}, total_{0};
    std::atomic<bool> cancelled_{false};
};

// What select() (and compare(), which runs it per machine) throws once its progress is cancelled.
class SweepCancelled : public std::runtime_error {
  public:
    SweepCancelled() : std::runtime_error("the sweep was cancelled") {}
};

struct SelectRequest {
    Machine machine;
    // In the order to report; `piccolo select -c all` asks for every one (all_collectives).
    std::vector<Collective> collectives{Collective::allgather, Collective::allreduce};
    // Registry names in the order to report; empty = each collective's default candidates
    // (default_candidate()). A named algorithm is reported at every requested collective (where
    // it does not build one, as not run, saying so); one that builds none of them is refused.
    std::vector<std::string> algorithms;
    // Candidate k of the algorithms with a radix (those without run as they are); empty = each
    // one's swept_radices(). Refused where no swept algorithm has a radix (no_radix_message()).
    std::vector<int> radices;
    std::vector<std::uint64_t> sizes;     // bytes (sorted, duplicates dropped); empty = default
    std::vector<Scale> scales;            // empty = default_select_scales(machine)
    bool contention = true;
    Style style = Style::mpi;           // how the candidates synchronize their rounds
    int threads = 0;                    // 0 = every core oneTBB sees
    SweepProgress* progress = nullptr;  // optional
    // Where the jobs run (sweep_jobs.hpp); null: in this process, on `threads` threads.
    JobRunner* runner = nullptr;
    // Bytes the process may hold while it sweeps (its own resident set before the sweep
    // included); 0 = default_memory_budget(). Jobs run in parallel only while their estimates fit.
    std::uint64_t memory_budget = 0;
    // Candidates whose DAG has at least this many tasks run through the exact symmetry reduction
    // where it holds (docs/symmetry.md): the same times from a replay of the representatives'
    // tasks alone. Smaller DAGs are cheap in full. 0: every candidate it applies to.
    std::uint64_t symmetry_min_tasks = std::uint64_t{1} << 20;
    // Candidates of at least this many tasks that run in full (no symmetry) are simulated only
    // where they may matter: after every smaller candidate, at the sizes where their makespan
    // lower bound (lower_bound.hpp) does not show them slower than the best and the runner-up
    // found so far (docs/bounds.md). Best, runner-up and baseline are the same as when every
    // candidate runs; an algorithm whose best k is then not known is reported as not simulated.
    // 0: every candidate runs.
    std::uint64_t bound_min_tasks = std::uint64_t{1} << 17;
};

// Half of the memory available now (MemAvailable of /proc/meminfo, or what the process's memory
// cgroup still allows if that is less): the other half is left to the rest of the system and
// covers what the estimates miss.
std::uint64_t default_memory_budget();

// 8 B, 16 B, ..., 64 MiB.
std::vector<std::uint64_t> default_select_sizes();
// 1, 2, 4, ..., 64 nodes (at most as many as the machine holds) with the machine's devices per
// node (select() leaves out, with a note, scales of fewer than 2 ranks).
std::vector<Scale> default_select_scales(const Machine& machine);

// The two algorithms without a parameter that every speedup of Allgather and Allreduce is
// measured against.
inline constexpr const char* baseline_algorithms[] = {"ring", "rd"};

// The baseline of a collective: the algorithms without a parameter that its speedups are measured
// against, always simulated (the faster of them at each point). Allgather, Allreduce: ring and
// rd; Bcast, Reduce: binomial; Reduce_scatter, Alltoall: pairwise (MPICH's algorithm for long
// messages of both, v4.1.2).
std::span<const char* const> baseline_algorithms_of(Collective collective);

// The rank the rooted collectives (Bcast, Reduce) are swept at: MPICH's tuning keys have no root.
inline constexpr Rank select_root = 0;

// The collectives of a -c/--collective list: names of collectives, and "all" for every one
// (all_collectives: allgather, allreduce, bcast, reduce, reduce_scatter, alltoall); empty items
// are skipped. Throws InputError naming -c/--collective and the valid values.
std::vector<Collective> parse_select_collectives(const std::vector<std::string>& names);


// Ties. Predicted times within a relative 1e-9 of each other are equal: a difference below that
// is floating-point noise, not a prediction. Among equal candidates the choice follows a fixed
// preference, the same in every output: a baseline algorithm of the collective (ring, rd;
// binomial; pairwise) first, then fewer rounds (transfers on the schedule's longest dependency
// chain), then the smaller k, then the order of algorithms() (ring, k-ring, rd, rm, prd, prm,
// bruck, knomial, binomial, scatter-rd, scatter-ring, pairwise, scattered, rh, rabenseifner,
// recexch).
inline constexpr double equal_time_tolerance = 1e-9;

// One algorithm at one (collective, scale, size).
struct AlgorithmOutcome {
    std::string algorithm;
    bool has_radix = false;
    bool available = false;  // false: nothing of this algorithm could run here
    std::string skipped;     // why, when !available
    int k = 0;               // the best k (ties: see equal_time_tolerance); 0 without radix
    // Every other k whose schedule is identical to the best one's (e.g. rm with k = 5..7 factors
    // into the same rounds as k = 4 for p = 2^n); they take exactly the same time.
    std::vector<int> same_schedule_k;
    double time = 0;  // predicted makespan of the best k, seconds
    // Every simulated k with its time, by increasing k (empty without radix).
    std::vector<std::pair<int, double>> candidates;
};

// One (algorithm, k) candidate and its predicted time.
struct Choice {
    std::string algorithm;
    bool has_radix = false;
    int k = 0;  // 0 without radix
    double time = 0;
};

// The choice at one (collective, scale, size).
struct PointSelection {
    Collective collective = Collective::allgather;
    Scale scale;
    std::uint64_t bytes = 0;
    // In request order: the algorithms reported at this collective (SelectRequest::algorithms).
    std::vector<AlgorithmOutcome> algorithms;
    int best = -1;                             // index into algorithms; -1 when nothing could run
    // The fastest candidate of another algorithm that runs a different schedule (prd and prm
    // with k = 2 are one DAG under two names: not an alternative to each other).
    std::optional<Choice> runner_up;
    // The faster of the collective's baseline algorithms (baseline_algorithms_of(); always
    // simulated): "ring" or "rd", "binomial", "pairwise".
    std::string baseline;
    double baseline_time = 0;

    [[nodiscard]] const AlgorithmOutcome* best_outcome() const {
        return best < 0 ? nullptr : &algorithms[static_cast<std::size_t>(best)];
    }
    // baseline_time / best time (> 1: the selection beats ring and RD).
    [[nodiscard]] double speedup() const;
    // (runner-up time - best time) / best time; 0 without a runner-up.
    [[nodiscard]] double margin() const;
};

// One job of a sweep and what it cost (thread time), for --verbose: where a sweep's time went.
struct JobCost {
    std::string candidate;  // e.g. "allgather rm k = 49 at p = 75264"
    double generate_seconds = 0, bound_seconds = 0, simulate_seconds = 0;
    std::uint64_t simulations = 0, left_out = 0, stopped = 0;
    [[nodiscard]] double seconds() const {
        return generate_seconds + bound_seconds + simulate_seconds;
    }
};

// What a sweep cost, for benchmarks (no emitter prints it: output stays thread-independent).
struct SweepStats {
    std::uint64_t candidates = 0;          // (collective, p, algorithm, k) generated
    std::uint64_t distinct_schedules = 0;  // after sharing identical DAGs
    std::uint64_t simulations = 0;         // (schedule, scale, size) runs of the engine
    std::uint64_t simulated_tasks = 0;     // tasks replayed over all simulations
    std::uint64_t bounded = 0;  // simulations left out: a lower bound showed they cannot matter
    std::uint64_t bounded_tasks = 0;  // the tasks they would have replayed
    // Simulations (counted above) stopped once their time passed what mattered: the threshold
    // and their algorithm's best so far (docs/bounds.md); left out as a bound leaves them out.
    std::uint64_t stopped = 0;
    double generate_seconds = 0;      // generating DAGs, summed over jobs (thread time)
    double bound_seconds = 0;         // computing their lower bounds (docs/bounds.md), likewise
    double simulate_seconds = 0;      // simulating them (resizing included), likewise
    std::uint64_t memory_budget = 0;  // bytes the jobs could hold at once
    std::uint64_t memory_peak_estimate = 0;  // the most the running jobs' estimates added up to
    std::uint64_t memory_waits = 0;  // times a free thread waited because the budget was taken
    std::vector<JobCost> costliest;  // the jobs that took the most thread time, costliest first
};

struct SelectResult {
    std::string machine;  // machine name
    Style style = Style::mpi;
    bool contention = true;
    std::vector<Collective> collectives;
    std::vector<std::string> algorithms;  // every algorithm reported at some collective
    std::vector<Scale> scales;
    std::vector<std::uint64_t> sizes;
    // Every (collective, scale, size), in that nesting order: collective outermost.
    std::vector<PointSelection> points;
    // Things the user should know: scales left out, candidates that could not run.
    std::vector<std::string> notes;
    // For verbose output: how each candidate of at least symmetry_min_tasks tasks was replayed
    // (through the symmetry reduction, with its orbits, or in full, with the reason).
    std::vector<std::string> engine_choices;
    SweepStats stats;

    [[nodiscard]] const PointSelection& at(std::size_t collective, std::size_t scale,
                                           std::size_t size) const {
        return points[(collective * scales.size() + scale) * sizes.size() + size];
    }
};

// Validates the request (throws InputError with one line naming the option), simulates every
// candidate and ranks them. Deterministic: the result does not depend on `threads`.
SelectResult select(const SelectRequest& request);

// What a message size is for the collective in a selection: size_meaning() (schedule.hpp), at
// root 0 for the rooted ones ("buffer size at root 0": select_root).
std::string_view selection_size_meaning(Collective collective);

}  // namespace piccolo
