#pragma once
// What MPICH runs by itself for an Allgather or Allreduce call: its built-in selection tree
// (mpich_defaults.cpp) walked as MPICH walks it.
#include <cstdint>
#include <string>
#include <nlohmann/json.hpp>

#include "piccolo/schedules/schedule.hpp"

namespace piccolo::mpich {

struct Call {
    Collective collective;  // allgather or allreduce
    int comm_size;
    std::uint64_t bytes;  // piccolo's size: per-rank contribution (Allgather), vector (Allreduce)
};

// The function of the "algorithm=" leaf MPICH's tree (a version's defaults, parsed with their
// keys in file order) reaches for the call, e.g. "MPIR_Allreduce_intra_reduce_scatter_allgather";
// empty where the tree has no entry for the collective.
std::string own_algorithm(const nlohmann::ordered_json& tree, const Call& call);

}  // namespace piccolo::mpich
