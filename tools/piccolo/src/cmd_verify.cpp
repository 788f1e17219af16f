// piccolo verify: structural checks and the data-flow proof of schedule files.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "common_options.hpp"
#include "piccolo/cli/commands.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/schedules/schedule_xml.hpp"
#include "piccolo/schedules/verify.hpp"
#include "text_files.hpp"

namespace piccolo::cli {

namespace {

std::string proven(const CollectiveShape& shape) {
    switch (shape.collective) {
        case Collective::allgather:
            return "data flow proven: race-free, every rank ends with every block";
        case Collective::allreduce:
            break;
        case Collective::bcast:
            return fmt::format("data flow proven: race-free, every rank ends with root {}'s buffer",
                               shape.root);
        case Collective::reduce:
            return fmt::format(
                "data flow proven: race-free, no double counting, root {} ends "
                "with the full sum",
                shape.root);
        case Collective::reduce_scatter:
            return "data flow proven: race-free, no double counting, every rank ends with the "
                   "full sum of its block";
        case Collective::alltoall:
            return "data flow proven: race-free, every rank ends with its block from every rank";
    }
    return "data flow proven: race-free, no double counting, every rank ends with the full sum";
}

void verify_file(const std::string& file, bool quiet) {
    const LoadedSchedule loaded = read_schedule_xml(file);
    const Schedule& s = loaded.schedule;
    const VerifyReport report = verify(s);
    if (const auto& v = report.violation) {
        const std::string where =
            v->task == Violation::no_task ? loaded.origin : loaded.where(v->task);
        throw InputError(fmt::format("{}: {}", where, v->message));
    }
    if (quiet) return;
    const std::string algorithm = s.algorithm.empty() ? "(unnamed)" : s.algorithm;
    fmt::print("{}: OK: {} {}{} p={}, {}, {}, {} moved; {}\n", file, to_string(s.shape.collective),
               algorithm, s.k > 0 ? fmt::format(" k={}", s.k) : "", s.shape.ranks,
               count_of(static_cast<long long>(report.transfers), "transfer"),
               count_of(static_cast<long long>(report.computes), "compute"),
               count_of(static_cast<long long>(report.bytes_moved), "byte"),
               report.data_flow_checked ? proven(s.shape)
                                        : "structure only (no payload descriptors in the file)");
}

}  // namespace

void add_verify_command(CLI::App& app) {
    auto files = std::make_shared<std::vector<std::string>>();
    auto quiet = std::make_shared<bool>(false);
    CLI::App* verify = app.add_subcommand(
        "verify", "Check schedule files: structure (acyclic, ranks, sizes) and data flow");
    verify->add_option("files", *files, "schedule XML files (piccolo or PICCL format)")->required();
    add_quiet_flag(*verify, *quiet, "print nothing on success");
    verify->callback([files, quiet] {
        for (const std::string& file : *files) verify_file(file, *quiet);
    });
}

}  // namespace piccolo::cli
