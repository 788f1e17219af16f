// Exact symmetry reduction (docs/symmetry.md): full replay against the quotient replay of the
// same schedules (ring and k-ring; pairwise, scattered and bruck), with both times and their
// ratio from the same run.
//
//   symmetry_bench MACHINE NODES PPN BYTES [full|reduced] [algorithm[:k]] ...
//
// MACHINE: a preset, or delta-grouped / delta-fair (delta with a 2-node group level and lanes,
// or with fair sharing and a node capacity) or laptop-nodes (laptop-mpi's cpu overheads and
// rendezvous on any number of nodes with one NIC each). `full` (the default) replays both and
// compares the makespans (relative difference, must be <= 1e-12); `reduced` replays only the
// quotient (scales whose full schedule does not fit in memory). Without algorithms: ring and every
// valid k of k-ring. An algorithm runs every collective it builds that has a quotient (Allgather,
// Allreduce, Reduce_scatter, Alltoall), in every style, contention on and off; one line per case.
// Exit 1 if any makespan differs.
#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "piccolo/core/error.hpp"
#include "piccolo/core/size_parse.hpp"
#include "piccolo/engine/engine.hpp"
#include "piccolo/engine/symmetric.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/schedules/quotient.hpp"
#include "piccolo/topologies/machine_io.hpp"

using namespace piccolo;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

Machine bench_machine(const std::string& name) {
    if (name == "laptop-nodes") {  // laptop-mpi's cpu overheads and rendezvous, one NIC a node
        Machine m = load_preset("laptop-mpi");
        m.name = name;
        m.levels.back().fanout = 0;
        m.levels.front().radix = 1;
        validate_machine(m);
        return m;
    }
    if (name != "delta-grouped" && name != "delta-fair") return load_preset(name);
    Machine m = load_preset("delta");
    m.name = name;
    if (name == "delta-fair") {
        m.sharing = Sharing::fair;
        m.levels.front().capacity = 1.5e11;
    } else {
        Level group = m.levels.back();
        group.name = "group";
        group.fanout = 2;
        group.radix = 1;
        std::vector<LogGPRow> rows(group.loggp.rows().begin(), group.loggp.rows().end());
        for (LogGPRow& row : rows) row.params.L *= 0.5;
        group.loggp = LogGPTable(rows);
        m.levels.insert(m.levels.end() - 1, group);
    }
    validate_machine(m);
    return m;
}

struct Case {
    std::string algorithm;
    int k = 0;
};

std::vector<Case> cases_of(int argc, char** argv, Rank p) {
    std::vector<Case> cases;
    for (int i = 6; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto colon = arg.find(':');
        if (colon == std::string::npos)
            cases.push_back({arg, 0});
        else
            cases.push_back({arg.substr(0, colon), std::stoi(arg.substr(colon + 1))});
    }
    if (!cases.empty()) return cases;
    cases.push_back({"ring", 0});
    for (int k : find_algorithm("k-ring").valid_radices(p)) cases.push_back({"k-ring", k});
    return cases;
}

struct Totals {
    double full = 0, reduced = 0, worst = 0;
    int compared = 0, refused = 0;
};

void run_case(const GenerateRequest& request, const Machine& m, const RankLayout& layout,
              bool contention, bool with_full, Totals& totals) {
    const SimOptions options{contention, false};
    const SymmetryCheck check = check_symmetry(request, m, layout, options);
    const std::string label =
        fmt::format("{:9} k={:<5} {:14} {:9} contention={:d}", request.algorithm, request.k,
                    to_string(request.collective), to_string(request.style), contention);
    if (check.representatives == 0) {
        fmt::print("{}  full engine: {}\n", label, check.reason);
        ++totals.refused;
        return;
    }
    auto start = Clock::now();
    const QuotientSchedule q = generate_quotient(request, check.representatives);
    const SimResult reduced =
        simulate_quotient(q, q.schedule.joined_successors(), m, layout, options);
    const double reduced_s = seconds_since(start);
    totals.reduced += reduced_s;
    if (!with_full) {
        fmt::print("{}  reduced {:.4f} s ({} tasks)  makespan {:.9e}\n", label, reduced_s,
                   q.schedule.size(), reduced.makespan);
        return;
    }
    start = Clock::now();
    const SimResult full = simulate(generate(request), m, layout, options);
    const double full_s = seconds_since(start);
    totals.full += full_s;
    const double diff = std::abs(full.makespan - reduced.makespan) / full.makespan;
    totals.worst = std::max(totals.worst, diff);
    ++totals.compared;
    fmt::print(
        "{}  full {:.4f} s  reduced {:.4f} s  ratio {:.1f}  makespan {:.9e}  rel diff {:.1e}\n",
        label, full_s, reduced_s, full_s / reduced_s, full.makespan, diff);
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc < 5) {
        fmt::print(stderr,
                   "usage: symmetry_bench MACHINE NODES PPN BYTES [full|reduced] "
                   "[algorithm[:k]] ...\n");
        return 2;
    }
    const Machine m = bench_machine(argv[1]);
    const RankLayout layout(m, std::atoi(argv[2]), std::atoi(argv[3]));
    const std::uint64_t bytes = parse_bytes(argv[4], "BYTES");
    const bool with_full = argc < 6 || std::string(argv[5]) != "reduced";
    const Rank p = layout.ranks();
    Totals totals;
    for (const Case& c : cases_of(argc, argv, p))
        for (Collective collective : {Collective::allgather, Collective::allreduce,
                                      Collective::reduce_scatter, Collective::alltoall}) {
            if (!builds(find_algorithm(c.algorithm), collective)) continue;
            for (Style style : all_styles)
                for (bool contention : {true, false}) {
                    const GenerateRequest request{
                        collective, c.algorithm, c.k, p, bytes, collective == Collective::allreduce,
                        style};
                    run_case(request, m, layout, contention, with_full, totals);
                }
        }
    fmt::print(
        "{} {} x {} = {} ranks, {} B: {} compared, {} on the full engine; full {:.2f} s, "
        "reduced {:.2f} s{}; worst relative difference {:.1e}\n",
        m.name, layout.nodes(), p / layout.nodes(), p, bytes, totals.compared, totals.refused,
        totals.full, totals.reduced,
        totals.reduced > 0 && totals.full > 0
            ? fmt::format(" (ratio {:.1f})", totals.full / totals.reduced)
            : "",
        totals.worst);
    return totals.worst <= 1e-12 ? 0 : 1;
} catch (const InputError& e) {
    fmt::print(stderr, "symmetry_bench: {}\n", e.what());
    return 2;
}
