#pragma once
// Open MPI's own choice of algorithm for Allgather and Allreduce when no rules file names one:
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
    // piccolo's algorithm that runs the same schedule at this p ("ring", "rd", or "bruck" with
    // k = 2), or nullopt where piccolo does not model what Open MPI runs (neighbor exchange,
    // segmented ring, Rabenseifner, ...).
    std::optional<std::string_view> piccolo;
};

// Open MPI 4.1's choice for `ranks` ranks and `bytes` (Allgather: the per-rank contribution;
// Allreduce: the vector, with a commutative operation such as MPI_SUM).
Decision fixed_decision(Collective collective, int ranks, std::uint64_t bytes);

// The coll_tuned algorithm that runs piccolo's `algorithm` with radix k (ignored by algorithms
// without one) at `ranks` ranks, with its name, or nullopt where Open MPI has none (k-ring, rm,
// prd, prm; bruck with k > 2; rd Allgather at p not a power of two, which Open MPI runs as Bruck).
std::optional<Decision> runs_as(Collective collective, std::string_view algorithm, int k,
                                int ranks);

}  // namespace piccolo::ompi
