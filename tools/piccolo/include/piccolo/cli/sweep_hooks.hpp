#pragma once
// How `select` and `compare` run their sweeps when another program embeds the commands:
// piccolo-mpi (tools/piccolo_mpi) runs them in every MPI rank, each rank's sweep handing its jobs
// to a runner that spreads them over the ranks, and only one rank writes.

namespace piccolo {
class JobRunner;
}

namespace piccolo::cli {

struct SweepHooks {
    JobRunner* runner = nullptr;  // where the sweeps' jobs run; null: in this process
    // This process writes the outputs and prints notes, details and progress; a helper (false)
    // only runs its share of the jobs, and checks no output file (the writer does).
    bool writes = true;
};

}  // namespace piccolo::cli
