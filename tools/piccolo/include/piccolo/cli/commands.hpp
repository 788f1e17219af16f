#pragma once
// Each subcommand of the piccolo CLI lives in its own file and registers itself here.

namespace CLI {
class App;
}

namespace piccolo::cli {

void add_gen_command(CLI::App& app);
void add_verify_command(CLI::App& app);
void add_algorithms_command(CLI::App& app);
void add_machines_command(CLI::App& app);
void add_sim_command(CLI::App& app);
void add_select_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_fit_command(CLI::App& app);
void add_accuracy_command(CLI::App& app);
void add_calibrate_command(CLI::App& app);

}  // namespace piccolo::cli
