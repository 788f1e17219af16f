#pragma once
// The machine's hierarchy as the profiler finds it: which node (MPI_Comm_split_type shared
// memory, or fixed-size blocks of ranks) and which group (--group-of REGEX on host names) each
// rank is on, and the rank pair that measures each level.

#include <mpi.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace piccolo::profiler {

struct Hierarchy {
    std::vector<int> node_of;   // per world rank
    std::vector<int> group_of;  // per world rank; empty without --group-of
    std::vector<std::string> host_of;
    int nodes = 0;
    int groups = 0;
};

struct LevelProbe {
    std::string name;
    int fanout = 0;
    std::optional<std::pair<int, int>> pair;  // (client, partner) world ranks
};

// Collective over `world`. node_size > 0: nodes are blocks of that many ranks (else the ranks
// sharing memory); group_of: a regular expression over host names (empty: no group level).
// Throws InputError when a host name does not match group_of.
Hierarchy discover(MPI_Comm world, int rank, int size, int node_size, const std::string& group_of);

// node, (group,) system: each with its fanout and the first rank pair whose lowest common
// level it is (none when no pair has it).
std::vector<LevelProbe> level_probes(const Hierarchy& h, int devices_per_node);

// The most ranks any node holds.
int ranks_per_node(const Hierarchy& h);

}  // namespace piccolo::profiler
