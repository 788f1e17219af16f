// Benchmark (not a test): the engine on the cases of the engine issue, single thread.
//   engine_bench small        64-device ring Allgather, 2 MiB/rank, delta, contention on:
//                             simulation time alone (best of many runs)
//   engine_bench ring4096     4096-rank ring Allgather, generation included
//   engine_bench rm1m         1,048,576-rank RM k=2 Allgather, generation included
//   engine_bench rm75k        75,264-rank RM k=16 Allgather of 1 KiB on dgx-h100 (9408 nodes
//                             x 8): a sweep's typical replay, best of 3
//   engine_bench fair256      256-rank RM k=256 Allgather of 8 B per rank on delta (64 nodes x 4)
//                             under fair sharing: every rank sends to every other at once, and the
//                             messages' gap g keeps ~28,000 flows on the NICs together; best of 3
// The other cases replay FIFO lanes (sharing: fifo), whatever the preset's default.
// A second argument picks the schedules' style (default mpi; pipelined is the DAG of releases
// before implementation styles existed).
// Every case also reports a baseline measured in the same run on the same DAG: a plain
// dependency-order walk (Kahn's algorithm with a FIFO queue, no timing, no resources), the floor
// for any replay of the DAG. Peak memory: run under /usr/bin/time -v (tools/bench/run.sh).
#include <fmt/format.h>
#include <chrono>
#include <string>
#include <vector>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// The floor: visit every task in dependency order.
std::size_t dependency_walk(const Schedule& s) {
    const Schedule::Successors successors = s.joined_successors();
    std::vector<std::uint32_t> missing(s.size());
    std::vector<TaskId> queue;
    queue.reserve(s.size());
    for (TaskId t = 0; t < s.size(); ++t) {
        missing[t] = static_cast<std::uint32_t>(s.deps.row(t).size() + s.sent_deps_of(t).size());
        if (missing[t] == 0) queue.push_back(t);
    }
    for (std::size_t head = 0; head < queue.size(); ++head)
        for (const PackedRows* list : {&successors.delivered, &successors.sent})
            if (list->rows() > 0)
                for (std::uint32_t item : list->row(queue[head]))
                    if (const TaskId next = successors.task_of(item); --missing[next] == 0) {
                        // The lists name a cohort's first task; the cohort is ready with it.
                        const TaskId end =
                            next + (successors.cohort.empty() ? 1 : successors.cohort[next]);
                        for (TaskId t = next; t < end; ++t) queue.push_back(t);
                    }
    return queue.size();
}

struct Case {
    std::string name;
    const char* algorithm;
    int k;
    int nodes;
    int repetitions;
    const char* machine = "delta";
    std::uint64_t bytes = 2 << 20;  // per rank
    Sharing sharing = Sharing::fifo;
};

void run_case(const Case& c, Style style) {
    Machine machine = load_preset(c.machine);
    machine.sharing = c.sharing;
    const int ppn = machine.devices_per_node();
    const int nodes = c.nodes;
    GenerateRequest request{Collective::allgather, c.algorithm, c.k, nodes * ppn, c.bytes, false};
    request.style = style;
    const RankLayout layout(machine, nodes, ppn);

    double generate_time = 1e30, simulate_time = 1e30, walk_time = 1e30, makespan = 0;
    std::size_t transfers = 0;
    for (int i = 0; i < c.repetitions; ++i) {
        auto start = Clock::now();
        const Schedule s = generate(request);
        generate_time = std::min(generate_time, seconds_since(start));
        start = Clock::now();
        const SimResult r = simulate(s, machine, layout);
        simulate_time = std::min(simulate_time, seconds_since(start));
        start = Clock::now();
        const std::size_t visited = dependency_walk(s);
        walk_time = std::min(walk_time, seconds_since(start));
        makespan = r.makespan;
        transfers = r.transfers;
        if (visited != s.size())
            fmt::print("dependency walk visited {} of {}\n", visited, s.size());
    }
    fmt::print(
        "{}: {} k={} p={} on {}, {} style, {} B/rank, contention on, {} sharing: makespan "
        "{:.6g} s\n",
        c.name, c.algorithm, c.k, nodes * ppn, c.machine, to_string(style), c.bytes,
        c.sharing == Sharing::fair ? "fair" : "fifo", makespan);
    fmt::print(
        "  transfers {}  generate {:.6f} s  simulate {:.6f} s  total {:.6f} s  "
        "{:.2f} M transfers/s simulated\n",
        transfers, generate_time, simulate_time, generate_time + simulate_time,
        transfers / simulate_time / 1e6);
    fmt::print("  baseline dependency walk {:.6f} s: simulate / walk = {:.2f}\n", walk_time,
               simulate_time / walk_time);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string which = argc > 1 ? argv[1] : "all";
    const Style style = argc > 2 ? parse_style(argv[2]) : Style::mpi;
    if (which == "small" || which == "all") run_case({"small", "ring", 0, 16, 200}, style);
    if (which == "ring4096" || which == "all") run_case({"ring4096", "ring", 0, 1024, 1}, style);
    if (which == "rm1m" || which == "all") run_case({"rm1m", "rm", 2, 262144, 1}, style);
    if (which == "rm75k") run_case({"rm75k", "rm", 16, 9408, 3, "dgx-h100", 1024}, style);
    if (which == "fair256")
        run_case({"fair256", "rm", 256, 64, 3, "delta", 8, Sharing::fair}, style);
    return 0;
}
