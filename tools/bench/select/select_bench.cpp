// Benchmark (not a test): the default `piccolo select` sweep (delta; allgather and allreduce;
// all six algorithms, every valid k; 8 B..64 MiB; 1..64 nodes x 4) through the library, with
// 1 thread and with N threads, best and median of R runs each. Checks that both give the same
// output, and reports what the sweep simulated.
//   select_bench [threads=2] [repeats=3]
// The end-to-end CLI timing (process start, output) is tools/bench/select/run.sh.
#include <fmt/format.h>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "piccolo/emit/select_emit.hpp"
#include "piccolo/select/select.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;
using Clock = std::chrono::steady_clock;

namespace {

struct Timing {
    double best = 0, median = 0;
    SelectResult last;
};

Timing measure(int threads, int repeats) {
    std::vector<double> walls;
    Timing t;
    for (int r = 0; r < repeats; ++r) {
        SelectRequest request;
        request.machine = load_machine(default_preset_name());
        request.threads = threads;
        const auto start = Clock::now();
        t.last = select(request);
        walls.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    }
    std::sort(walls.begin(), walls.end());
    t.best = walls.front();
    t.median = walls[walls.size() / 2];
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
    const Timing one = measure(1, repeats);
    const Timing many = measure(threads, repeats);
    const SweepStats& s = one.last.stats;
    fmt::print(
        "default sweep: {} candidates (collective, p, algorithm, k) -> {} distinct DAGs; "
        "{} simulations, {:.1f} M tasks replayed\n",
        s.candidates, s.distinct_schedules, s.simulations, s.simulated_tasks / 1e6);
    fmt::print(
        "threads=1: best {:.2f} s, median {:.2f} s (templates {:.2f} s, simulation "
        "{:.2f} s)\n",
        one.best, one.median, s.generate_seconds, s.simulate_seconds);
    fmt::print(
        "threads={}: best {:.2f} s, median {:.2f} s (templates {:.2f} s, simulation "
        "{:.2f} s)\n",
        threads, many.best, many.median, many.last.stats.generate_seconds,
        many.last.stats.simulate_seconds);
    fmt::print("speedup threads={} over 1: {:.2f}x (best), {:.2f}x (median)\n", threads,
               one.best / many.best, one.median / many.median);
    const bool same = emit_json(one.last) == emit_json(many.last) &&
                      emit_table(one.last) == emit_table(many.last);
    fmt::print("output identical across thread counts: {}\n", same ? "yes" : "NO");
    return same ? 0 : 1;
}
