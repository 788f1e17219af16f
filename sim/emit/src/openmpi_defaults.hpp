#pragma once
// Open MPI's own choice of algorithm for Allgather, Allreduce, Bcast, Reduce, Reduce_scatter_block
// and Alltoall when no rules file names one:
// the fixed decision of coll_tuned (openmpi_defaults.cpp says where it comes from). The rules
// file keeps that choice wherever piccolo cannot show a better one.

#include <cstdint>
#include <optional>
#include <string_view>

#include "piccolo/schedules/generate.hpp"

namespace piccolo::ompi {

struct Decision {
    int algorithm = 0;      // coll_tuned's algorithm number
    std::string_view name;  // coll_tuned's name for it
    // piccolo's algorithm that runs the same schedule at this p ("ring", "rd", "bruck" with
    // k = 2, "knomial" with k = 4, "scatter-rd", "scatter-ring", "binomial", "rh", "pairwise",
    // "rabenseifner" at p a power of 2), or nullopt where piccolo does not model what Open MPI
    // runs (neighbor exchange, segmented ring, Allreduce's Rabenseifner, chain, ...).
    std::optional<std::string_view> piccolo;
    int k = 0;  // > 0: piccolo's radix of it (bruck 2, knomial 4)
};

// coll_tuned's collective id in a rules file (COLLTYPE, ompi/mca/coll/base/coll_base_functions.h
// at v4.1.4): allgather 0, allreduce 2, alltoall 3, bcast 7, reduce 11, reduce_scatter_block 13.
int collective_id(Collective collective);

// The radix of Open MPI's knomial Bcast (7): the MCA parameter
// coll_tuned_bcast_algorithm_knomial_radix, default 4 (coll_tuned_bcast_decision.c, v4.1.4); a
// rules file cannot set it, so the file is written for the default.
constexpr int bcast_knomial_radix = 4;

// Open MPI 4.1's choice for `ranks` ranks and `bytes` (piccolo's size: Allgather the per-rank
// contribution, Allreduce the vector, Bcast and Reduce the buffer, Reduce_scatter the block,
// Alltoall the block sent to each rank; reductions with a commutative operation such as MPI_SUM).
Decision fixed_decision(Collective collective, int ranks, std::uint64_t bytes);

// The coll_tuned algorithm that runs piccolo's `algorithm` with radix k (ignored by algorithms
// without one) at `ranks` ranks, with its name, or nullopt where Open MPI has none (k-ring, rm,
// prd, prm; bruck with k > 2; rd Allgather at p not a power of two, which Open MPI runs as Bruck;
// binomial Bcast, whose tree Open MPI numbers differently; knomial Bcast with k other than 4;
// rabenseifner Reduce at p not a power of 2, whose fold-in Open MPI does otherwise; scattered
// Alltoall; pairwise Reduce_scatter; recexch Reduce_scatter with k > 2; pairwise Alltoall at p a
// power of 2 above 2).
std::optional<Decision> runs_as(Collective collective, std::string_view algorithm, int k,
                                int ranks);

}  // namespace piccolo::ompi
