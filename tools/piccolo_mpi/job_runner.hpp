#pragma once
// The distributed JobRunner (piccolo/sweep_jobs.hpp) of piccolo-mpi: every rank runs the same
// sweep, and each batch's jobs are spread over the ranks. Rank 0 hands out job indices, largest
// first, as ranks ask for them (JobDispatch); each rank runs its jobs on its own threads under
// its own memory budget; once every job has ended, every rank receives every other rank's
// results (share_results.hpp), so that all go on to the next batch holding the same sweep.
//
// One thread per rank talks MPI during a batch (the rank's job threads never do), and the rank's
// main thread after it: MPI_THREAD_SERIALIZED is enough. Waiting ranks poll with a sleep
// instead of blocking in MPI, whose implementations spin and would take a core from the jobs.

#include <mpi.h>

#include "piccolo/select/sweep_jobs.hpp"

namespace piccolo::mpi_sweep {

class MpiJobRunner final : public JobRunner {
  public:
    // Works on its own duplicate of `world`, so that no message of another layer mixes in.
    explicit MpiJobRunner(MPI_Comm world);
    ~MpiJobRunner() override;
    JobBatchStats run(const JobBatch& batch) override;
    [[nodiscard]] int rank() const { return rank_; }
    [[nodiscard]] int size() const { return size_; }

  private:
    // Throws std::runtime_error on every rank where the ranks' batches differ (their memory
    // budgets left out different candidates).
    void check_same_batch(const JobBatch& batch) const;

    MPI_Comm comm_ = MPI_COMM_NULL;
    int rank_ = 0, size_ = 1;
    // Test hook: the rank named by PICCOLO_MPI_TEST_KILL_RANK kills itself (SIGKILL) once its
    // first job has ended, so that tests can check how a run ends when a rank dies.
    bool killed_after_first_job_ = false;
};

}  // namespace piccolo::mpi_sweep
