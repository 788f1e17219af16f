#pragma once
// What each MPICH release series offers a tuning file (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE):
// the Allgather, Allreduce, Bcast, Reduce, Reduce_scatter_block and Alltoall algorithms its reader
// knows, which take k, which piccolo algorithm each one runs, and the built-in defaults for every
// other collective. The facts and the source
// file and tag each came from are in mpich_versions.cpp.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "piccolo/schedules/schedule.hpp"

namespace piccolo::mpich {

// One MPICH algorithm that runs a piccolo algorithm.
struct Algorithm {
    std::string_view piccolo;   // "ring", "rd", "rm", "prd", "prm", "bruck", "knomial", ...
    std::string_view name;      // JSON name, MPIR_<Coll>_intra_...
    bool takes_k = false;       // the leaf carries "k=N" (piccolo's k)
    int fixed_k = 0;            // > 0: the leaf always carries this k (prd = halving with k = 2)
    bool power_of_two = false;  // MPICH runs it only when the communicator size is a power of 2
    bool commutative = false;   // only for commutative operations (Allreduce, Reduce_scatter)
    int only_k = 0;             // > 0: runs piccolo's algorithm with this k only (4.0's Bruck: 2)
    std::string_view fixed_param{};  // non-empty: a parameter key the leaf always carries, first
                                     // (Bcast tree: "tree_type=2" or "tree_type=knomial_2")
    bool non_blocking_param = false;  // the leaf carries "is_non_blocking=0|1" (Bcast tree, 4.2+)
    // Non-empty: MPICH asserts count >= pof2 and a built-in operation (coll_algorithms.txt:
    // "restrictions: size-ge-pof2, builtin-op"), so the leaf sits under "is_op_built_in=yes" and
    // "count=any" after "count<pow2", and this algorithm takes the other branches, as in MPICH's
    // own generic.json (Reduce's reduce_scatter_gather, binomial otherwise).
    std::string_view small_count_fallback{};
};

struct Version {
    std::string_view name;     // "4.0"
    std::string_view sources;  // the release tag whose sources the facts were read from
    std::span<const Algorithm> allgather;
    std::span<const Algorithm> allreduce;
    std::span<const Algorithm> bcast;
    std::span<const Algorithm> reduce;
    std::span<const Algorithm> reduce_scatter;  // MPI_Reduce_scatter_block
    std::span<const Algorithm> alltoall;
    // MPICH's built-in tuning (maint/tuning/coll/mpir/generic.json) without the allgather and
    // allreduce entries: one "collective=..." entry for every other collective (an emitted entry
    // replaces the built-in one of its collective).
    std::string_view defaults;
};

// Every known series, oldest first.
std::span<const Version> versions();
// Throws InputError naming --mpich-version and the known series.
const Version& version(std::string_view name);
// "4.0.2" -> "4.0": the series of a full release number; empty when it is not one we know.
std::string series_of(std::string_view release);

// The algorithms of one collective that this version's tuning file can name.
std::span<const Algorithm> algorithms_of(const Version& v, Collective c);

// The MPICH algorithm that runs piccolo's (algorithm, k) on p ranks, if this version has one.
const Algorithm* equivalent(const Version& v, Collective c, std::string_view algorithm, int p);

// The "collective=..." name of MPICH's reader: piccolo's reduce_scatter (recvcount per rank) is
// MPI_Reduce_scatter_block, "reduce_scatter_block"; the others are spelled alike.
std::string_view collective_key(Collective c);

}  // namespace piccolo::mpich
