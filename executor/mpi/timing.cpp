#include "timing.hpp"

namespace piccolo::exec {

namespace {

// One run on every rank; returns {slowest rank's seconds, highest failing rank or -1, seconds
// since `series_start` on the slowest clock}. The same numbers on every rank, so that every
// rank takes the same decision to go on or stop.
struct RunOutcome {
    double seconds = 0;
    int failed_rank = -1;
    double elapsed = 0;
};

RunOutcome run_once(MPI_Comm comm, const TimedOperation& op, double series_start, int rank,
                    std::optional<std::string>& failure) {
    op.prepare();
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    op.run();
    const double seconds = MPI_Wtime() - start;
    failure = op.check();
    double local[3] = {seconds, failure ? static_cast<double>(rank) : -1.0,
                       MPI_Wtime() - series_start};
    double global[3] = {};
    MPI_Allreduce(local, global, 3, MPI_DOUBLE, MPI_MAX, comm);
    return {global[0], static_cast<int>(global[1]), global[2]};
}

}  // namespace

Timing time_operation(MPI_Comm comm, const TimingSettings& settings, const TimedOperation& op) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const double series_start = MPI_Wtime();
    std::vector<double> samples;
    Timing timing;
    for (int i = -settings.warmup; i < settings.max_runs; ++i) {
        std::optional<std::string> failure;
        const RunOutcome outcome = run_once(comm, op, series_start, rank, failure);
        if (outcome.failed_rank >= 0)
            throw WrongResult(outcome.failed_rank, failure.value_or(std::string()));
        if (i < 0) continue;
        samples.push_back(outcome.seconds);
        if (static_cast<int>(samples.size()) < settings.min_runs) continue;
        timing.summary = profiler::summarize(samples);
        if (timing.summary.relative_ci_half_width() <= settings.target_ci ||
            outcome.elapsed > settings.budget_s)
            break;
    }
    timing.runs = static_cast<int>(samples.size());
    if (timing.runs > 0) timing.summary = profiler::summarize(samples);
    return timing;
}

}  // namespace piccolo::exec
