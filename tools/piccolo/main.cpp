// piccolo: pick the parameters of collective algorithms by simulation. One subcommand per file.
#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <iostream>
#include <new>

#include "commands.hpp"
#include "piccolo/error.hpp"

int main(int argc, char** argv) {
    CLI::App app{
        "piccolo: choose the radix k of k-ring, recursive multiplying and permuted "
        "recursive multiplying collectives by simulation"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "piccolo 0.1.0");
    // The subcommands in the order --help lists them; a new one is one more entry.
    for (const auto add_command :
         {piccolo::cli::add_gen_command, piccolo::cli::add_verify_command,
          piccolo::cli::add_algorithms_command, piccolo::cli::add_machines_command,
          piccolo::cli::add_sim_command, piccolo::cli::add_select_command,
          piccolo::cli::add_compare_command, piccolo::cli::add_fit_command,
          piccolo::cli::add_accuracy_command})
        add_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "piccolo: error: {} (see piccolo --help)\n", e.what());
        return 2;
    } catch (const piccolo::InputError& e) {
        fmt::print(stderr, "piccolo: error: {}\n", e.what());
        return 2;
    } catch (const std::bad_alloc&) {
        fmt::print(stderr,
                   "piccolo: error: not enough memory for this request (use fewer ranks; gen "
                   "--no-payload needs less)\n");
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "piccolo: internal error: {} (please report it)\n", e.what());
        return 1;
    }
    return 0;
}
