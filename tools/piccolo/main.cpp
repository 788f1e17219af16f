// piccolo: pick the parameters of collective algorithms by simulation. One subcommand per file.
#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <iostream>
#include <new>
#include <string>

#include "piccolo/cli/commands.hpp"
#include "piccolo/core/error.hpp"

namespace {

// The first word when it is no option and names no command, so that `piccolo frobnicate` says
// so instead of CLI11's "A subcommand is required"; "" otherwise.
std::string unknown_command(const CLI::App& app, int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '-') return {};
    const std::string word = argv[1];
    std::string names;
    for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
        if (command->check_name(word)) return {};
        names += (names.empty() ? "" : ", ") + command->get_name();
    }
    return fmt::format("unknown command '{}' (the commands are {}; see piccolo --help)", word,
                       names);
}

}  // namespace

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
          piccolo::cli::add_accuracy_command, piccolo::cli::add_calibrate_command})
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
        if (const std::string unknown = unknown_command(app, argc, argv); !unknown.empty()) {
            fmt::print(stderr, "piccolo: error: {}\n", unknown);
            return 2;
        }
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
