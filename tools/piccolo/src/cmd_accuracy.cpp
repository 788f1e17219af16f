// piccolo accuracy: how well simulation on a machine profile picks what measurement picks. Reads
// piccolo-run-mpi's measurement of every candidate (measured on the cluster), simulates the same
// candidates on the profile (here) and scores the prediction per size (docs/accuracy.md).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <iostream>

#include "command_line.hpp"
#include "machine_option.hpp"
#include "piccolo/cli/commands.hpp"
#include "piccolo/core/error.hpp"
#include "piccolo/studies/accuracy.hpp"
#include "text_files.hpp"

namespace piccolo::cli {

namespace {

struct AccuracyCommand {
    std::string measured;
    std::string machine;
    std::vector<std::string> sets;
    std::string csv, json, report;
};

void run_accuracy(const AccuracyCommand& c) {
    // Simulating every candidate takes a while: an output that cannot be written is said first.
    for (const std::string* output : {&c.csv, &c.json, &c.report})
        if (!output->empty()) check_writable(*output);
    Measurement measurement = read_measurement(c.measured);
    const Machine machine = load_machine_with(c.machine, c.sets);
    const std::vector<double> predicted = predict_candidates(measurement, machine);
    AccuracyReport report = score_accuracy(std::move(measurement), predicted);
    report.machine = machine.name;
    report.profile = c.machine;
    fmt::print("{}", accuracy_table(report));
    if (!c.csv.empty()) write_text_file(c.csv, accuracy_csv(report));
    if (!c.json.empty()) write_text_file(c.json, accuracy_json(report));
    if (!c.report.empty()) write_text_file(c.report, accuracy_html(report, this_command_line()));
}

}  // namespace

void add_accuracy_command(CLI::App& app) {
    auto c = std::make_shared<AccuracyCommand>();
    CLI::App* cmd = app.add_subcommand(
        "accuracy",
        "Score simulation against measurement: piccolo-run-mpi's times of every candidate vs "
        "the times simulated on a machine profile (captured share, Spearman, per size)");
    cmd->add_option("--measured", c->measured, "piccolo-run-mpi --csv or --json file")->required();
    cmd->add_option("-m,--machine", c->machine,
                    "the profile to judge: preset name or machine file (piccolo-profile-mpi -o)")
        ->required();
    add_set_option(*cmd, c->sets);
    cmd->add_option("--csv", c->csv, "also write the per-size scores as CSV");
    cmd->add_option("--json", c->json, "also write the scores and every candidate as JSON");
    cmd->add_option("--report", c->report,
                    "write an HTML page: predicted vs measured time per candidate, captured share "
                    "per size");
    cmd->callback([c] { run_accuracy(*c); });
}

}  // namespace piccolo::cli
