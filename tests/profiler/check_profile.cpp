// Checks a measured machine profile: it loads with the simulator's loader, every LogGP
// parameter is positive and finite, 1/G is a bandwidth between 0.5 and 100 GB/s (skipped with
// --structure-only, for runs that measure contention rather than the machine), and two ranks
// fit on one node. Exit status 0 when all hold, 1 otherwise (one line per problem on stderr).
#include <fmt/format.h>
#include <string_view>

#include <cmath>
#include <cstdio>
#include <exception>

#include "piccolo/topologies/machine_io.hpp"

int main(int argc, char** argv) {
    const bool structure_only = argc == 3 && std::string_view(argv[1]) == "--structure-only";
    if (argc != 2 && !structure_only) {
        fmt::print(stderr, "usage: {} [--structure-only] MACHINE.yaml\n", argv[0]);
        return 2;
    }
    const char* file = argv[argc - 1];
    try {
        const piccolo::Machine machine = piccolo::load_machine_yaml(file);
        int problems = 0;
        std::size_t rows = 0;
        double slowest = INFINITY, fastest = 0;
        for (const auto& level : machine.levels) {
            for (const auto& row : level.loggp.rows()) {
                ++rows;
                const auto& p = row.params;
                const std::pair<const char*, double> values[] = {
                    {"L", p.L}, {"o_s", p.o_s}, {"o_r", p.o_r}, {"g", p.g}, {"G", p.G}};
                for (const auto& [name, value] : values) {
                    if (!(std::isfinite(value) && value > 0)) {
                        fmt::print(stderr, "{} at {} B: {} = {} is not positive and finite\n",
                                   level.name, row.bytes, name, value);
                        ++problems;
                    }
                }
                const double bandwidth = 1 / p.G;
                slowest = std::min(slowest, bandwidth);
                fastest = std::max(fastest, bandwidth);
                if (!structure_only && !(bandwidth >= 0.5e9 && bandwidth <= 100e9)) {
                    fmt::print(stderr, "{} at {} B: 1/G = {:.3g} GB/s is outside 0.5..100 GB/s\n",
                               level.name, row.bytes, bandwidth / 1e9);
                    ++problems;
                }
            }
        }
        if (machine.device_radix && *machine.device_radix < 1) {
            fmt::print(stderr, "device_radix {} < 1\n", *machine.device_radix);
            ++problems;
        }
        const piccolo::RankLayout layout(machine, 1, 2);  // the profiled 2-rank run fits
        if (rows == 0) {
            fmt::print(stderr, "no LogGP rows\n");
            ++problems;
        }
        fmt::print("{}: {} levels, {} rows, 1/G {:.2f}..{:.2f} GB/s, {} problem(s)\n", file,
                   machine.levels.size(), rows, slowest / 1e9, fastest / 1e9, problems);
        return problems == 0 ? 0 : 1;
    } catch (const std::exception& e) {
        fmt::print(stderr, "{}\n", e.what());
        return 1;
    }
}
