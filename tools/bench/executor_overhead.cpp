// executor_overhead: what piccolo-run-mpi adds to a message. Under mpirun -n 2: the 2-rank ring
// Allgather of 8 B run by the executor (plan, MpiRunner) against the same exchange written
// directly with MPI_Sendrecv, both timed by the same loop (barrier, slowest rank, median), in
// alternating series so that both see the same machine. Prints the medians and their ratio.
#include <mpi.h>

#include <fmt/format.h>
#include <cstring>
#include <vector>

#include "piccolo/executor/data.hpp"
#include "piccolo/executor/plan.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/verify.hpp"
#include "runner.hpp"
#include "timing.hpp"

namespace {

using namespace piccolo;
using namespace piccolo::exec;

constexpr std::uint64_t bytes = 8;

struct Bench {
    MPI_Comm comm;
    int rank;
    TimingSettings settings{100, 200, 20000, 0.005, 2.0};
};

double executor_series(const Bench& b, const RankPlan& plan, MpiRunner& runner,
                       std::vector<std::byte>& arena, const Images& images) {
    const TimedOperation op{[&] { prepare(plan, images, arena); }, [&] { runner.run(arena); },
                            [&] { return check_result(plan, images, arena); }};
    return time_operation(b.comm, b.settings, op).summary.median;
}

double sendrecv_series(const Bench& b, const Images& images) {
    std::vector<std::byte> result(2 * bytes);
    const int peer = 1 - b.rank;
    const std::byte* mine = images.input.data() + bytes * static_cast<std::uint64_t>(b.rank);
    const TimedOperation op{
        [&] {
            std::memset(result.data(), 0xFF, result.size());
            std::memcpy(result.data() + bytes * b.rank, mine, bytes);
        },
        [&] {
            MPI_Sendrecv(mine, bytes, MPI_BYTE, peer, 0, result.data() + bytes * peer, bytes,
                         MPI_BYTE, peer, 0, b.comm, MPI_STATUS_IGNORE);
        },
        [&]() -> std::optional<std::string> {
            if (std::memcmp(result.data(), images.expected.data(), result.size()) == 0) return {};
            return "MPI_Sendrecv: wrong result";
        }};
    return time_operation(b.comm, b.settings, op).summary.median;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    Bench b{MPI_COMM_WORLD, 0};
    int size = 0;
    MPI_Comm_rank(b.comm, &b.rank);
    MPI_Comm_size(b.comm, &size);
    if (size != 2) {
        if (b.rank == 0) fmt::print(stderr, "executor_overhead: run it with mpirun -n 2\n");
        MPI_Finalize();
        return 2;
    }
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
    const Schedule schedule =
        generate({Collective::allgather, "ring", 0, 2, bytes, true, Style::mpi});
    std::vector<TaskId> order;
    verify_structure(schedule, order);
    const RankPlan plan = compile_plan(schedule, order, b.rank, Element::u8);
    std::vector<std::byte> arena(plan.arena_bytes);
    const Images images = make_images(schedule.shape, Element::u8, b.rank);
    MpiRunner runner(plan, b.comm);
    std::vector<double> executor, direct;
    for (int i = 0; i < rounds; ++i) {
        executor.push_back(executor_series(b, plan, runner, arena, images));
        direct.push_back(sendrecv_series(b, images));
    }
    if (b.rank == 0) {
        for (int i = 0; i < rounds; ++i)
            fmt::print("round {}: executor {:.1f} ns, MPI_Sendrecv {:.1f} ns\n", i,
                       executor[i] * 1e9, direct[i] * 1e9);
        const double e = profiler::median(executor), d = profiler::median(direct);
        fmt::print("median of rounds: executor {:.1f} ns, MPI_Sendrecv {:.1f} ns, ratio {:.3f}\n",
                   e * 1e9, d * 1e9, e / d);
    }
    MPI_Finalize();
    return 0;
}
