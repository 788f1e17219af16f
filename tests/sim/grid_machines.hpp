#pragma once
// The generator grid on machines that between them use every part of the engine: device slots
// and FIFO lanes (delta, dgx-h100), cpu overheads (laptop-mpi), fair sharing with a node's
// internal capacity, and cpu overheads with the rendezvous rule at 4 KiB.
#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "piccolo/engine/engine.hpp"
#include "piccolo/schedules/generate.hpp"
#include "piccolo/topologies/machine_io.hpp"

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

// One schedule of the grid, generated, with where it runs.
struct Case {
    const Machine& machine;
    const RankLayout& layout;
    const GenerateRequest& request;
    const Schedule& schedule;
    SimOptions options;

    [[nodiscard]] std::string label() const {
        return fmt::format("{} {} {} k={} p={} {} {} B contention {}", machine.name,
                           to_string(request.collective), request.algorithm, request.k,
                           request.ranks, to_string(request.style), request.bytes,
                           options.contention);
    }
};

// Every machine above, algorithm, valid k, collective and style at each p and size, contention
// on and off: several nodes of up to 4 ranks, or, on a one-node machine (the laptop), p alone.
template <class Visit>
void for_each_case(std::initializer_list<Rank> ps, std::initializer_list<std::uint64_t> sizes,
                   Visit visit) {
    for (const Machine& m : machines())
        for (const AlgorithmInfo& info : algorithms())
            for (Rank p : ps) {
                const bool one_node = m.levels.back().fanout == 1;
                if (one_node && p > m.devices_per_node()) continue;
                const int ppn = one_node ? p : std::min(m.devices_per_node(), 4);
                const RankLayout layout(m, (p + ppn - 1) / ppn, ppn);
                for (int k : info.has_radix ? info.valid_radices(p) : std::vector<int>{0})
                    for (Collective c : {Collective::allgather, Collective::allreduce})
                        for (Style style : all_styles)
                            for (std::uint64_t bytes : sizes) {
                                if (!builds(info, c)) continue;
                                GenerateRequest request{c,    std::string(info.name), k, p, bytes,
                                                        false};
                                request.style = style;
                                const Schedule s = generate(request);
                                for (bool contention : {true, false})
                                    visit(Case{m, layout, request, s, {contention, false}});
                            }
            }
}

}  // namespace piccolo::grid
