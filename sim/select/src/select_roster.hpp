#pragma once
// Step 1 of a sweep (select.cpp), serially and without generating anything: the scales and
// their layouts, and every candidate (collective, p, algorithm, k) mapped to a job, one per
// distinct DAG (dag_identity(): rm/prm with k = 2048..4095 at p = 4096 factor into the same
// rounds), with its exact task count, how it runs (in full or through the symmetry reduction,
// bounded or not) and an estimate of the memory its job needs at its peak (count_tasks(),
// estimate_job_bytes()).

#include <cstdint>
#include <string>
#include <vector>

#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/task_count.hpp"
#include "piccolo/select/select.hpp"
#include "select_job.hpp"

namespace piccolo::detail {

struct SweepRoster {
    Sweep sweep;  // axes and candidate sets; times and bounds not yet allocated
    std::vector<Job> jobs;
    std::vector<RankLayout> layouts;          // one per scale
    std::vector<std::string> notes;           // skipped scales, sizes no replay covers
    std::vector<std::string> engine_choices;  // how each large candidate runs (verbose output)
    std::uint64_t candidates = 0;
};

// Checks the request's axes (an InputError naming the option) and lists every job.
SweepRoster make_roster(const SelectRequest& request);

// The request that generates the DAG of job (collective c, p, algorithm a, k) at a template size.
GenerateRequest template_request(const Sweep& sweep, const SelectRequest& request, std::size_t c,
                                 std::size_t p, std::size_t a, int k);

// Does a schedule of these counts (its pieces and cut) on p ranks run at `bytes`?
// set_message_size() cuts an Allreduce, Bcast or Reduce buffer into segments of at least one
// byte, and a ceil cut (scatter-rd, scatter-ring) only where it has as many segments that hold
// bytes (CollectiveShape::cuts_at: every size above p (p - 1), every multiple of p; below, the
// DAG leaves out the empty chunks' messages and differs); blocks (Allgather, Alltoall) and
// Reduce_scatter's segments are `bytes` each at every size.
inline bool runs_at(const TaskCounts& counts, Collective c, Rank p, std::uint64_t bytes) {
    return CollectiveShape{c, p, bytes, counts.pieces, 0, counts.cut}.cuts_at(bytes);
}

// A buffer cut into segments (Allreduce, Bcast, Reduce) is resized by its payload, pieces of
// `bytes` each (Allgather, Reduce_scatter, Alltoall) without it.
inline bool resize_by_payload(Collective c) {
    return !pieces_follow_ranks(c);
}

}  // namespace piccolo::detail
