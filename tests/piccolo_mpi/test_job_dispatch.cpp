// Rank 0's handout of jobs (tools/piccolo_mpi/job_dispatch.hpp), without MPI: hand-worked
// sequences of requests.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "job_dispatch.hpp"

using piccolo::mpi_sweep::JobDispatch;

TEST_CASE("dispatch: jobs go out in the batch's order to ranks with room for any") {
    const std::vector<std::uint64_t> estimates{50, 40, 30};
    JobDispatch dispatch(estimates);
    CHECK(dispatch.next(JobDispatch::any_size) == 0);
    CHECK(dispatch.next(JobDispatch::any_size) == 1);
    CHECK(dispatch.next(JobDispatch::any_size) == 2);
    CHECK(dispatch.next(JobDispatch::any_size) == JobDispatch::no_more);
    CHECK(dispatch.next(0) == JobDispatch::no_more);
}

TEST_CASE("dispatch: a job too large for the room is passed over, and handed out later") {
    // Budget 100 per rank. Rank A (empty) takes job 0 (70): room 30. Rank A asks again: job 1
    // (60) does not fit, job 2 (25) does. Rank A (room 5) then finds none; rank B (empty) takes
    // job 1; rank A, its job 0 ended (room 75), takes job 3 (40); then none are left.
    const std::vector<std::uint64_t> estimates{70, 60, 25, 40};
    JobDispatch dispatch(estimates);
    CHECK(dispatch.next(JobDispatch::any_size) == 0);
    CHECK(dispatch.next(30) == 2);
    CHECK(dispatch.next(5) == JobDispatch::none_fits);
    CHECK(dispatch.next(JobDispatch::any_size) == 1);
    CHECK(dispatch.next(75) == 3);
    CHECK(dispatch.next(75) == JobDispatch::no_more);
}

TEST_CASE("dispatch: a job larger than any room still goes to a rank that holds none") {
    const std::vector<std::uint64_t> estimates{1000, 10};
    JobDispatch dispatch(estimates);
    CHECK(dispatch.next(100) == 1);
    CHECK(dispatch.next(90) == JobDispatch::none_fits);
    CHECK(dispatch.next(JobDispatch::any_size) == 0);
    CHECK(dispatch.next(JobDispatch::any_size) == JobDispatch::no_more);
}

TEST_CASE("dispatch: an empty batch has no job") {
    JobDispatch dispatch(std::vector<std::uint64_t>{});
    CHECK(dispatch.next(JobDispatch::any_size) == JobDispatch::no_more);
}
