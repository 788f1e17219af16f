#pragma once
// Where a sweep's jobs run. select() runs its jobs in batches (one per stage of the sweep: the
// plain jobs, then the bounded ones stage by stage, docs/bounds.md); every process that takes
// part runs the same select() and so holds the same batches. By default a batch runs on the
// process's threads under its memory budget (BudgetedRunner); a JobRunner set in the
// SelectRequest may instead run some jobs here and have the others' results brought from other
// processes (piccolo-mpi, docs/distributed.md). select() knows no transport: a job's result is a
// byte string this build's save() writes and load() reads.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace piccolo {

class SweepProgress;

// One batch: jobs 0..estimates.size()-1, largest first (the order to start them in).
struct JobBatch {
    std::vector<std::uint64_t> estimates;  // per job, peak bytes (select_memory.hpp)
    std::uint64_t budget = 0;              // bytes the jobs of this process may hold at once
    int threads = 1;                       // jobs this process runs at once, at most
    SweepProgress* progress = nullptr;     // this process's, or null
    std::function<void(std::size_t)> run;  // runs job i in this process (any thread)
    // Job i's result, once run() returned here; and the same result, saved by another process
    // that ran job i, written into this one's sweep (serially, after the batch's jobs ended).
    std::function<std::string(std::size_t)> save;
    std::function<void(std::size_t, std::string_view)> load;
};

// What running a batch took in this process, for SweepStats.
struct JobBatchStats {
    std::uint64_t peak_estimate = 0;  // the most the running jobs' estimates added up to
    std::uint64_t delayed = 0;        // times a free thread waited because the budget was taken
};

class JobRunner {
  public:
    JobRunner() = default;
    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;
    virtual ~JobRunner() = default;
    // On return every job of the batch was run here or loaded here; an exception ends the sweep.
    virtual JobBatchStats run(const JobBatch& batch) = 0;
};

}  // namespace piccolo
