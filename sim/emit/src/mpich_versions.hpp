#pragma once
// What each MPICH release series offers a tuning file (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE):
// the Allgather and Allreduce algorithms its reader knows, which take k, which piccolo algorithm
// each one runs, and the built-in defaults for every other collective. The facts and the source
// file and tag each came from are in mpich_versions.cpp.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "piccolo/schedules/schedule.hpp"

namespace piccolo::mpich {

// One MPICH algorithm that runs a piccolo algorithm.
struct Algorithm {
    std::string_view piccolo;   // "ring", "rd", "rm", "prd", "prm", "bruck"
    std::string_view name;      // JSON name, MPIR_<Coll>_intra_...
    bool takes_k = false;       // the leaf carries "k=N" (piccolo's k)
    int fixed_k = 0;            // > 0: the leaf always carries this k (prd = halving with k = 2)
    bool power_of_two = false;  // MPICH runs it only when the communicator size is a power of 2
    bool commutative = false;   // only for commutative operations (Allreduce)
    int only_k = 0;             // > 0: runs piccolo's algorithm with this k only (4.0's Bruck: 2)
};

struct Version {
    std::string_view name;     // "4.0"
    std::string_view sources;  // the release tag whose sources the facts were read from
    std::span<const Algorithm> allgather;
    std::span<const Algorithm> allreduce;
    // MPICH's built-in tuning (maint/tuning/coll/mpir/generic.json) without the allgather and
    // allreduce entries: one "collective=..." entry for every other collective.
    std::string_view defaults;
};

// Every known series, oldest first.
std::span<const Version> versions();
// Throws InputError naming --mpich-version and the known series.
const Version& version(std::string_view name);
// "4.0.2" -> "4.0": the series of a full release number; empty when it is not one we know.
std::string series_of(std::string_view release);

// The MPICH algorithm that runs piccolo's (algorithm, k) on p ranks, if this version has one.
const Algorithm* equivalent(const Version& v, Collective c, std::string_view algorithm, int p);

}  // namespace piccolo::mpich
