#pragma once
// Machines that between them use every part of the engine: device slots and FIFO lanes (delta,
// dgx-h100), cpu overheads (laptop-mpi), fair sharing with a node's internal capacity, and cpu
// overheads with the rendezvous rule at 4 KiB.
#include <vector>

#include "piccolo/machine_io.hpp"

namespace piccolo::grid {

inline std::vector<Machine> machines() {
    std::vector<Machine> machines{load_preset("delta"), load_preset("laptop-mpi"),
                                  load_preset("dgx-h100")};
    Machine fair = load_preset("delta");
    fair.name = "delta-fair";
    fair.sharing = Sharing::fair;
    fair.levels[0].capacity = 50e9;
    validate_machine(fair);
    machines.push_back(fair);
    Machine rendezvous = load_preset("laptop-mpi");
    rendezvous.name = "laptop-rendezvous";
    for (Level& level : rendezvous.levels) level.rendezvous = 4096;
    validate_machine(rendezvous);
    machines.push_back(rendezvous);
    return machines;
}

}  // namespace piccolo::grid
