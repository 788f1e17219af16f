// piccolo fit: refit raw profiler samples (the CSV piccolo-profile-mpi / -nccl write next to
// their YAML) into a machine profile, offline. Same fit, same YAML as the live profiler.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <string>

#include "piccolo/cli/commands.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/profiler/fit.hpp"
#include "piccolo/profiler/raw_data.hpp"
#include "text_files.hpp"

namespace piccolo::cli {

namespace {

struct FitCommandOptions {
    std::string raw;
    std::string output = "-";
};

void run_fit(const FitCommandOptions& o) {
    check_writable(o.output);
    const profiler::RawData raw = profiler::read_raw_csv(o.raw);
    const profiler::ProfileFit fit = profiler::fit_profile(raw, o.raw);
    std::string yaml;
    try {
        yaml = profiler::profile_yaml(raw, fit);
    } catch (const InputError& error) {  // the fitted machine is invalid: say which file
        throw InputError(fmt::format("{}: {}", o.raw, error.what()));
    }
    write_text_file(o.output, yaml);
    if (o.output == "-") return;
    // The report is in the YAML header too; show it when the YAML went to a file.
    std::cout << profiler::format_report(fit) << fmt::format("wrote {}\n", o.output);
}

}  // namespace

void add_fit_command(CLI::App& app) {
    auto options = std::make_shared<FitCommandOptions>();
    CLI::App* fit = app.add_subcommand(
        "fit",
        "Refit raw profiler samples (RAW.csv from piccolo-profile-mpi/-nccl) into a machine "
        "YAML for piccolo sim --machine");
    fit->add_option("RAW.csv", options->raw, "raw samples written by the profiler (--raw)")
        ->required();
    fit->add_option("-o,--output", options->output, "machine YAML to write, - for stdout")
        ->capture_default_str();
    fit->callback([options] { run_fit(*options); });
}

}  // namespace piccolo::cli
