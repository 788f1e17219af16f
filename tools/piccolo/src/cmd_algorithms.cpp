// piccolo algorithms: what can be generated, and which k are valid for a given p.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>

#include "common_options.hpp"
#include "piccolo/cli/commands.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/schedules/generate.hpp"

namespace piccolo::cli {

namespace {

std::string compact(const std::vector<int>& values) {  // "2-16" for runs, "2, 4, 8" otherwise
    if (values.size() > 3 && values.back() - values.front() + 1 == static_cast<int>(values.size()))
        return fmt::format("{}-{}", values.front(), values.back());
    return fmt::format("{}", fmt::join(values, ", "));
}

void run_algorithms(int ranks) {
    if (ranks != 0 && ranks < 2)
        throw InputError(fmt::format("-p/--ranks: need at least 2 ranks (got {})", ranks));
    fmt::print("{:<12} {:<12} {}\n", "name", ranks ? fmt::format("k (p={})", ranks) : "k",
               "description");
    for (const AlgorithmInfo& info : algorithms()) {
        std::string radices = "-";
        if (info.has_radix) radices = ranks ? compact(info.valid_radices(ranks)) : "2..p";
        fmt::print("{:<12} {:<12} {}\n", info.name, radices, info.summary);
    }
    fmt::print(
        "\nCollectives: allgather (size = per-rank contribution), allreduce (size = vector "
        "size), bcast and reduce (size = the whole buffer, MPI's count; --root, default 0; "
        "bcast: knomial, binomial, scatter-rd, scatter-ring; reduce: knomial, binomial, "
        "rabenseifner, which needs at least 2^floor(log2 p) bytes), "
        "reduce_scatter (size = per-rank block; ring, k-ring, pairwise, rh, recexch), "
        "alltoall (size = block per rank pair; bruck, pairwise, scattered).\n");
}

}  // namespace

void add_algorithms_command(CLI::App& app) {
    auto ranks = std::make_shared<int>(0);
    CLI::App* cmd = app.add_subcommand("algorithms", "List the algorithms and their valid radices");
    add_ranks_option(*cmd, *ranks, "show the valid k for this number of ranks");
    cmd->callback([ranks] { run_algorithms(*ranks); });
}

}  // namespace piccolo::cli
