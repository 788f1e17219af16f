#pragma once
// One case of piccolo-run-mpi: a schedule (or the MPI library's own collective) compiled,
// checked and timed on every rank.

#include <mpi.h>

#include <stdexcept>
#include <string>

#include "options.hpp"
#include "piccolo/schedule.hpp"
#include "report.hpp"

namespace piccolo::exec {

// An error found on one rank that ends the program on all of them: `rank` holds the message,
// `status` is the exit status (1: wrong result, 2: input the user can fix).
class RankError : public std::runtime_error {
  public:
    RankError(int rank, int status, std::string message)
        : std::runtime_error(std::move(message)), rank(rank), status(status) {}
    int rank;
    int status;
};

struct Context {
    MPI_Comm comm = MPI_COMM_NULL;
    int rank = 0;
    int size = 0;
};

// Collective. Throws RankError on every rank if any rank's plan fails to compile or its result
// is wrong.
Row run_schedule(const Context& context, const Schedule& schedule, const RunOptions& options);
Row run_reference(const Context& context, Collective collective, std::uint64_t bytes,
                  const RunOptions& options);

}  // namespace piccolo::exec
