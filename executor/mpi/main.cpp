// piccolo-run-mpi: executes piccolo schedules over MPI point-to-point (one rank per core or
// device), checks every byte of every result and times them next to the MPI library's own
// collective. Run it under mpirun; see profiler/README.md, "Executing schedules".
#include <mpi.h>

#include "cases.hpp"
#include "sweep.hpp"

int main(int argc, char** argv) {
    using namespace piccolo::exec;
    MPI_Init(&argc, &argv);
    RunHeader identity;
    identity.tool = "piccolo-run-mpi";
    const int status =
        run_executor(argc, argv, identity, [](const Context& c, const RunOptions& o) {
            return Backend{mpi_library_version(),
                           [c, &o](const piccolo::Schedule& s) { return run_schedule(c, s, o); },
                           [c, &o](piccolo::Collective collective, std::uint64_t bytes) {
                               return run_reference(c, collective, bytes, o);
                           }};
        });
    MPI_Finalize();
    return status;
}
