// Bcast by scatter + ring allgather (scatter-ring), van de Geijn's long-message Bcast: MPICH's
// MPIR_Bcast_intra_scatter_ring_allgather (v4.1.2,
// src/mpi/coll/bcast/bcast_intra_scatter_ring_allgather.c; the same steps in v4.0.2 to v4.3.2,
// and Open MPI 4.1.4's ompi_coll_base_bcast_intra_scatter_allgather_ring), after the binomial
// scatter of bcast_scatter.hpp.
//
// p - 1 steps, i = 1..p-1: every rank sends to its right neighbour (rank + 1) the chunk it got
// in the step before, (x - i + 1) mod p in relative numbering (its own chunk in step 1), and
// receives chunk (x - i) mod p from its left (MPIC_Sendrecv). A chunk travels p - 1 hops from
// its rank; the root too receives chunks it already holds, as MPICH's does.
//
// Pipelined, a send waits for the receive that first brought its chunk: the scatter's for the
// chunks of x's scatter subtree (which x gets a second time in the ring's last steps), else the
// ring receive of the step before; the root's for none.
#include <vector>

#include "algorithms.hpp"
#include "bcast_scatter.hpp"

namespace piccolo::detail {

Schedule generate_bcast_scatter_ring(const GenerateRequest& request) {
    BcastProgram program(request, false);
    program.scatter();
    const std::int64_t p = program.ranks();
    const std::uint32_t q = program.chunks();
    // Pipelined: each rank's ring receive of the previous step, and of this one.
    std::vector<TaskId> before(static_cast<std::size_t>(p), no_task), now = before;
    std::vector<TaskId> data(1);
    for (std::int64_t step = 1; step < p; ++step) {
        for (std::int64_t x = 0; x < p; ++x) {
            const auto chunk = static_cast<std::uint32_t>(((x - step + 1) % p + p) % p);
            if (chunk >= q) continue;  // empty: MPICH's zero-byte message
            const bool scattered = chunk >= x && chunk < program.scatter_end(x);
            data[0] = x == 0      ? no_task
                      : scattered ? program.scatter_receive(x)
                                  : before[static_cast<std::size_t>(x)];
            const std::int64_t right = (x + 1) % p;
            program.send(x, right, chunk, chunk + 1, data);
            now[static_cast<std::size_t>(right)] = program.last();
        }
        program.end_round();
        before.swap(now);
    }
    return std::move(program).finish();
}

}  // namespace piccolo::detail
