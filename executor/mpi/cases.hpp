#pragma once
// One case of piccolo-run-mpi: a schedule (or the MPI library's own collective) compiled,
// checked and timed on every rank.

#include <mpi.h>

#include <string>

#include "options.hpp"
#include "piccolo/schedules/schedule.hpp"
#include "report.hpp"
#include "sweep.hpp"

namespace piccolo::exec {

// Collective. Throws RankError on every rank if any rank's plan fails to compile or its result
// is wrong.
Row run_schedule(const Context& context, const Schedule& schedule, const RunOptions& options);
Row run_reference(const Context& context, Collective collective, std::uint64_t bytes,
                  const RunOptions& options);

}  // namespace piccolo::exec
