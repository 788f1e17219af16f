#pragma once
// piccolo-run-nccl's cases: a schedule run by NcclRunner, or NCCL's own ncclAllGather /
// ncclAllReduce as the reference row, each checked byte for byte and timed like the MPI cases.

#include <cstdint>

#include "nccl_runner.hpp"
#include "options.hpp"
#include "report.hpp"
#include "sweep.hpp"

namespace piccolo::exec {

Row run_nccl_schedule(const Context& context, const NcclSession& session, const Schedule& schedule,
                      const RunOptions& options);
Row run_nccl_reference(const Context& context, const NcclSession& session, Collective collective,
                       std::uint64_t bytes, const RunOptions& options);

}  // namespace piccolo::exec
