#pragma once
// A job's result as bytes (sweep_jobs.hpp): what run_job() or bound_job() (select.cpp) wrote
// for its job, so that a process that did not run the job can hold the same sweep. Bytes for
// processes of the same build on the same kind of machine: numbers are copied as they lie in
// memory (doubles bit for bit, NaN included).

#include <span>
#include <string>
#include <string_view>

#include "select_job.hpp"
#include "select_sweep.hpp"

namespace piccolo::detail {

// Job u's fields a job writes (error, hash, the counts of left-out and stopped simulations,
// its times), its rounds, and its slots of times, bounds and `prebounds` (the scouts' bounds;
// empty where not allocated), [scale][size] each.
std::string save_job_result(const Sweep& sweep, const Job& job, std::size_t u,
                            std::span<const double> prebounds);

// The same written back; throws std::runtime_error where the bytes do not fit this sweep.
void load_job_result(Sweep& sweep, Job& job, std::size_t u, std::span<double> prebounds,
                     std::string_view bytes);

}  // namespace piccolo::detail
