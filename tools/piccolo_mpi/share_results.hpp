#pragma once
// The end of a batch on every rank: each rank's job results to every other rank, loaded there
// through JobBatch::load, and the work the other ranks did since they last reported it added to
// rank 0's progress.

#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "piccolo/select/sweep_jobs.hpp"

namespace piccolo::mpi_sweep {

using JobResult = std::pair<std::size_t, std::string>;  // job index, JobBatch::save's bytes

// Waits (sleeping, not spinning) until every rank arrives, then exchanges. `unreported`: this
// rank's progress not yet sent to rank 0. Throws std::runtime_error where a job's result is
// missing or came twice.
void share_results(MPI_Comm comm, const JobBatch& batch, const std::vector<JobResult>& mine,
                   std::uint64_t unreported);

// Sleeps until `request` completes.
void wait_quietly(MPI_Request& request);

}  // namespace piccolo::mpi_sweep
