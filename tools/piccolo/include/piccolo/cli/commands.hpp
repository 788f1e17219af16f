#pragma once
// Each subcommand of the piccolo CLI lives in its own file and registers itself here.

#include "piccolo/cli/sweep_hooks.hpp"

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
// The same two commands with their sweeps run as `hooks` say (piccolo-mpi).
void add_select_command_with(CLI::App& app, const SweepHooks& hooks);
void add_compare_command_with(CLI::App& app, const SweepHooks& hooks);
void add_fit_command(CLI::App& app);
void add_accuracy_command(CLI::App& app);
void add_calibrate_command(CLI::App& app);

}  // namespace piccolo::cli
