#pragma once
// What every piccolo executor program does around its transport: MPI start-up, the header of the
// run (hosts, nodes, library, date), the sweep over the candidates (or a schedule file), the
// outputs, and the exit status. piccolo-run-mpi and piccolo-run-nccl differ only in the Backend.

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include "options.hpp"
#include "piccolo/executor/plan.hpp"
#include "piccolo/schedules/schedule.hpp"
#include "report.hpp"
#include "timing.hpp"

namespace piccolo::exec {

struct Context {
    MPI_Comm comm = MPI_COMM_NULL;
    int rank = 0;
    int size = 0;
};

// An error found on one rank that ends the program on all of them: `rank` holds the message,
// `status` is the exit status (1: wrong result, 2: input the user can fix).
class RankError : public std::runtime_error {
  public:
    RankError(int rank, int status, std::string message)
        : std::runtime_error(std::move(message)), rank(rank), status(status) {}
    int rank;
    int status;
};

struct Backend {
    std::string library;  // what the header names as the library, e.g. "Open MPI v4.1.4"
    // Collective: compile, check and time one schedule / the library's own collective. Throw
    // RankError on every rank, or InputError on every rank.
    std::function<Row(const Schedule&)> run_schedule;
    std::function<Row(Collective, std::uint64_t)> run_reference;
};

// The whole program after MPI_Init: parses the options, makes the backend (collective; may throw
// InputError on every rank), runs the sweep, writes the outputs on rank 0. Returns the status.
int run_executor(int argc, char** argv, const RunHeader& identity,
                 const std::function<Backend(const Context&, const RunOptions&)>& make_backend);

// Helpers for a backend's cases. `step` runs on every rank; an InputError on any rank becomes a
// RankError on all of them, so that no rank goes on to wait for a partner that has stopped.
void agree(const Context& context, const std::function<void()>& step);
// time_operation, with a wrong result turned into a RankError (status 1).
Timing timed(const Context& context, const TimingSettings& settings, const TimedOperation& op);
void fill(Row& row, const Timing& timing);
// A schedule's row: its name, its timing by `op`, and the staging and dropped waits of every
// rank's plan (collective).
Row timed_schedule_row(const Context& context, const Schedule& schedule, const RankPlan& plan,
                       const TimingSettings& settings, const TimedOperation& op);
// Names the case in an error, so that a failure in a sweep says which schedule failed.
std::string case_label(const Schedule& s);

// The MPI library's version string up to its first comma ("Open MPI v4.1.4").
std::string mpi_library_version();

}  // namespace piccolo::exec
