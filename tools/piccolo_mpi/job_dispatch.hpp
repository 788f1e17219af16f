#pragma once
// Rank 0's handout of a batch's jobs (no MPI): the next job for a rank that asks, in the batch's
// order (largest first), passing over a job that does not fit the asking rank's free budget for
// the next one that does, as BudgetedRunner (sim/select/src/select_memory.hpp) does for one process.

#include <cstdint>
#include <span>
#include <vector>

namespace piccolo::mpi_sweep {

class JobDispatch {
  public:
    static constexpr std::int64_t none_fits = -1;  // jobs are left, none fits the room given
    static constexpr std::int64_t no_more = -2;    // every job was handed out
    // A rank that holds no job takes any: a job larger than its budget still runs, alone.
    static constexpr std::uint64_t any_size = UINT64_MAX;

    explicit JobDispatch(std::span<const std::uint64_t> estimates)
        : estimates_(estimates.begin(), estimates.end()), handed_(estimates.size(), false) {}

    // The first job not handed out whose estimate is at most `room` bytes, now handed out;
    // none_fits or no_more.
    std::int64_t next(std::uint64_t room);

  private:
    std::vector<std::uint64_t> estimates_;
    std::vector<bool> handed_;
    std::size_t first_left_ = 0;  // every job before it was handed out
};

}  // namespace piccolo::mpi_sweep
