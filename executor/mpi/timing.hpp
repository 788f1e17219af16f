#pragma once
// Timed repetitions of a collective operation, shared by the executor and its benchmark: warm-up,
// then runs that all ranks start together (barrier), each run's time being the slowest rank's;
// stops once the median's 95 % confidence interval is narrow enough (the profiler's statistics).

#include <mpi.h>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "piccolo/profiler/stats.hpp"

namespace piccolo::exec {

struct TimingSettings {
    int warmup = 3;
    int min_runs = 10;
    int max_runs = 1000;
    double target_ci = 0.02;  // relative half-width of the median's 95 % CI
    double budget_s = 2;      // per series, after min_runs
};

struct Timing {
    profiler::RobustSummary summary;
    int runs = 0;  // timed runs (warm-up excluded)
};

// A result that some rank found wrong; every rank throws it, and `rank` holds the message.
class WrongResult : public std::runtime_error {
  public:
    WrongResult(int rank, std::string message)
        : std::runtime_error(std::move(message)), rank(rank) {}
    int rank;
};

struct TimedOperation {
    std::function<void()> prepare;  // untimed, before each run (fresh inputs, poisoned buffers)
    std::function<void()> run;      // timed
    std::function<std::optional<std::string>()> check;  // untimed, after each run
};

// Collective over `comm`. Throws WrongResult on every rank after a run that failed its check on
// any rank (checks also run in warm-up).
Timing time_operation(MPI_Comm comm, const TimingSettings& settings, const TimedOperation& op);

}  // namespace piccolo::exec
