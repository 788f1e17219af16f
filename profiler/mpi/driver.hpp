#pragma once
// The profiler program shared by the MPI and NCCL executables: options, hierarchy discovery
// (MPI_Comm_split_type shared memory for nodes, --group-of REGEX on host names for groups),
// one rank pair per level, the PRTT and radix measurements, and the output files. Each
// executable supplies its transport through DriverHooks.

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "piccolo/profiler/measure.hpp"
#include "piccolo/profiler/raw_data.hpp"
#include "piccolo/profiler/transport.hpp"

namespace piccolo::profiler {

struct RankContext {
    MPI_Comm world = MPI_COMM_WORLD;
    int rank = 0;
    int size = 1;
    int node = 0;        // index of this rank's node
    int local_rank = 0;  // rank among the ranks of its node
};

struct DriverHooks {
    std::string tool;       // program name used in messages
    std::string transport;  // e.g. "MPI", "NCCL": goes into the profile header
    // Runs after option parsing, before MPI_Init; a message ends the program with status 2.
    std::function<std::optional<std::string>()> preflight;
    // Collective over all ranks: this rank's transport, able to hold `capacity` bytes in flight.
    std::function<std::unique_ptr<Transport>(const RankContext&, std::size_t capacity)>
        make_transport;
    // Devices per node when --devices-per-node is not given (the node level's fanout).
    std::function<int()> devices_per_node;
    // Optional, rank 0 only: appends compute samples (kind compute, level reduce / copy).
    std::function<void(const MeasureSettings&, std::vector<RawSample>&)> measure_compute;
    // Optional: the reclaim probe (reclaim_probe.hpp) of each level's rank pair, on the ranks'
    // host memory; collective over the pair, samples on the client.
    std::function<void(MPI_Comm, int rank, int client, int partner, const std::string& level,
                       const MeasureSettings&, std::vector<RawSample>&)>
        measure_reclaim;
};

// The whole program; returns the exit status (0, or 2 for errors the user can fix).
int run_profiler(int argc, char** argv, const DriverHooks& hooks);

}  // namespace piccolo::profiler
