// piccolo calibrate: fits a few knobs of a measured profile to measured collective times and
// shows, by cross-validation, what the fit gains on cells it never saw (docs/accuracy.md).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "command_line.hpp"
#include "machine_option.hpp"
#include "piccolo/cli/commands.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/studies/calibrate.hpp"
#include "text_files.hpp"

namespace piccolo::cli {

namespace {

struct CalibrateCommand {
    std::string measured;
    std::string machine;
    std::vector<std::string> sets;
    std::string output;
    bool force = false;
    int threads = 0;
    const CLI::Option* threads_option = nullptr;
};

void run_calibrate(const CalibrateCommand& c) {
    if (!c.output.empty()) check_writable(c.output);
    const Measurement measurement = read_measurement(c.measured);
    const Machine machine = load_machine_with(c.machine, c.sets);
    if (c.threads_option->count() > 0 && c.threads < 1)
        throw InputError(fmt::format("--threads: must be >= 1 (got {})", c.threads));
    const CalibrationReport report = calibrate(measurement, machine, {c.force, c.threads});
    fmt::print("{}", calibration_table(report));
    if (!c.output.empty()) write_text_file(c.output, calibrated_yaml(report, this_command_line()));
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
    auto c = std::make_shared<CalibrateCommand>();
    CLI::App* cmd = app.add_subcommand(
        "calibrate",
        "Fit the profile's per-level latency and bandwidth and its compute cost to "
        "piccolo-run-mpi's times of every candidate, with cross-validation (one algorithm left "
        "out; lower vs upper sizes); write the calibrated machine");
    cmd->add_option("--measured", c->measured, "piccolo-run-mpi --csv or --json file")->required();
    cmd->add_option("-m,--machine", c->machine,
                    "the profile to calibrate: preset name or machine file "
                    "(piccolo-profile-mpi -o)")
        ->required();
    add_set_option(*cmd, c->sets);
    cmd->add_option("-o,--output", c->output,
                    "write the calibrated machine YAML (with a record of the fit) here");
    cmd->add_flag("--force", c->force, "calibrate on timings flagged noisy");
    c->threads_option = cmd->add_option(
        "--threads,-j", c->threads,
        "worker threads (default: every core); the output is the same for any number");
    cmd->callback([c] { run_calibrate(*c); });
}

}  // namespace piccolo::cli
