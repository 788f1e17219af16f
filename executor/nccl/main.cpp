// piccolo-run-nccl: executes piccolo schedules over NCCL (one rank per GPU; MPI starts the ranks
// and carries NCCL's unique id), checks every byte of every result and times them next to NCCL's
// own collective. Same options and outputs as piccolo-run-mpi; see profiler/README.md.
#include <mpi.h>
#include <nccl.h>

#include <fmt/format.h>

#include <memory>

#include "nccl_cases.hpp"
#include "sweep.hpp"

int main(int argc, char** argv) {
    using namespace piccolo::exec;
    MPI_Init(&argc, &argv);
    RunHeader identity;
    identity.tool = "piccolo-run-nccl";
    std::unique_ptr<NcclSession> session;  // lives until after the sweep, ended before MPI
    const int status =
        run_executor(argc, argv, identity, [&session](const Context& c, const RunOptions& o) {
            session = std::make_unique<NcclSession>(c.comm);
            int version = 0;
            ncclGetVersion(&version);
            const NcclSession& s = *session;
            return Backend{fmt::format("NCCL {} (bootstrap {})", version, mpi_library_version()),
                           [c, &o, &s](const piccolo::Schedule& schedule) {
                               return run_nccl_schedule(c, s, schedule, o);
                           },
                           [c, &o, &s](piccolo::Collective collective, std::uint64_t bytes) {
                               return run_nccl_reference(c, s, collective, bytes, o);
                           }};
        });
    session.reset();
    MPI_Finalize();
    return status;
}
